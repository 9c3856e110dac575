// Package headers sends messages the way real code builds them: a pointer
// to a message handed to a parameter of type any, and a message whose tag
// sits in a nested header written as a composite literal. The sends are
// followed, so a header stamped with the wrong view is condition II.
package headers

type Step int

const (
	Prep Step = iota
	Ack
)

type Header struct {
	View int
	Op   int
	From int
}

//sync:msg Hdr.View,Hdr.Op,Prep
type Prepare struct {
	Hdr Header
	Req string
}

//sync:msg Hdr.View,Hdr.Op,Ack
type PrepareOK struct {
	Hdr Header
}

type Bus interface {
	//sync:send
	Send(to int, m any)
}

type replica struct {
	bus    Bus
	id     int
	view   int
	op     int
	phase  Step
	commit int
}

func (r *replica) broadcast(n int, m any) {
	for to := range n {
		r.bus.Send(to, m) // want `condition 2: Prepare is sent with a tag other than the current one \(r.view,r.op,r.phase\)`
	}
}

// Run stamps both messages with the current view and operation.
func (r *replica) Run(n int, reqs []string) {
	//sync:tag r.view,r.op,r.phase
	for _, req := range reqs {
		r.op++
		r.phase = Prep
		r.broadcast(n, &Prepare{Hdr: Header{View: r.view, Op: r.op, From: r.id}, Req: req})
		r.phase = Ack
		r.bus.Send(0, &PrepareOK{Hdr: Header{View: r.view, Op: r.op}})
	}
}

// CommitAsOp puts the commit number where the operation number belongs.
func (r *replica) CommitAsOp(n int, reqs []string) {
	//sync:tag r.view,r.op,r.phase
	for _, req := range reqs {
		r.op++
		r.phase = Prep
		r.broadcast(n, &Prepare{Hdr: Header{View: r.view, Op: r.op, From: r.id}, Req: req})
		r.phase = Ack
		r.bus.Send(0, &PrepareOK{Hdr: Header{View: r.view, Op: r.commit}}) // want `cannot prove 2: PrepareOK may be sent with a tag other than the current one \(r.view,r.op,r.phase\)`
	}
}

// OldView proposes in the view before the current one (reported at the
// send in broadcast, the callee that sends it).
func (r *replica) OldView(n int, reqs []string) {
	//sync:tag r.view,r.op,r.phase
	for _, req := range reqs {
		r.op++
		r.phase = Prep
		r.broadcast(n, &Prepare{Hdr: Header{View: r.view - 1, Op: r.op, From: r.id}, Req: req})
		r.phase = Ack
		r.bus.Send(0, &PrepareOK{Hdr: Header{View: r.view, Op: r.op}})
	}
}
