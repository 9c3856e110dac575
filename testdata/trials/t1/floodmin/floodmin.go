package floodmin

import (
	"slices"
	"time"
)

// Flood is the message of every round: the values its sender knows.
//
//sync:msg Round
type Flood struct {
	Round  int
	From   int
	Values []int
}

// Process is one participant of FloodMin.
type Process struct {
	id     int
	f      int
	period time.Duration // duration of a synchronous round

	in    <-chan Flood   // this process's inbox
	peers []chan<- Flood // peers[q] is the inbox of process q

	round int          // synchronization variable: the current round
	known map[int]bool // W: every value heard of so far
}

// New returns process id of a system tolerating f crashes, whose initial
// value is input. Every round lasts period, which must exceed the message
// delay.
func New(id, f, input int, period time.Duration, in <-chan Flood, peers []chan<- Flood) *Process {
	return &Process{
		id:     id,
		f:      f,
		period: period,
		in:     in,
		peers:  peers,
		known:  map[int]bool{input: true},
	}
}

// Run executes the f+1 rounds of FloodMin and returns the decision.
func (p *Process) Run() int {
	//sync:tag p.round
	for p.round < p.f+1 {
		p.flood()

		heard := make(map[int][]int, len(p.peers)) // sender -> values
		timer := time.NewTimer(p.period)
	collect:
		for {
			select {
			case m := <-p.in:
				if m.Round != p.round {
					continue // not of this round: lost for FloodSet
				}
				heard[m.From] = m.Values
			case <-timer.C:
				break collect // the round is over
			}
		}

		for _, values := range heard {
			for _, v := range values {
				p.known[v] = true
			}
		}
		p.round++
	}
	return p.decision()
}

// flood sends the values this process knows to every process, itself
// included.
func (p *Process) flood() {
	m := Flood{Round: p.round, From: p.id, Values: p.values()}
	for _, ch := range p.peers {
		ch <- m
	}
}

// values returns W in increasing order.
func (p *Process) values() []int {
	vs := make([]int, 0, len(p.known))
	for v := range p.known {
		vs = append(vs, v)
	}
	slices.Sort(vs)
	return vs
}

// decision is FloodMin's decision rule: the smallest value of W.
func (p *Process) decision() int {
	return p.values()[0]
}
