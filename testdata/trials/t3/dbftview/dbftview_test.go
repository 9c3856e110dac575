package dbftview

import (
	"math/rand"
	"slices"
	"testing"
)

type delivery struct {
	to int
	p  ConsensusPayload
}

// network is an in-memory P2P layer: broadcasts wait in one pool, from
// which the test delivers them in a random order, losing some.
type network struct {
	n       int
	pending []delivery
}

type port struct {
	nw   *network
	from int
}

func (p port) Broadcast(m ConsensusPayload) {
	for to := range p.nw.n {
		if to != p.from {
			p.nw.pending = append(p.nw.pending, delivery{to, m})
		}
	}
}

// run drives n validators for steps events under seed and checks after
// each one that no two validators accepted different blocks at a height;
// it returns the number of heights the most advanced validator accepted.
func run(t *testing.T, n int, seed int64, steps int) int {
	rng := rand.New(rand.NewSource(seed))
	nw := &network{n: n}
	vs := make([]*ConsensusService, n)
	for i := range vs {
		vs[i] = NewConsensusService(i, n, port{nw, i})
	}
	longest := []string{}
	for range steps {
		switch {
		case rng.Intn(100) < 1:
			// Block sync: a validator behind the most advanced one gets
			// the next block from it.
			c := vs[rng.Intn(n)]
			if h := int(c.Height()); h < len(longest) {
				c.OnPersistCompleted(c.Height(), longest[h])
			}
		case len(nw.pending) == 0:
			c := vs[rng.Intn(n)]
			c.OnTimeout(c.Height(), c.View())
		default:
			i := rng.Intn(len(nw.pending))
			d := nw.pending[i]
			nw.pending = slices.Delete(nw.pending, i, i+1)
			if rng.Intn(30) > 0 {
				vs[d.to].OnReceive(d.p)
			}
		}
		for _, c := range vs {
			if b := c.Blocks(); len(b) > len(longest) {
				longest = b
			}
		}
		for i, c := range vs {
			if b := c.Blocks(); !slices.Equal(b, longest[:len(b)]) {
				t.Fatalf("seed %d: validator %d accepted %v, another %v", seed, i, b, longest)
			}
		}
	}
	return len(longest)
}

func TestAgreement(t *testing.T) {
	for seed := int64(1); seed <= 30; seed++ {
		// Without dBFT's recovery messages a height can stall for good when
		// at most f validators are commit-locked in a view the others left,
		// so progress is only required to start.
		if got := run(t, 4, seed, 3000); got < 1 {
			t.Errorf("seed %d: no block accepted", seed)
		}
	}
}
