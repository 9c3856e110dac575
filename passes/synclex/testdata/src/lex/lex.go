// Package lex has message filters over the tag (height, round): the ones
// comparing the round without the height are reported. The loop calls each
// filter with a received message (only filters of received messages are
// reported).
package lex

import "sync"

// View is a position in the protocol.
type View struct {
	Height, Round uint64
}

// Msg is a message of the protocol.
//
//sync:msg View.Height,View.Round
type Msg struct {
	View *View
	From int
}

// Proc is a replica.
type Proc struct {
	mu    sync.Mutex
	view  View
	inbox chan *Msg
	out   chan *Msg
	kept  []*Msg
}

func (p *Proc) getRound() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.view.Round
}

func (p *Proc) getHeight() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.view.Height
}

// Run is the protocol loop.
func (p *Proc) Run() {
	//sync:tag p.view.Height,p.view.Round
	for {
		p.view.Round++
		p.out <- &Msg{View: &View{p.view.Height, p.view.Round}}
		m := <-p.inbox
		if p.acceptable(m) && p.direct(m) && p.fixed(m) && p.lexicographic(m) &&
			p.heightFirst(m) && p.heightOnly(m) && otherRounds(m, p.kept[0]) {
			p.kept = append(p.kept, m)
		}
	}
}

// acceptable is go-ibft's isAcceptableMessage before its fix.
func (p *Proc) acceptable(m *Msg) bool {
	if p.getHeight() > m.View.Height {
		return false
	}
	return m.View.Round >= p.getRound() // want `advisory: Msg filter compares p.view.Round without p.view.Height: messages of a later p.view.Height with a lower p.view.Round are dropped \(liveness; compare p.view.Height for equality first\)`
}

// direct compares the fields directly.
func (p *Proc) direct(m *Msg) bool {
	if m.View.Round < p.view.Round { // want `advisory: Msg filter compares p.view.Round without p.view.Height`
		return false
	}
	return m.View.Height >= p.view.Height
}

// fixed is go-ibft's isAcceptableMessage after its fix: silent.
func (p *Proc) fixed(m *Msg) bool {
	if p.getHeight() > m.View.Height {
		return false
	}
	if p.getHeight() == m.View.Height {
		return m.View.Round >= p.getRound()
	}
	return true
}

// lexicographic is the textbook form: silent.
func (p *Proc) lexicographic(m *Msg) bool {
	return m.View.Height > p.view.Height || m.View.Height == p.view.Height && m.View.Round >= p.view.Round
}

// heightFirst compares the heights for inequality first: silent.
func (p *Proc) heightFirst(m *Msg) bool {
	if m.View.Height != p.view.Height {
		return m.View.Height > p.view.Height
	}
	return uint64(m.View.Round) >= p.view.Round
}

// heightOnly compares only the highest component: silent.
func (p *Proc) heightOnly(m *Msg) bool {
	return m.View.Height >= p.view.Height
}

// otherRounds compares rounds of two messages, not the process's: silent.
func otherRounds(a, b *Msg) bool {
	return a.View.Round < b.View.Round
}
