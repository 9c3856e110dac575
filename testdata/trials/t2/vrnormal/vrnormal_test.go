package vrnormal

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

type bus struct {
	mu   sync.Mutex
	in   []chan Message
	lose func(to int, m Message) bool
}

type port struct {
	*bus
	id int
}

func (b *bus) Send(to int, m Message) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.lose != nil && b.lose(to, m) {
		return
	}
	b.in[to] <- m
}

func (p port) Recv(ctx context.Context) (Message, error) {
	select {
	case m := <-p.in[p.id]:
		return m, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func run(n int, lose func(int, Message) bool, reqs []string) []*Replica {
	b := &bus{lose: lose}
	for range n {
		b.in = append(b.in, make(chan Message, 256))
	}
	rs := make([]*Replica, n)
	var wg sync.WaitGroup
	for i := range rs {
		rs[i] = NewReplica(i, n, 1, port{b, i}, 100*time.Millisecond)
		wg.Go(func() { rs[i].Run(context.Background(), reqs) })
	}
	wg.Wait()
	return rs
}

func TestNormalCase(t *testing.T) {
	reqs := []string{"x=1", "y=2", "x=3"}
	for i, r := range run(3, nil, reqs) {
		if !slices.Equal(r.Committed(), reqs) {
			t.Errorf("replica %d committed %v, want %v", i, r.Committed(), reqs)
		}
	}
}

func TestBackupThatMissesAPrepareStopsCommitting(t *testing.T) {
	// Replica 2 loses the PREPARE of op 2; replica 0 still gives the
	// primary (replica 1) its quorum.
	lose := func(to int, m Message) bool {
		p, ok := m.(*Prepare)
		return ok && to == 2 && p.Hdr.Op == 2
	}
	reqs := []string{"a", "b", "c"}
	rs := run(3, lose, reqs)
	for _, i := range []int{0, 1} {
		if !slices.Equal(rs[i].Committed(), reqs) {
			t.Errorf("replica %d committed %v, want %v", i, rs[i].Committed(), reqs)
		}
	}
	if got := rs[2].Committed(); !slices.Equal(got, reqs[:1]) {
		t.Errorf("replica 2 committed %v, want %v", got, reqs[:1])
	}
}
