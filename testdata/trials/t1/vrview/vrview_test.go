package vrview

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func opsFor(n int) [][]string {
	ops := make([][]string, n)
	for i := range ops {
		for k := range 5 {
			ops[i] = append(ops[i], fmt.Sprintf("op%d.%d", i, k))
		}
	}
	return ops
}

func runGroup(rs []*Replica, views func(i int) int) {
	var wg sync.WaitGroup
	for i, r := range rs {
		wg.Go(func() { r.Run(views(i)) })
	}
	wg.Wait()
}

// TestViewChanges: without failures every view commits its primary's op.
func TestViewChanges(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rs := NewGroup(1, time.Second, opsFor(3))
		runGroup(rs, func(int) int { return 4 })
		want := []string{"op1.0", "op2.0", "op0.0", "op1.1"}
		for i, r := range rs {
			if got := r.Committed(); !slices.Equal(got, want) {
				t.Errorf("replica %d committed %v, want %v", i, got, want)
			}
		}
	})
}

// TestCrashes: replicas that stop early (crash) never make committed logs
// diverge.
func TestCrashes(t *testing.T) {
	for stop := range 8 {
		synctest.Test(t, func(t *testing.T) {
			rs := NewGroup(2, time.Second, opsFor(5))
			runGroup(rs, func(i int) int {
				if i == stop%5 || i == (stop+2)%5 {
					return stop/2 + 1
				}
				return 10
			})
			for i, a := range rs {
				for _, b := range rs {
					ca, cb := a.Committed(), b.Committed()
					if len(ca) <= len(cb) && !slices.Equal(ca, cb[:len(ca)]) {
						t.Errorf("stop %d: replica %d committed %v, another %v", stop, i, ca, cb)
					}
				}
			}
		})
	}
}
