package gradecast

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"
)

// run runs the processes of ids over nw for instances 1..last and returns
// their outputs by id.
func run(nw *Network, f int, ids []int, last int, timeout time.Duration) map[int][]Output {
	procs := make(map[int]*Process)
	var wg sync.WaitGroup
	for _, id := range ids {
		p := NewProcess(id, f, nw, timeout)
		procs[id] = p
		wg.Go(func() {
			p.Run(last, func(inst int) string { return fmt.Sprintf("v%d-from-%d", inst, id) })
		})
	}
	wg.Wait()
	outs := make(map[int][]Output)
	for id, p := range procs {
		outs[id] = p.Outputs()
	}
	return outs
}

// checkGradedAgreement checks the safety property of gradecast on the
// outputs of the honest processes.
func checkGradedAgreement(t *testing.T, outs map[int][]Output) {
	t.Helper()
	for _, a := range outs {
		for _, b := range outs {
			for i := range min(len(a), len(b)) {
				x, y := a[i], b[i]
				if x.Grade == 2 && (y.Grade == 0 || y.Value != x.Value) {
					t.Errorf("instance %d: %+v but %+v", x.Inst, x, y)
				}
				if x.Grade >= 1 && y.Grade >= 1 && x.Value != y.Value {
					t.Errorf("instance %d: %+v and %+v", x.Inst, x, y)
				}
			}
		}
	}
}

func TestHonestDealers(t *testing.T) {
	nw := NewNetwork(4, 64)
	outs := run(nw, 1, []int{0, 1, 2, 3}, 3, 5*time.Second)
	want := []Output{
		{Inst: 1, Dealer: 0, Value: "v1-from-0", Grade: 2},
		{Inst: 2, Dealer: 1, Value: "v2-from-1", Grade: 2},
		{Inst: 3, Dealer: 2, Value: "v3-from-2", Grade: 2},
	}
	for id, got := range outs {
		if !reflect.DeepEqual(got, want) {
			t.Errorf("process %d: got %+v, want %+v", id, got, want)
		}
	}
	checkGradedAgreement(t, outs)
}

func TestEquivocatingDealer(t *testing.T) {
	nw := NewNetwork(4, 64)
	// Process 0, the dealer of instance 1, is Byzantine: it sends a to 1
	// and 2, b to 3, and nothing else. Only two processes echo a, fewer
	// than n-f = 3, so nobody votes.
	nw.Inject(1, ProposeMsg{Inst: 1, From: 0, Value: "a"})
	nw.Inject(2, ProposeMsg{Inst: 1, From: 0, Value: "a"})
	nw.Inject(3, ProposeMsg{Inst: 1, From: 0, Value: "b"})
	outs := run(nw, 1, []int{1, 2, 3}, 1, 150*time.Millisecond)
	want := []Output{{Inst: 1, Dealer: 0, Value: "", Grade: 0}}
	for id, got := range outs {
		if !reflect.DeepEqual(got, want) {
			t.Errorf("process %d: got %+v, want %+v", id, got, want)
		}
	}
	checkGradedAgreement(t, outs)
}

func TestDealerCrashesAfterProposing(t *testing.T) {
	nw := NewNetwork(4, 64)
	for to := 1; to < 4; to++ {
		nw.Inject(to, ProposeMsg{Inst: 1, From: 0, Value: "x"})
	}
	outs := run(nw, 1, []int{1, 2, 3}, 1, 150*time.Millisecond)
	want := []Output{{Inst: 1, Dealer: 0, Value: "x", Grade: 2}}
	for id, got := range outs {
		if !reflect.DeepEqual(got, want) {
			t.Errorf("process %d: got %+v, want %+v", id, got, want)
		}
	}
}
