package zabbcast

import (
	"slices"
	"sync"
	"testing"
	"time"
)

type links struct {
	mu  sync.Mutex
	in  []chan Packet
	cut map[int]bool // peers whose incoming proposals are lost
}

func (l *links) Send(to int, p Packet) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cut[to] && p.Type == Proposal && p.Zxid&counterMask == 2 {
		return
	}
	l.in[to] <- p
}

func run(t *testing.T, n int, cut map[int]bool, txns []string) []*Peer {
	t.Helper()
	l := &links{cut: cut}
	for range n {
		l.in = append(l.in, make(chan Packet, 256))
	}
	peers := make([]*Peer, n)
	var wg sync.WaitGroup
	for i := range peers {
		peers[i] = NewPeer(i, 0, n, 7<<32, l, l.in[i], 100*time.Millisecond)
		wg.Go(func() {
			if err := peers[i].Run(txns); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	return peers
}

func TestAllDeliverInOrder(t *testing.T) {
	txns := []string{"a", "b", "c", "d"}
	peers := run(t, 3, nil, txns)
	want := []Txn{{7<<32 | 1, "a"}, {7<<32 | 2, "b"}, {7<<32 | 3, "c"}, {7<<32 | 4, "d"}}
	for i, p := range peers {
		if !slices.Equal(p.Delivered(), want) {
			t.Errorf("peer %d delivered %v, want %v", i, p.Delivered(), want)
		}
	}
}

func TestFollowerThatMissedAProposalStops(t *testing.T) {
	txns := []string{"a", "b", "c"}
	peers := run(t, 3, map[int]bool{2: true}, txns)
	want := []Txn{{7<<32 | 1, "a"}, {7<<32 | 2, "b"}, {7<<32 | 3, "c"}}
	for i, p := range peers[:2] {
		if !slices.Equal(p.Delivered(), want) {
			t.Errorf("peer %d delivered %v, want %v", i, p.Delivered(), want)
		}
	}
	if got := peers[2].Delivered(); !slices.Equal(got, want[:1]) {
		t.Errorf("peer 2 delivered %v, want only %v", got, want[:1])
	}
}
