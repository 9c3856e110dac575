package ibftround

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

type envelope struct {
	to int
	m  *IbftMessage
}

// network connects 3f+1 validators; the test delivers, reorders and loses
// the messages in flight, and checks after every step that the finalized
// chains are prefixes of one another.
type network struct {
	t        *testing.T
	cores    []*Core
	inflight []envelope
	down     map[int]bool
}

func newNetwork(t *testing.T, n int) *network {
	nw := &network{t: t, down: map[int]bool{}}
	for i := range n {
		nw.cores = append(nw.cores, NewCore(i, n))
	}
	return nw
}

func isPrefix(a, b []string) bool { return len(a) <= len(b) && slices.Equal(a, b[:len(a)]) }

// collect moves validator i's outbox to the network and checks the chains.
func (nw *network) collect(i int) {
	for _, m := range nw.cores[i].Outbox() {
		for to := range nw.cores {
			if to != i && !nw.down[i] && !nw.down[to] {
				nw.inflight = append(nw.inflight, envelope{to, m})
			}
		}
	}
	for j, a := range nw.cores {
		for _, b := range nw.cores[j+1:] {
			if ca, cb := a.Chain(), b.Chain(); !isPrefix(ca, cb) && !isPrefix(cb, ca) {
				nw.t.Fatalf("chains diverge: %v and %v", ca, cb)
			}
		}
	}
}

func (nw *network) deliver(k int) {
	e := nw.inflight[k]
	nw.inflight = append(nw.inflight[:k], nw.inflight[k+1:]...)
	nw.cores[e.to].HandleMessage(e.m)
	nw.collect(e.to)
}

func (nw *network) deliverAll(lost func(envelope) bool) {
	for len(nw.inflight) > 0 {
		if lost != nil && lost(nw.inflight[0]) {
			nw.inflight = nw.inflight[1:]
			continue
		}
		nw.deliver(0)
	}
}

// timeout fires the round timer of every live validator.
func (nw *network) timeout() {
	for i, c := range nw.cores {
		if !nw.down[i] {
			c.HandleMessage(&IbftMessage{Type: MsgRoundTimeout})
			nw.collect(i)
		}
	}
}

func TestHeightsInOrder(t *testing.T) {
	nw := newNetwork(t, 4)
	nw.cores[1].Start() // the proposer of height 1, round 0
	nw.collect(1)
	// Every height's proposer proposes as soon as it finalized the
	// previous one, so the heights go on until the test stops delivering.
	nw.deliverAll(func(e envelope) bool { return e.m.GetHeight() > 3 })
	for i, c := range nw.cores {
		if got := fmt.Sprint(c.Chain()); got != "[h1.r0.v1 h2.r0.v2 h3.r0.v3]" {
			t.Errorf("validator %d: chain %s", i, got)
		}
	}
}

// TestRoundChangeKeepsPreparedBlock: the block of height 1 is prepared by
// everybody but its commits are lost; the proposer crashes; round 1 must
// finalize the same block.
func TestRoundChangeKeepsPreparedBlock(t *testing.T) {
	nw := newNetwork(t, 4)
	nw.cores[1].Start()
	nw.collect(1)
	nw.deliverAll(func(e envelope) bool { return e.m.Type == MsgCommit })
	nw.down[1] = true
	nw.timeout()
	nw.deliverAll(func(e envelope) bool { return e.m.GetHeight() > 1 })
	for _, i := range []int{0, 2, 3} {
		if got := fmt.Sprint(nw.cores[i].Chain()); got != "[h1.r0.v1]" {
			t.Errorf("validator %d: chain %s, want [h1.r0.v1]", i, got)
		}
	}
}

func TestChainsAgreeUnderChaos(t *testing.T) {
	finalized := 0
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 13))
		nw := newNetwork(t, 4)
		nw.cores[1].Start()
		nw.collect(1)
		for range 800 {
			switch {
			case rng.IntN(50) == 0:
				nw.timeout()
			case len(nw.inflight) > 0:
				k := 0
				if rng.IntN(4) == 0 {
					k = rng.IntN(len(nw.inflight)) // reordered
				}
				if rng.IntN(10) == 0 {
					nw.inflight = append(nw.inflight[:k], nw.inflight[k+1:]...) // lost
					continue
				}
				nw.deliver(k)
			default:
				nw.timeout()
			}
		}
		for _, c := range nw.cores {
			finalized += len(c.Chain())
		}
	}
	if finalized == 0 {
		t.Fatal("nothing was ever finalized")
	}
	t.Logf("%d finalized blocks over all validators and seeds", finalized)
}
