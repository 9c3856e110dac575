package phasequeen

import (
	"fmt"
	"time"
)

// Round is the round part of the tag (phase, round).
type Round int

// The two rounds of a phase.
const (
	// Exchange: everybody broadcasts its current value.
	Exchange Round = iota
	// Crown: the queen of the phase broadcasts the majority value it saw.
	Crown
)

// Msg is a message of the protocol: a Value or a Queen.
type Msg interface{ sender() int }

// Value is a process's current value in round Exchange of a phase.
//
//sync:msg Phase,Exchange
type Value struct {
	Phase int
	From  int
	V     string
}

// Queen is the queen's majority value in round Crown of a phase.
//
//sync:msg Phase,Crown
type Queen struct {
	Phase int
	From  int
	V     string
}

func (m Value) sender() int { return m.From }
func (m Queen) sender() int { return m.From }

// Process is one process of the protocol; its fields belong to Run while it
// executes.
type Process struct {
	id, n, f int
	net      Transport[Msg]
	timeout  time.Duration

	// The tag (phase, round) of the loop in Run.
	phase int
	round Round

	v string // the current value
}

// NewProcess returns process id of n, tolerating f Byzantine processes, with
// initial value input; a round waits at most timeout for missing messages.
func NewProcess(id, n, f int, net Transport[Msg], input string, timeout time.Duration) (*Process, error) {
	if id < 0 || id >= n || n <= 4*f {
		return nil, fmt.Errorf("phasequeen: need 0 <= id < n and n > 4f, got id=%d n=%d f=%d", id, n, f)
	}
	return &Process{id: id, n: n, f: f, net: net, timeout: timeout, v: input}, nil
}

// queenOf returns the queen of a phase (phases start at 1).
func (p *Process) queenOf(phase int) int { return (phase - 1) % p.n }

// Run runs the f+1 phases and returns the decision.
func (p *Process) Run() string {
	p.phase = 1
	//sync:tag p.phase,p.round
	for p.phase <= p.f+1 {
		p.round = Exchange
		p.net.Broadcast(Value{Phase: p.phase, From: p.id, V: p.v})
		values := make(map[int]string)
		deadline := time.Now().Add(p.timeout)
		for len(values) < p.n {
			m, ok := p.net.Recv(deadline)
			if !ok {
				break
			}
			switch m := m.(type) {
			case Value:
				if m.Phase != p.phase {
					continue
				}
				values[m.From] = m.V
			case Queen:
				continue // a queen of an earlier phase, late
			}
		}
		maj, mult := majority(values)

		p.round = Crown
		queen := p.queenOf(p.phase)
		if queen == p.id {
			p.net.Broadcast(Queen{Phase: p.phase, From: p.id, V: maj})
		}
		var crowned []string
		deadline = time.Now().Add(p.timeout)
		for len(crowned) == 0 {
			m, ok := p.net.Recv(deadline)
			if !ok {
				break
			}
			q, isQueen := m.(Queen)
			if !isQueen || q.Phase != p.phase || q.From != queen {
				continue
			}
			crowned = append(crowned, q.V)
		}

		// Keep a value held by more than n/2+f processes: then every
		// honest process holds it and the queen cannot overturn it.
		switch {
		case 2*mult > p.n+2*p.f:
			p.v = maj
		case len(crowned) > 0:
			p.v = crowned[0]
		default:
			p.v = maj // the queen is faulty
		}
		p.phase++
	}
	return p.v
}

// majority returns the most frequent value of a mailbox (the smallest on a
// tie) and its number of occurrences.
func majority(values map[int]string) (maj string, mult int) {
	counts := make(map[string]int)
	for _, v := range values {
		counts[v]++
	}
	for v, c := range counts {
		if c > mult || c == mult && v < maj {
			maj, mult = v, c
		}
	}
	return maj, mult
}
