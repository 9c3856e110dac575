package mrbinary

import (
	"context"
	"sync"
)

// Step is the round part of the tag (r, step).
type Step int

// The steps of a round, in order.
const (
	BValStep Step = iota
	AuxStep
)

// BVal is a BV-broadcast message of round R.
//
//sync:msg R,BValStep
type BVal struct {
	R    int
	From int
	V    int
}

// Aux carries a value of the sender's bin_values in round R.
//
//sync:msg R,AuxStep
type Aux struct {
	R    int
	From int
	V    int
}

// Net is an in-memory network; broadcasts are atomic, hence causal.
type Net struct {
	mu      sync.Mutex
	inboxes []chan any
}

// NewNet returns a network of n processes.
func NewNet(n int) *Net {
	nw := &Net{}
	for range n {
		nw.inboxes = append(nw.inboxes, make(chan any, 4096))
	}
	return nw
}

// Inbox returns the inbox of process id.
func (nw *Net) Inbox(id int) <-chan any { return nw.inboxes[id] }

// Broadcast sends m to every process, the sender included.
//
//sync:send
func (nw *Net) Broadcast(m any) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	for _, in := range nw.inboxes {
		in <- m
	}
}

// Coin is the common coin of round r.
func Coin(r int) int { return r % 2 }

type process struct {
	id, n, f int
	net      *Net
	//sync:inbox
	inbox <-chan any

	r    int
	step Step

	est     int
	bvals   [2]map[int]bool // senders of BVAL(r, v)
	echoed  [2]bool
	bin     [2]bool
	auxes   map[int]int // sender -> value of its AUX(r, .)
	decided bool
	value   int
}

// Propose runs process id of n (tolerating f crashes) with input est for
// rounds rounds, and returns its decision, if any.
func Propose(ctx context.Context, nw *Net, id, n, f, est, rounds int) (int, bool) {
	p := &process{id: id, n: n, f: f, net: nw, inbox: nw.Inbox(id), r: 0, step: AuxStep, est: est}
	p.enter(1, true)

	//sync:tag p.r,p.step
	for p.r <= rounds {
		select {
		case <-ctx.Done():
			return p.value, p.decided
		case m := <-p.inbox:
			switch m := m.(type) {
			case BVal:
				if m.R < p.r || m.R == p.r && p.step > BValStep {
					continue // an earlier round's, or our BV-broadcast is over
				}
				if m.R > p.r {
					p.enter(m.R, false)
				}
				p.bvals[m.V][m.From] = true
				count := len(p.bvals[m.V])
				if count >= p.f+1 && !p.echoed[m.V] {
					p.echoed[m.V] = true
					p.net.Broadcast(BVal{R: p.r, From: p.id, V: m.V})
				}
				if count >= 2*p.f+1 {
					p.bin[m.V] = true
					p.step = AuxStep
					p.net.Broadcast(Aux{R: p.r, From: p.id, V: m.V})
				}
			case Aux:
				if m.R < p.r {
					continue
				}
				if m.R > p.r {
					p.enter(m.R, false)
				}
				if p.step < AuxStep {
					p.step = AuxStep
					p.net.Broadcast(Aux{R: p.r, From: p.id, V: m.V})
				}
				p.bin[m.V] = true
				p.auxes[m.From] = m.V
				if len(p.auxes) >= p.n-p.f {
					p.conclude()
				}
			}
		}
	}
	return p.value, p.decided
}

// conclude ends the round with the values of n-f AUX messages.
func (p *process) conclude() {
	var seen [2]bool
	for _, v := range p.auxes {
		seen[v] = true
	}
	coin := Coin(p.r)
	if seen[0] != seen[1] {
		v := 0
		if seen[1] {
			v = 1
		}
		p.est = v
		if v == coin && !p.decided {
			p.decided, p.value = true, v
		}
	} else {
		p.est = coin
	}
	p.enter(p.r+1, true)
}

// enter moves the process to round r, step BValStep, with fresh round state;
// a process that joins the round normally proposes its estimate.
func (p *process) enter(r int, propose bool) {
	p.r, p.step = r, BValStep
	p.bvals = [2]map[int]bool{{}, {}}
	p.echoed, p.bin = [2]bool{}, [2]bool{}
	p.auxes = make(map[int]int)
	if propose {
		p.echoed[p.est] = true
		p.net.Broadcast(BVal{R: p.r, From: p.id, V: p.est})
	}
}
