package snowball

import (
	"math/rand/v2"
	"time"
)

// Step is the step of a poll round, in execution order.
type Step int

// The steps of a round.
const (
	StepQuery Step = iota // send queries, collect the queries addressed to us
	StepReply             // answer them, collect the answers to ours
)

// Query asks the receiver for its preference.
//
//sync:msg Round,StepQuery
type Query struct {
	Round int
	From  int
}

// Reply answers a Query with the sender's preference.
//
//sync:msg Round,StepReply
type Reply[C comparable] struct {
	Round int
	From  int
	Pref  C
}

// Transport carries *Query and *Reply[C] values between nodes.
type Transport interface {
	//sync:send
	Send(to int, m any)
	// Recv returns the next message, or false once timeout fires.
	//
	//sync:recv
	Recv(timeout <-chan time.Time) (any, bool)
}

// Params are the parameters of Snowball.
type Params struct {
	N, K, Alpha, Beta int
	Seed              uint64        // seeds each node's sampler
	Step              time.Duration // duration of a step
}

// node is the state of one participant, deciding among colors of type C.
type node[C comparable] struct {
	id  int
	p   Params
	net Transport
	rng *rand.Rand

	round int
	step  Step

	pref     C
	last     C
	cnt      int
	d        map[C]int
	decided  bool
	decision C
}

// Outcome is the state of a node after its last poll.
type Outcome[C comparable] struct {
	Decided    bool
	Decision   C
	Preference C
	Confidence int // consecutive successful polls for the last successful color
	Rounds     int // the round the node ended in
}

// sample returns k peers other than this node, at random.
func (n *node[C]) sample() []int {
	var peers []int
	for _, q := range n.rng.Perm(n.p.N) {
		if q != n.id && len(peers) < n.p.K {
			peers = append(peers, q)
		}
	}
	return peers
}

// Run executes polls polls of node id, whose initial preference is pref,
// over net. Each step lasts p.Step: a node that has what it needs early
// still waits for the end of the step, which keeps the nodes in step with
// each other.
func Run[C comparable](id int, p Params, net Transport, pref C, polls int) Outcome[C] {
	n := &node[C]{
		id: id, p: p, net: net, rng: rand.New(rand.NewPCG(p.Seed, uint64(id))),
		round: 0, step: StepQuery,
		pref: pref, last: pref, d: map[C]int{},
	}
	//sync:tag n.round,n.step
	for poll := 0; poll < polls; poll++ {
		n.step = StepQuery
		peers := n.sample()
		for _, q := range peers {
			n.net.Send(q, &Query{Round: n.round, From: n.id})
		}
		queries := map[int]*Query{}
		timer := time.NewTimer(n.p.Step)
		for {
			m, ok := n.net.Recv(timer.C)
			if !ok {
				break
			}
			switch q := m.(type) {
			case *Query:
				if q.Round < n.round {
					continue // a query of a poll we finished
				}
				queries[q.From] = q
			}
		}
		timer.Stop()
		// A query of a later round means we fell behind: catch up.
		for _, q := range queries {
			if q.Round > n.round {
				n.round = q.Round
			}
		}

		n.step = StepReply
		for from, q := range queries {
			if q.Round == n.round {
				n.net.Send(from, &Reply[C]{Round: n.round, From: n.id, Pref: n.pref})
			}
		}
		replies := map[int]C{}
		timer = time.NewTimer(n.p.Step)
		for {
			m, ok := n.net.Recv(timer.C)
			if !ok {
				break
			}
			switch r := m.(type) {
			case *Reply[C]:
				if r.Round != n.round {
					continue
				}
				replies[r.From] = r.Pref
			}
		}
		timer.Stop()
		if len(replies) < n.p.Alpha {
			n.cnt = 0 // an unsuccessful poll
			n.round++
			continue
		}
		n.update(replies)
		n.round++
	}
	return Outcome[C]{Decided: n.decided, Decision: n.decision, Preference: n.pref, Confidence: n.cnt, Rounds: n.round}
}

// update applies the outcome of a poll.
func (n *node[C]) update(replies map[int]C) {
	counts := map[C]int{}
	for _, c := range replies {
		counts[c]++
	}
	for c, k := range counts {
		if k < n.p.Alpha {
			continue
		}
		// alpha > k/2, so at most one color gets here.
		n.d[c]++
		if n.d[c] > n.d[n.pref] {
			n.pref = c
		}
		if c != n.last {
			n.last, n.cnt = c, 1
		} else {
			n.cnt++
		}
		if n.cnt >= n.p.Beta && !n.decided {
			n.decided, n.decision = true, c
		}
		return
	}
	n.cnt = 0
}

// Mem is an in-memory network of n nodes with buffered inboxes.
type Mem struct {
	inbox []chan any
}

// NewMem returns a network of n nodes.
func NewMem(n int) *Mem {
	m := &Mem{inbox: make([]chan any, n)}
	for i := range m.inbox {
		m.inbox[i] = make(chan any, 4096)
	}
	return m
}

// Endpoint returns the transport of node id.
func (m *Mem) Endpoint(id int) Transport { return endpoint{m, id} }

type endpoint struct {
	m  *Mem
	id int
}

// Send implements Transport.
func (e endpoint) Send(to int, msg any) { e.m.inbox[to] <- msg }

// Recv implements Transport.
func (e endpoint) Recv(timeout <-chan time.Time) (any, bool) {
	select {
	case msg := <-e.m.inbox[e.id]:
		return msg, true
	case <-timeout:
		return nil, false
	}
}
