package phaseking

import (
	"sync"
	"time"
)

// Step is the round inside a phase.
type Step int

// The three rounds of a phase, in execution order.
const (
	Exchange Step = iota // everybody sends its value
	Propose              // values seen n-f times are proposed
	Crown                // the phase's king sends its value
)

// Value is a process's value in round Exchange.
//
//sync:msg Phase,Exchange
type Value struct {
	Phase int
	V     int
}

// Proposal proposes V if Some is set. Every process sends one in round
// Propose, so that the round ends when every process was heard of rather
// than on its timer.
//
//sync:msg Phase,Propose
type Proposal struct {
	Phase int
	V     int
	Some  bool
}

// KingValue is the king's value.
//
//sync:msg Phase,Crown
type KingValue struct {
	Phase int
	V     int
}

// Envelope is what the channels carry: a message and its sender, which the
// channels authenticate (a process only writes its own id).
type Envelope struct {
	From int
	Msg  any
}

// Proc is one process; up to f of the n > 3f processes may be Byzantine.
type Proc struct {
	id      int
	n, f    int
	in      <-chan Envelope   //sync:inbox From,Msg
	peers   []chan<- Envelope //sync:peers From,Msg
	wire    *sync.Mutex       // shared by the group: a broadcast is enqueued at once
	timeout time.Duration
	lie     func(to, v int) int // Byzantine behaviour in tests; nil for honest processes

	phase int
	step  Step

	v int // the current binary value
}

// Value returns the process's value (its decision after Run).
func (p *Proc) Value() int { return p.v }

func (p *Proc) king() int { return (p.phase - 1) % p.n }

func (p *Proc) broadcast(mk func(v int) any) {
	p.wire.Lock()
	defer p.wire.Unlock()
	for q, ch := range p.peers {
		v := p.v
		if p.lie != nil {
			v = p.lie(q, v)
		}
		select {
		case ch <- Envelope{From: p.id, Msg: mk(v)}:
		default:
		}
	}
}

// Run executes the f+1 phases and leaves the decision in p.v.
func (p *Proc) Run() {
	//sync:tag p.phase,p.step
	for range p.f + 1 {
		p.phase++
		p.step = Exchange
		p.broadcast(func(v int) any { return Value{Phase: p.phase, V: v} })
		vals := p.collect(p.n)
		proposal, ok := atLeast(vals, p.n-p.f)

		p.step = Propose
		p.broadcastProposal(proposal, ok)
		props := p.collect(p.n)
		mult := 0
		if x, k := majorityOf(props); k > p.f {
			p.v, mult = x, k
		}

		p.step = Crown
		if p.king() == p.id {
			p.broadcast(func(v int) any { return KingValue{Phase: p.phase, V: v} })
		}
		kv := p.collect(1)
		if kingV, heard := kv[p.king()]; heard && mult < p.n-p.f {
			p.v = kingV
		}
	}
}

// broadcastProposal proposes x to everybody if some is set, and tells
// everybody it proposes nothing otherwise.
func (p *Proc) broadcastProposal(x int, some bool) {
	p.wire.Lock()
	defer p.wire.Unlock()
	for q, ch := range p.peers {
		v := x
		if p.lie != nil {
			v = p.lie(q, v)
		}
		select {
		case ch <- Envelope{From: p.id, Msg: Proposal{Phase: p.phase, V: v, Some: some}}:
		default:
		}
	}
}

// collect receives the current round's messages, one value per sender,
// until need senders were heard of or the timer fires.
func (p *Proc) collect(need int) map[int]int {
	got := make(map[int]int)
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	for len(got) < need {
		select {
		case e := <-p.in:
			switch m := e.Msg.(type) {
			case Value:
				if p.step == Exchange && m.Phase == p.phase {
					got[e.From] = m.V
				}
			case Proposal:
				if p.step == Propose && m.Phase == p.phase {
					got[e.From] = none
					if m.Some {
						got[e.From] = m.V
					}
				}
			case KingValue:
				if p.step == Crown && m.Phase == p.phase && e.From == p.king() {
					got[e.From] = m.V
				}
			}
		case <-timer.C:
			return got
		}
	}
	return got
}

// none stands for "no proposal" in a round's values; majorityOf counts
// only 0 and 1.
const none = -1

// atLeast returns a value that at least k senders sent, if any.
func atLeast(vals map[int]int, k int) (int, bool) {
	x, c := majorityOf(vals)
	return x, c >= k
}

// majorityOf returns the most frequent value (0 on a tie) and its count.
func majorityOf(vals map[int]int) (int, int) {
	var count [2]int
	for _, v := range vals {
		if v == 0 || v == 1 {
			count[v]++
		}
	}
	if count[1] > count[0] {
		return 1, count[1]
	}
	return 0, count[0]
}
