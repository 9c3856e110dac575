package tenderbake

import (
	"sync"
	"testing"
	"time"
)

// hub publishes every message to the inbox of every baker.
type hub []chan Msg

func (h hub) Publish(m Msg) {
	for _, c := range h {
		c <- m
	}
}

// run runs n bakers (except the crashed ones) for one level more than asked
// and returns them. The extra level lets a baker that missed the decision of
// the last level asked for learn it from the next level's proposal.
func run(t *testing.T, n, levels int, crashed map[int]bool) []*Baker {
	t.Helper()
	h := make(hub, n)
	for i := range h {
		h[i] = make(chan Msg, 4096)
	}
	bakers := make([]*Baker, n)
	var wg sync.WaitGroup
	for id := range n {
		bakers[id] = NewBaker(Config{ID: id, N: n, Net: h, Clock: RealClock{},
			MinRound: 60 * time.Millisecond, RoundIncrease: 30 * time.Millisecond, MaxRound: 12})
		if !crashed[id] {
			wg.Go(func() { bakers[id].Run(h[id], levels+1) })
		}
	}
	wg.Wait()
	return bakers
}

// check verifies that decisions agree level by level and that at least
// quorum bakers decided every level; it returns the decided payloads.
func check(t *testing.T, bakers []*Baker, levels, quorum int) []string {
	t.Helper()
	payloads := make([]string, levels+1)
	complete := 0
	for id, b := range bakers {
		d := b.Decided()
		if len(d) >= levels {
			complete++
		}
		for i, c := range d {
			if c.Level != i+1 {
				t.Fatalf("baker %d: decision %d is for level %d", id, i, c.Level)
			}
			if payloads[i] == "" {
				payloads[i] = c.Payload
			} else if payloads[i] != c.Payload {
				t.Fatalf("level %d: baker %d decided %q, another baker %q", i+1, id, c.Payload, payloads[i])
			}
		}
	}
	if complete < quorum {
		t.Fatalf("%d bakers decided all %d levels, want at least %d", complete, levels, quorum)
	}
	return payloads
}

func TestAllCorrect(t *testing.T) {
	bakers := run(t, 4, 4, nil)
	check(t, bakers, 4, 3)
}

// TestCrashedBaker: baker 2 never runs. Level 1 round 1 and level 2 round 0
// have it as proposer, so those rounds time out and the next round's
// proposer takes over.
func TestCrashedBaker(t *testing.T) {
	bakers := run(t, 4, 3, map[int]bool{2: true})
	p := check(t, []*Baker{bakers[0], bakers[1], bakers[3]}, 3, 3)
	if p[1] != "block(2,1)@3" {
		t.Errorf("level 2 decided %q, want block(2,1)@3 (round 0's proposer is the crashed baker)", p[1])
	}
}
