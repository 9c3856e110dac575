// Package ptrflag: a pointer message kept in a variable (dec = m) and a
// flag set with it (got = true) in the same reception: the flag stores the
// message the variable holds, whose filter is checked.
package ptrflag

import "time"

// Step is a step of a round.
type Step int

const (
	Est Step = iota
	Decide
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
	round    int
	step     Step
	net      Net
	decision int
}

// Run keeps a Decide of its round or a later one.
func (p *P) Run() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = Decide
		var dec *Msg
		got := false
		for !got {
			m, ok := p.net.Recv(time.Second)
			if !ok {
				break
			}
			if m.Step != Decide || m.Round < p.round {
				continue
			}
			dec = m
			got = true
		}
		if got {
			p.round = dec.Round
			p.decision = dec.Value
		}
	}
}

// AnyRound keeps a Decide of any round.
func (p *P) AnyRound() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = Decide
		var dec *Msg
		got := false
		for !got {
			m, ok := p.net.Recv(time.Second)
			if !ok {
				break
			}
			if m.Step != Decide {
				continue
			}
			dec = m // want `condition 3: Msg stored without checking that its tag is >= \(p.round,p.step\): a message of an earlier round can get in`
			got = true
		}
		if got {
			p.decision = dec.Value
		}
	}
}
