package zabheader

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// ensemble is an in-memory network of peers; the test delivers, reorders
// and drops the packets in flight, and checks after every step that the
// committed prefixes agree and never change.
type ensemble struct {
	t        *testing.T
	peers    []*Peer
	inflight []Envelope
	seen     [][]Txn // the longest committed prefix seen per peer
}

func newEnsemble(t *testing.T, n int) *ensemble {
	e := &ensemble{t: t, seen: make([][]Txn, n)}
	for i := range n {
		e.peers = append(e.peers, NewPeer(i, n))
	}
	return e
}

func isPrefix(a, b []Txn) bool { return len(a) <= len(b) && slices.Equal(a, b[:len(a)]) }

// after collects peer i's outbox and checks the invariants.
func (e *ensemble) after(i int) {
	e.inflight = append(e.inflight, e.peers[i].Outbox()...)
	c := e.peers[i].Committed()
	if !isPrefix(e.seen[i], c) {
		e.t.Fatalf("peer %d: committed %v, earlier %v", i, c, e.seen[i])
	}
	e.seen[i] = c
	for j, o := range e.seen {
		if !isPrefix(c, o) && !isPrefix(o, c) {
			e.t.Fatalf("peers %d and %d committed diverging histories %v and %v", i, j, c, o)
		}
	}
}

func (e *ensemble) deliver(k int) {
	env := e.inflight[k]
	e.inflight = append(e.inflight[:k], e.inflight[k+1:]...)
	e.peers[env.To].Receive(env.Pkt)
	e.after(env.To)
}

func (e *ensemble) deliverAll() {
	for len(e.inflight) > 0 {
		e.deliver(0)
	}
}

func TestRecoveryAndBroadcast(t *testing.T) {
	e := newEnsemble(t, 5)
	e.peers[0].Lead()
	e.after(0)
	e.deliverAll()
	for _, d := range []string{"a", "b", "c"} {
		if !e.peers[0].Propose(d) {
			t.Fatalf("leader refused %q", d)
		}
		e.after(0)
		e.deliverAll()
	}
	// Peer 3 takes over in epoch 2; peers 0 and 4 are cut off meanwhile.
	e.peers[3].Lead()
	e.after(3)
	kept := e.inflight[:0]
	for _, env := range e.inflight {
		if env.To != 0 && env.To != 4 {
			kept = append(kept, env)
		}
	}
	e.inflight = kept
	e.deliverAll()
	if !e.peers[3].Established() || !e.peers[3].Propose("d") {
		t.Fatal("peer 3 is not an established leader of epoch 2")
	}
	e.after(3)
	e.deliverAll()
	want := "[{{1 1} a} {{1 2} b} {{1 3} c} {{2 1} d}]"
	for i, p := range e.peers {
		got := fmt.Sprint(p.Committed())
		if i == 0 || i == 4 {
			continue // they missed epoch 2
		}
		if got != want {
			t.Errorf("peer %d committed %s, want %s", i, got, want)
		}
	}
}

func TestCommittedPrefixesUnderChaos(t *testing.T) {
	commits := 0
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 5))
		e := newEnsemble(t, 5)
		for step := 0; step < 600; step++ {
			i := rng.IntN(5)
			switch r := rng.IntN(40); {
			case r == 0:
				e.peers[i].Lead()
			case r == 1:
				e.peers[i].LeaderTimeout()
			case r < 8:
				e.peers[i].Propose(fmt.Sprintf("s%d-%d", seed, step))
			default:
				if len(e.inflight) > 0 {
					k := rng.IntN(len(e.inflight))
					if rng.IntN(6) == 0 {
						e.inflight = append(e.inflight[:k], e.inflight[k+1:]...) // lost
					} else {
						e.deliver(k)
					}
				}
				continue
			}
			e.after(i)
		}
		for _, s := range e.seen {
			commits += len(s)
		}
	}
	if commits == 0 {
		t.Fatal("nothing was ever committed")
	}
	t.Logf("%d committed transactions over all peers and seeds", commits)
}
