package flexpaxos

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

func TestAgreementSmallPhase2Quorum(t *testing.T) {
	const n = 5
	inboxes := make([]chan Envelope, n)
	peers := make([]chan<- Envelope, n)
	for i := range inboxes {
		inboxes[i] = make(chan Envelope, 256)
		peers[i] = inboxes[i]
	}
	decided := make([]string, n)
	ok := make([]bool, n)
	var wg sync.WaitGroup
	for i := range n {
		r := NewReplica(Config{ID: i, Q1: 4, Q2: 2, Value: fmt.Sprintf("v%d", i), Timeout: time.Second}, peers, inboxes[i])
		wg.Go(func() { decided[i], ok[i] = r.Run(context.Background(), 3) })
	}
	wg.Wait()
	// Ballot 1 is led by replica 1, which hears from everybody and proposes
	// its own value; every replica sees Q2 votes for it.
	for i := range n {
		if !ok[i] || decided[i] != "v1" {
			t.Errorf("replica %d decided %q (%v), want v1", i, decided[i], ok[i])
		}
	}
}
