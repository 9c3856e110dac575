package twopc

import (
	"context"
	"maps"
	"time"
)

// Step is the round inside a transaction.
type Step int

// The rounds of a transaction.
const (
	Preparing Step = iota // the coordinator asks the participants to prepare
	Voting                // participants vote; the coordinator collects
	Deciding              // the coordinator sends the outcome
)

// Prepare asks the participants to prepare transaction Txn.
//
//sync:msg Txn,Preparing
type Prepare struct {
	Txn int
}

// Vote is a participant's vote on transaction Txn.
//
//sync:msg Txn,Voting
type Vote struct {
	Txn  int
	From int
	Yes  bool
}

// Decision is the outcome of transaction Txn.
//
//sync:msg Txn,Deciding
type Decision struct {
	Txn    int
	Commit bool
}

// Coordinator is the id of the coordinator; the others are participants.
const Coordinator = 0

// Node is the coordinator or a participant.
type Node struct {
	id      int
	n       int
	in      chan any //sync:inbox
	peers   []chan any
	timeout time.Duration
	maxTxn  int            // the coordinator runs transactions 1..maxTxn
	canDo   func(int) bool // participant: whether it can commit a transaction
	prepped map[int]bool   // participant: its vote on each transaction
	decided map[int]bool   // the outcome of each transaction heard of
	txn     int            // the transaction, the phase of the tag
	step    Step           // the round of the tag
}

// NewNodes returns the coordinator and n-1 participants; canDo(i, t) says
// whether participant i votes yes on transaction t.
func NewNodes(n, maxTxn int, canDo func(i, t int) bool, timeout time.Duration) []*Node {
	peers := make([]chan any, n)
	for i := range peers {
		peers[i] = make(chan any, 256)
	}
	ns := make([]*Node, n)
	for i := range ns {
		ns[i] = &Node{
			id: i, n: n, in: peers[i], peers: peers, timeout: timeout, maxTxn: maxTxn,
			canDo:   func(t int) bool { return canDo(i, t) },
			prepped: make(map[int]bool), decided: make(map[int]bool),
		}
	}
	return ns
}

// Outcomes returns the outcome of each transaction this node heard of.
func (n *Node) Outcomes() map[int]bool { return maps.Clone(n.decided) }

// Votes returns the participant's votes.
func (n *Node) Votes() map[int]bool { return maps.Clone(n.prepped) }

// post sends m to node to; the message is lost if to's inbox is full.
//
//sync:send
func (n *Node) post(to int, m any) {
	select {
	case n.peers[to] <- m:
	default:
	}
}

// toParticipants sends m to every participant.
func (n *Node) toParticipants(m any) {
	for to := range n.peers {
		if to != Coordinator {
			n.post(to, m)
		}
	}
}

// decide ends the coordinator's current transaction.
func (n *Node) decide(commit bool) {
	n.step = Deciding
	n.toParticipants(Decision{Txn: n.txn, Commit: commit})
	n.decided[n.txn] = commit
}

// Run is the event loop of every node: it reacts to the coordinator's
// timer and to whatever message arrives. The coordinator returns after its
// last transaction; participants when ctx is done.
func (n *Node) Run(ctx context.Context) {
	votes := make(map[int]bool) // coordinator: the votes of the current transaction
	tick := time.NewTicker(n.timeout)
	defer tick.Stop()
	//sync:tag n.txn,n.step
	for {
		select {
		case <-ctx.Done():
			return

		case <-tick.C:
			if n.id != Coordinator {
				continue
			}
			if n.txn > 0 && n.step == Voting {
				n.decide(false) // a vote is missing: abort
			}
			if n.txn == n.maxTxn {
				return
			}
			n.txn++
			n.step = Preparing
			votes = make(map[int]bool)
			n.toParticipants(Prepare{Txn: n.txn})
			n.step = Voting

		case raw := <-n.in:
			switch m := raw.(type) {
			case Prepare:
				if m.Txn <= n.txn {
					continue // a transaction we voted on already
				}
				n.txn, n.step = m.Txn, Preparing
				yes := n.canDo(n.txn)
				n.prepped[n.txn] = yes
				n.step = Voting
				n.post(Coordinator, Vote{Txn: n.txn, From: n.id, Yes: yes})

			case Vote:
				if n.id != Coordinator || m.Txn != n.txn || n.step != Voting {
					continue
				}
				votes[m.From] = m.Yes
				if !m.Yes {
					n.decide(false)
				} else if len(votes) == n.n-1 {
					n.decide(true)
				}

			case Decision:
				if m.Txn < n.txn || m.Txn == n.txn && n.step == Deciding {
					continue
				}
				n.txn, n.step = m.Txn, Deciding
				n.decided[n.txn] = m.Commit
			}
		}
	}
}
