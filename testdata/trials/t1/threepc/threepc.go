package threepc

import (
	"sync"
	"time"
)

// Step is the round of a transaction in three-phase commit.
type Step int

// The steps of one transaction, in execution order.
const (
	CanCommit Step = iota // coordinator -> all: may the transaction commit?
	Vote                  // all -> coordinator: yes or no
	PreCommit             // coordinator -> all: prepare to commit, or abort
	Ack                   // all -> coordinator: pre-committed
	DoCommit              // coordinator -> all: commit
)

// Msg is the message of every step.
//
//sync:msg Txn,Step
type Msg struct {
	Txn   int
	Step  Step
	From  int
	Yes   bool // Vote: the participant's vote
	Abort bool // PreCommit: the coordinator decided to abort
}

// Outcome is the fate of a transaction at one site.
type Outcome int

// The outcomes.
const (
	Unknown Outcome = iota
	Committed
	Aborted
)

// Network is an in-memory network. Sends of one call are queued atomically,
// so delivery is causal; inboxes are FIFO.
type Network struct {
	mu    sync.Mutex
	inbox []chan Msg
}

// NewNetwork returns a network of n sites.
func NewNetwork(n int) *Network {
	nw := &Network{inbox: make([]chan Msg, n)}
	for i := range nw.inbox {
		nw.inbox[i] = make(chan Msg, 1024)
	}
	return nw
}

// Send queues m for site to; a full inbox loses it.
//
//sync:send
func (nw *Network) Send(to int, m Msg) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	select {
	case nw.inbox[to] <- m:
	default:
	}
}

// Recv returns the next message of site id, or false once deadline passed.
//
//sync:recv
func (nw *Network) Recv(id int, deadline time.Time) (Msg, bool) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case m := <-nw.inbox[id]:
		return m, true
	case <-timer.C:
		return Msg{}, false
	}
}

// Process is one site.
type Process struct {
	id, n   int
	net     *Network
	timeout time.Duration
	vote    func(txn int) bool // the local resource manager's vote

	txn  int  // phase: the transaction
	step Step // round: the step of the transaction

	outcomes map[int]Outcome
}

// coordinator is the id of the coordinating site.
const coordinator = 0

// New returns site id of n, deciding its votes with vote.
func New(id, n int, net *Network, timeout time.Duration, vote func(txn int) bool) *Process {
	return &Process{id: id, n: n, net: net, timeout: timeout, vote: vote, outcomes: make(map[int]Outcome)}
}

// Outcomes returns the outcome of every transaction this site took part in.
func (p *Process) Outcomes() map[int]Outcome { return p.outcomes }

// Run runs the protocol until transaction txns has been handled.
func (p *Process) Run(txns int) {
	coord := p.id == coordinator
	//sync:tag p.txn,p.step
	for p.txn < txns {
		p.txn++
		p.step = CanCommit
		if coord {
			p.broadcast(Msg{Txn: p.txn, Step: CanCommit, From: p.id})
		}
		got := p.collect(1, func(m Msg) bool {
			return m.Step == CanCommit && m.Txn >= p.txn && m.From == coordinator
		})
		if len(got) == 0 {
			continue // no coordinator: nothing was voted, forget it
		}
		p.txn = got[coordinator].Txn // we may have missed transactions

		p.step = Vote
		yes := p.vote(p.txn)
		p.send(coordinator, Msg{Txn: p.txn, Step: Vote, From: p.id, Yes: yes})
		if !yes {
			p.outcomes[p.txn] = Aborted // a no voter may abort at once
		}
		abort := !yes
		if coord {
			votes := p.collect(p.n, func(m Msg) bool { return m.Txn == p.txn && m.Step == Vote })
			abort = len(votes) < p.n
			for _, v := range votes {
				abort = abort || !v.Yes
			}
		}

		p.step = PreCommit
		if coord {
			p.broadcast(Msg{Txn: p.txn, Step: PreCommit, From: p.id, Abort: abort})
		}
		if !yes {
			continue
		}
		got = p.collect(1, func(m Msg) bool {
			return m.Txn == p.txn && m.Step == PreCommit && m.From == coordinator
		})
		if len(got) == 0 || got[coordinator].Abort {
			p.outcomes[p.txn] = Aborted // uncertain but not pre-committed: abort
			continue
		}

		p.step = Ack
		p.send(coordinator, Msg{Txn: p.txn, Step: Ack, From: p.id})
		if coord {
			// Sites that do not acknowledge have crashed or will commit on
			// their time-out: the coordinator goes on either way.
			p.collect(p.n, func(m Msg) bool { return m.Txn == p.txn && m.Step == Ack })
		}

		p.step = DoCommit
		if coord {
			p.broadcast(Msg{Txn: p.txn, Step: DoCommit, From: p.id})
		}
		// A pre-committed site commits whether DoCommit arrives or not.
		p.collect(1, func(m Msg) bool {
			return m.Txn == p.txn && m.Step == DoCommit && m.From == coordinator
		})
		p.outcomes[p.txn] = Committed
	}
}

// broadcast sends m to every site, this one included.
func (p *Process) broadcast(m Msg) {
	for q := range p.n {
		p.net.Send(q, m)
	}
}

// send sends m to site to.
func (p *Process) send(to int, m Msg) {
	p.net.Send(to, m)
}

// collect receives messages until need of them, from distinct senders, pass
// accept, or until the step times out; it returns them by sender.
func (p *Process) collect(need int, accept func(Msg) bool) map[int]Msg {
	got := make(map[int]Msg, need)
	deadline := time.Now().Add(p.timeout)
	for len(got) < need {
		m, ok := p.net.Recv(p.id, deadline)
		if !ok {
			break
		}
		if !accept(m) {
			continue
		}
		got[m.From] = m
	}
	return got
}
