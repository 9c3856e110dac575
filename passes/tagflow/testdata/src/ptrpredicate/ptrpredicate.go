// Package ptrpredicate: a receive helper that filters pointer messages
// with a predicate of the process (m.Round == p.round && m.Step == p.step).
// The helper is handed a pointer: memory below it is the process state,
// but the predicate's own values are not (they were all dropped at its
// blocks, with the comparison its result stands for).
package ptrpredicate

import "time"

// Step is a step of a round.
type Step int

const (
	Est Step = iota
	Ack
)

// Msg is any message.
//
//sync:msg Round,Step
type Msg struct {
	Round int
	Step  Step
	Value int
}

// Net carries messages.
type Net interface {
	//sync:recv
	Recv(d time.Duration) (m *Msg, ok bool)
}

// P is a process.
type P struct {
	round int
	step  Step
	net   Net
}

func (p *P) current(m *Msg) bool {
	return m.Round == p.round && m.Step == p.step
}

func (p *P) notLater(m *Msg) bool {
	return m.Round <= p.round && m.Step == p.step
}

func (p *P) gather(k int) []*Msg {
	var got []*Msg
	for len(got) < k {
		m, ok := p.net.Recv(time.Second)
		if !ok {
			break
		}
		if !p.current(m) {
			continue
		}
		got = append(got, m)
	}
	return got
}

func (p *P) gatherStale(k int) []*Msg {
	var got []*Msg
	for len(got) < k {
		m, ok := p.net.Recv(time.Second)
		if !ok {
			break
		}
		if !p.notLater(m) {
			continue
		}
		got = append(got, m) // want `condition 3: Msg stored without checking that its tag is >= \(p.round,p.step\): a message of an earlier round can get in`
	}
	return got
}

// Run keeps the messages of the current round.
func (p *P) Run() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = Est
		ests := p.gather(3)
		p.step = Ack
		acks := p.gather(3)
		_, _ = ests, acks
	}
}

// Stale keeps earlier rounds' too.
func (p *P) Stale() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = Est
		ests := p.gatherStale(3)
		_ = ests
	}
}
