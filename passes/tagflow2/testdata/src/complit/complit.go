// Package complit builds a value of the type that holds the tag (a
// header) as a composite literal: its fields are the literal's, not the
// process's tag, so writing them moves nothing.
package complit

type Step int

const (
	A Step = iota
	B
)

type Hdr struct {
	View int
	Step Step
}

//sync:msg View,Step
type Msg struct {
	View int
	Step Step
}

type proc struct {
	hdr  Hdr
	prev []Hdr
	out  chan<- Msg
}

// Run records the header of the previous view as a literal.
func (p *proc) Run() {
	//sync:tag p.hdr.View,p.hdr.Step
	for {
		p.hdr.View++
		p.hdr.Step = A
		p.prev = append(p.prev, Hdr{View: p.hdr.View - 1, Step: B})
		p.out <- Msg{View: p.hdr.View, Step: A}
	}
}
