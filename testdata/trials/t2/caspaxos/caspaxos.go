package caspaxos

import (
	"sync"
	"time"
)

// Step is the round part of the tag (ballot, step).
type Step int

// The steps of a ballot, in order.
const (
	Prepare Step = iota
	Promise
	Accept
	Confirm
)

// PrepareReq opens Ballot.
//
//sync:msg Ballot,Prepare
type PrepareReq struct {
	Ballot int
}

// PromiseResp joins Ballot and reports the last accepted value.
//
//sync:msg Ballot,Promise
type PromiseResp struct {
	Ballot   int
	Accepted int // ballot of Value, 0 for the empty register
	Value    int
}

// AcceptReq asks to store Value in Ballot.
//
//sync:msg Ballot,Accept
type AcceptReq struct {
	Ballot int
	Value  int
}

// ConfirmResp confirms that Value was stored in Ballot.
//
//sync:msg Ballot,Confirm
type ConfirmResp struct {
	Ballot int
}

// quorum gathers at most one message per sender until it holds need.
type quorum[M any] struct {
	need int
	msgs map[int]M
}

func newQuorum[M any](need int) *quorum[M] {
	return &quorum[M]{need: need, msgs: make(map[int]M, need)}
}

func (q *quorum[M]) add(from int, m M) { q.msgs[from] = m }

func (q *quorum[M]) full() bool { return len(q.msgs) >= q.need }

// letter is a received message with its sender.
type letter[M any] struct {
	from int
	msg  M
}

// Network is an in-memory network; Broadcast is atomic, so delivery is
// causal.
type Network struct {
	mu    sync.Mutex
	inbox []chan packet
}

type packet struct {
	from int
	msg  any
}

// NewNetwork returns a network of n processes.
func NewNetwork(n int) *Network {
	nw := &Network{inbox: make([]chan packet, n)}
	for i := range nw.inbox {
		nw.inbox[i] = make(chan packet, 1024)
	}
	return nw
}

// Send sends m from process from to process to.
//
//sync:send
func (nw *Network) Send(from, to int, m any) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	nw.inbox[to] <- packet{from, m}
}

// Broadcast sends m from process from to everybody, itself included.
//
//sync:send
func (nw *Network) Broadcast(from int, m any) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	for _, in := range nw.inbox {
		in <- packet{from, m}
	}
}

// Recv returns the next message for process id and its sender, or false at
// the deadline.
//
//sync:recv
func (nw *Network) Recv(id int, deadline time.Time) (int, any, bool) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case p := <-nw.inbox[id]:
		return p.from, p.msg, true
	case <-timer.C:
		return 0, nil, false
	}
}

// Commit records a change this node committed as proposer.
type Commit struct {
	Ballot int
	Value  int
}

// Node is one CASPaxos process.
type Node struct {
	id, n   int
	net     *Network
	timeout time.Duration
	changes []func(int) int // pending changes this node proposes, in order

	ballot int
	step   Step

	accepted int // ballot of value
	value    int

	commits []Commit
}

// NewNode returns node id, which proposes changes in order.
func NewNode(id int, net *Network, timeout time.Duration, changes []func(int) int) *Node {
	return &Node{id: id, n: len(net.inbox), net: net, timeout: timeout, changes: changes}
}

// Run takes part in maxBallots ballots.
func (p *Node) Run(maxBallots int) {
	majority := p.n/2 + 1
	//sync:tag p.ballot,p.step
	for i := 0; i < maxBallots; i++ {
		p.ballot++
		p.step = Prepare
		leader := p.ballot % p.n
		proposing := leader == p.id && len(p.changes) > 0
		if proposing {
			p.net.Broadcast(p.id, PrepareReq{Ballot: p.ballot})
		}
		var opened []letter[PrepareReq]
		deadline := time.Now().Add(p.timeout)
		for len(opened) == 0 {
			from, msg, ok := p.net.Recv(p.id, deadline)
			if !ok {
				break
			}
			m, isPrep := msg.(PrepareReq)
			if !isPrep || m.Ballot < p.ballot {
				continue
			}
			opened = append(opened, letter[PrepareReq]{from, m})
		}
		if len(opened) > 0 {
			p.ballot = opened[0].msg.Ballot
			leader = opened[0].from
			proposing = proposing && leader == p.id
			p.step = Promise
			p.net.Send(p.id, leader, PromiseResp{Ballot: p.ballot, Accepted: p.accepted, Value: p.value})
		} else {
			p.step = Promise // nobody opened the ballot to us: we may still accept in it
		}

		next := 0
		if proposing {
			promises := newQuorum[PromiseResp](majority)
			deadline = time.Now().Add(p.timeout)
			for !promises.full() {
				from, msg, ok := p.net.Recv(p.id, deadline)
				if !ok {
					break
				}
				m, isPromise := msg.(PromiseResp)
				if !isPromise || m.Ballot != p.ballot {
					continue
				}
				promises.add(from, m)
			}
			if !promises.full() {
				continue
			}
			// Adopt the value of the highest ballot, then apply the change.
			latest := PromiseResp{}
			for _, m := range promises.msgs {
				if m.Accepted > latest.Accepted {
					latest = m
				}
			}
			next = p.changes[0](latest.Value)
		}

		p.step = Accept
		if proposing {
			p.net.Broadcast(p.id, AcceptReq{Ballot: p.ballot, Value: next})
		}
		var proposals []letter[AcceptReq]
		deadline = time.Now().Add(p.timeout)
		for len(proposals) == 0 {
			from, msg, ok := p.net.Recv(p.id, deadline)
			if !ok {
				break
			}
			m, isAccept := msg.(AcceptReq)
			if !isAccept || m.Ballot < p.ballot {
				continue // an older ballot's proposal: we promised not to take it
			}
			proposals = append(proposals, letter[AcceptReq]{from, m})
		}
		if len(proposals) == 0 {
			continue
		}
		p.ballot = proposals[0].msg.Ballot // join, if we missed its Prepare
		leader = proposals[0].from
		p.accepted, p.value = p.ballot, proposals[0].msg.Value
		p.step = Confirm
		p.net.Send(p.id, leader, ConfirmResp{Ballot: p.ballot})

		if proposing && leader == p.id {
			confirms := newQuorum[ConfirmResp](majority)
			deadline = time.Now().Add(p.timeout)
			for !confirms.full() {
				from, msg, ok := p.net.Recv(p.id, deadline)
				if !ok {
					break
				}
				m, isConfirm := msg.(ConfirmResp)
				if !isConfirm || m.Ballot != p.ballot {
					continue
				}
				confirms.add(from, m)
			}
			if confirms.full() {
				p.commits = append(p.commits, Commit{Ballot: p.ballot, Value: next})
				p.changes = p.changes[1:]
			}
		}
	}
}

// Commits returns the changes this node committed; call it after Run.
func (p *Node) Commits() []Commit { return p.commits }
