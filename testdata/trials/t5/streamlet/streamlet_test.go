package streamlet

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// simNet queues broadcasts; the driver delivers them, to every node, in
// FIFO order or in a random order.
type simNet struct {
	queue []any // Proposal or Vote, to be delivered to every node
}

func (s *simNet) BroadcastProposal(p Proposal) { s.queue = append(s.queue, p) }
func (s *simNet) BroadcastVote(v Vote)         { s.queue = append(s.queue, v) }

type delivery struct {
	to int
	m  any
}

// run runs epochs 1..epochs on n nodes. With rng nil, every message is
// delivered to everybody before the next one (a synchronous network);
// otherwise copies are delivered in a random order and some are lost.
// silent nodes never propose.
func run(n int, epochs uint64, rng *rand.Rand, silent map[int]bool) []*Node {
	net := &simNet{}
	nodes := make([]*Node, n)
	for i := range nodes {
		var tr Transport = net
		if silent[i] {
			tr = &simNet{} // its messages go nowhere
		}
		nodes[i] = NewNode(i, n, tr, func(e uint64) string { return fmt.Sprintf("tx%d", e) })
	}
	var pending []delivery
	for e := uint64(1); e <= epochs; e++ {
		for _, nd := range nodes {
			nd.OnEpoch(e)
		}
		for {
			for _, m := range net.queue {
				for to := range nodes {
					pending = append(pending, delivery{to, m})
				}
			}
			net.queue = nil
			if len(pending) == 0 {
				break
			}
			k := 0
			if rng != nil {
				k = rng.Intn(len(pending))
			}
			d := pending[k]
			pending = slices.Delete(pending, k, k+1)
			if rng != nil && rng.Intn(10) == 0 {
				continue
			}
			switch m := d.m.(type) {
			case Proposal:
				nodes[d.to].OnProposal(m)
			case Vote:
				nodes[d.to].OnVote(m)
			}
		}
	}
	return nodes
}

func epochsOf(chain []Block) []uint64 {
	var out []uint64
	for _, b := range chain {
		out = append(out, b.Epoch)
	}
	return out
}

func TestSynchronousFinality(t *testing.T) {
	nodes := run(4, 6, nil, nil)
	for i, nd := range nodes {
		// Blocks of epochs 1..6 are notarized: 6 finalizes 5 and its prefix.
		if got := fmt.Sprint(epochsOf(nd.Final())); got != "[0 1 2 3 4 5]" {
			t.Fatalf("node %d: final epochs %s, want [0 1 2 3 4 5]", i, got)
		}
	}
}

func TestSilentLeader(t *testing.T) {
	// Node 3 leads epoch 3 and stays silent: epoch 3 has no block, so the
	// chain 1,2,4 is not consecutive; 4,5,6 finalize 5.
	nodes := run(4, 6, nil, map[int]bool{3: true})
	for i, nd := range nodes[:3] {
		if got := fmt.Sprint(epochsOf(nd.Final())); got != "[0 1 2 4 5]" {
			t.Fatalf("node %d: final epochs %s, want [0 1 2 4 5]", i, got)
		}
	}
}

func TestFinalChainsArePrefixes(t *testing.T) {
	for seed := int64(1); seed <= 40; seed++ {
		nodes := run(4, 12, rand.New(rand.NewSource(seed)), nil)
		for i, a := range nodes {
			for _, b := range nodes[i+1:] {
				fa, fb := a.Final(), b.Final()
				k := min(len(fa), len(fb))
				if !slices.Equal(fa[:k], fb[:k]) {
					t.Fatalf("seed %d: final chains %v and %v diverge", seed, epochsOf(fa), epochsOf(fb))
				}
			}
		}
	}
}
