// Package hdrhelper is about a message's nested header handed to a helper
// by value (r.catchUp(m.Hdr)): what the helper tests and assigns from the
// header is the message's tag.
package hdrhelper

type Phase int

const (
	NewView Phase = iota
	Propose
	Vote
)

type Header struct {
	View  uint64
	Phase Phase
}

//sync:msg Hdr.View,Hdr.Phase
type Msg struct {
	Hdr  Header
	From int
}

type Net interface {
	//sync:send
	Send(to int, m Msg)
}

//sync:tag view,phase
type Replica struct {
	net   Net
	view  uint64
	phase Phase
}

// catchUp moves to h if it is later, and reports whether a message with
// header h is to be handled.
func (r *Replica) catchUp(h Header) bool {
	if h.View < r.view || h.View == r.view && h.Phase < r.phase {
		return false
	}
	if h.View > r.view || h.Phase > r.phase {
		r.view, r.phase = h.View, h.Phase
	}
	return true
}

// behind reports whether h is of an earlier round, without moving.
func (r *Replica) behind(h Header) bool {
	return h.View < r.view
}

// OnMessage votes on whatever it caught up with.
//
//sync:handler
func (r *Replica) OnMessage(m Msg) {
	if !r.catchUp(m.Hdr) {
		return
	}
	r.phase = Vote
	r.net.Send(m.From, Msg{Hdr: Header{View: r.view, Phase: r.phase}})
}

// OnLate votes in a later view without moving to it.
//
//sync:handler
func (r *Replica) OnLate(m Msg) {
	if r.behind(m.Hdr) {
		return
	}
	r.phase = Vote
	r.net.Send(m.From, Msg{Hdr: Header{View: r.view, Phase: r.phase}}) // want `cannot prove 4: the process sends while a Msg that may be of a later round is kept, without a jump to its round first`
}
