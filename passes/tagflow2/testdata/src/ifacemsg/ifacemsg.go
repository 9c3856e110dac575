// Package ifacemsg has an interface message read through methods, as
// dBFT's payloads are: the concrete messages embed a common header whose
// getters return the view, and say their round with a method returning a
// constant. A concrete message built with the header a method of the
// process fills from the tag is sent with the current tag; one built with
// another view is not.
package ifacemsg

type Kind uint8

const (
	KindPrepare Kind = iota
	KindCommit
)

//sync:msg View(),Kind()
type Message interface {
	View() uint64
	Kind() Kind
	Sender() int
}

type header struct {
	V    uint64
	From int
}

func (h header) View() uint64 { return h.V }
func (h header) Sender() int  { return h.From }

type Prepare struct {
	header
	Digest string
}

func (Prepare) Kind() Kind { return KindPrepare }

type Commit struct {
	header
}

func (Commit) Kind() Kind { return KindCommit }

type Net interface {
	//sync:send
	Multicast(m Message)
	//sync:recv
	Recv() (Message, bool)
}

type replica struct {
	id   int
	view uint64
	kind Kind
	net  Net
}

func (r *replica) hdr() header { return header{V: r.view, From: r.id} }

// Run prepares and commits in each view.
func (r *replica) Run(d string) {
	//sync:tag r.view,r.kind
	for {
		r.view++
		r.kind = KindPrepare
		r.net.Multicast(Prepare{header: r.hdr(), Digest: d})
		r.kind = KindCommit
		r.net.Multicast(Commit{header: r.hdr()})
	}
}

// OldView commits with the view before the current one.
func (r *replica) OldView(d string) {
	//sync:tag r.view,r.kind
	for {
		r.view++
		r.kind = KindPrepare
		r.net.Multicast(Prepare{header: r.hdr(), Digest: d})
		r.kind = KindCommit
		r.net.Multicast(Commit{header: header{V: r.view - 1, From: r.id}}) // want `condition 2: Commit is sent with a tag other than the current one \(r.view,r.kind\)`
	}
}

// Senders collects who sent the messages of its round: calling a message's
// own method reads it and hands it nowhere.
func (r *replica) Senders() []int {
	var from []int
	//sync:tag r.view,r.kind
	for r.view < 10 {
		m, ok := r.net.Recv()
		if !ok {
			return from
		}
		if m.Sender() == r.id {
			continue // its own, of any round
		}
		if m.View() != r.view || m.Kind() != r.kind {
			continue
		}
		from = append(from, m.Sender())
	}
	return from
}
