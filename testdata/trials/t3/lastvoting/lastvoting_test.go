package lastvoting

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

type delivery struct {
	to int
	m  Message
}

// network is an in-memory Transport shared by all processes: messages wait
// in one pool and the test delivers them in a random order, losing some.
type network struct {
	n       int
	pending []delivery
}

type port struct{ nw *network }

func (p port) Send(to int, m Message) { p.nw.pending = append(p.nw.pending, delivery{to, m}) }

func (p port) Broadcast(m Message) {
	for to := range p.nw.n {
		p.Send(to, m)
	}
}

func deliver(p *Process, m Message) {
	switch m := m.(type) {
	case Estimate:
		p.OnEstimate(m)
	case Vote:
		p.OnVote(m)
	case Ack:
		p.OnAck(m)
	case Decide:
		p.OnDecide(m)
	}
}

// run drives n processes with distinct proposals; when no message is in
// flight, or now and then, a random process's round times out. It checks
// agreement and validity after every event and returns how many decided.
func run(t *testing.T, n int, seed int64, steps int) int {
	rng := rand.New(rand.NewSource(seed))
	nw := &network{n: n}
	ps := make([]*Process, n)
	var proposals []string
	for i := range ps {
		proposals = append(proposals, fmt.Sprint("v", i))
		ps[i] = NewProcess(i, n, proposals[i], port{nw})
	}
	for _, p := range ps {
		p.Start()
	}
	decided := 0
	for range steps {
		if len(nw.pending) == 0 || rng.Intn(100) < 3 {
			p := ps[rng.Intn(n)]
			p.OnTimeout(p.Phase())
		} else {
			i := rng.Intn(len(nw.pending))
			d := nw.pending[i]
			nw.pending = slices.Delete(nw.pending, i, i+1)
			if rng.Intn(8) > 0 {
				deliver(ps[d.to], d.m)
			}
		}
		decided = 0
		first := ""
		for i, p := range ps {
			v, ok := p.Decision()
			if !ok {
				continue
			}
			decided++
			if !slices.Contains(proposals, v) {
				t.Fatalf("seed %d: process %d decided %q, proposed by nobody", seed, i, v)
			}
			if first == "" {
				first = v
			} else if v != first {
				t.Fatalf("seed %d: process %d decided %q, another %q", seed, i, v, first)
			}
		}
	}
	return decided
}

func TestAgreement(t *testing.T) {
	for seed := int64(1); seed <= 60; seed++ {
		n := 3 + int(seed%3)
		if got := run(t, n, seed, 1500); got != n {
			t.Errorf("seed %d: %d of %d processes decided", seed, got, n)
		}
	}
}
