package chubbylease

import (
	"slices"
	"testing"
)

type envelope struct {
	to int
	m  Msg
}

// network is a FIFO in-memory network; messages are delivered between
// ticks, so a message takes less than a tick.
type network struct {
	queue   []envelope
	crashed map[int]bool
}

type port struct {
	nw   *network
	from int
}

func (p port) Send(to int, m Msg) {
	if !p.nw.crashed[p.from] {
		p.nw.queue = append(p.nw.queue, envelope{to, m})
	}
}

// run runs n replicas for ticks ticks, crashing replica crash (if >= 0) at
// tick crashAt, and returns the master of every tick (-1 for none). It
// fails if two replicas hold the lease at one tick.
func run(t *testing.T, n, ticks, crash, crashAt int) []int {
	t.Helper()
	nw := &network{crashed: map[int]bool{}}
	nodes := make([]*Node, n)
	for i := range nodes {
		nodes[i] = NewNode(i, n, port{nw, i})
	}
	masters := make([]int, 0, ticks)
	for tick := 1; tick <= ticks; tick++ {
		if tick == crashAt {
			nw.crashed[crash] = true
		}
		for i, nd := range nodes {
			if !nw.crashed[i] {
				nd.Tick()
			}
		}
		for len(nw.queue) > 0 {
			e := nw.queue[0]
			nw.queue = nw.queue[1:]
			if nw.crashed[e.to] {
				continue
			}
			nd := nodes[e.to]
			switch e.m.Kind {
			case Prepare:
				nd.OnPrepare(e.m)
			case Promise:
				nd.OnPromise(e.m)
			case Grant:
				nd.OnGrant(e.m)
			case Ack:
				nd.OnAck(e.m)
			}
		}
		master := -1
		for i, nd := range nodes {
			// A crashed master's lease still counts until it ends on the
			// global clock: the others must wait for it.
			if nw.crashed[i] && tick < nd.masterUntil || !nw.crashed[i] && nd.IsMaster() {
				if master >= 0 {
					t.Fatalf("tick %d: replicas %d and %d both hold the lease", tick, master, i)
				}
				master = i
			}
		}
		masters = append(masters, master)
	}
	return masters
}

func TestStableMaster(t *testing.T) {
	masters := run(t, 3, 40, -1, 0)
	// Replica 1 campaigns first, at tick 2 (2 mod 6 == 1*2), and renews its
	// lease 3 ticks before it ends, for ever.
	want := append([]int{-1}, slices.Repeat([]int{1}, 39)...)
	if !slices.Equal(masters, want) {
		t.Fatalf("masters %v, want %v", masters, want)
	}
}

func TestMasterCrash(t *testing.T) {
	masters := run(t, 3, 40, 1, 10)
	// Replica 1 is master from tick 2 and renews at tick 8 (lease until
	// 8+10-1 = 17); it crashes at tick 10, before its next renewal. The
	// others honour its grant of tick 8 until tick 18, when replica 0 has
	// its turn (18 mod 6 == 0) and becomes master.
	want := []int{-1}
	want = append(want, slices.Repeat([]int{1}, 15)...)
	want = append(want, -1)
	want = append(want, slices.Repeat([]int{0}, 23)...)
	if !slices.Equal(masters, want) {
		t.Fatalf("masters\n%v, want\n%v", masters, want)
	}
}
