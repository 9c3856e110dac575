package abd

import (
	"context"
	"sync"
	"testing"
)

type cluster struct {
	replicaIn []chan<- any
	clientIn  []chan any
}

func start(ctx context.Context, replicas, clients int) *cluster {
	cl := &cluster{}
	outs := make([]chan<- any, clients)
	for i := range clients {
		ch := make(chan any, 64)
		cl.clientIn = append(cl.clientIn, ch)
		outs[i] = ch
	}
	for i := range replicas {
		in := make(chan any, 64)
		cl.replicaIn = append(cl.replicaIn, in)
		go NewReplica(i, outs).Serve(ctx, in)
	}
	return cl
}

func TestSequentialReadSeesLastWrite(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cl := start(ctx, 3, 2)
	w, err := Run(ctx, 0, cl.replicaIn, cl.clientIn[0], []Operation{{Write: true, Val: "a"}, {Write: true, Val: "b"}})
	if err != nil {
		t.Fatal(err)
	}
	if w[1].TS != (Timestamp{Seq: 2, Writer: 0}) {
		t.Fatalf("second write has timestamp %v, want {2 0}", w[1].TS)
	}
	r, err := Run(ctx, 1, cl.replicaIn, cl.clientIn[1], []Operation{{}, {Write: true, Val: "c"}, {}})
	if err != nil {
		t.Fatal(err)
	}
	want := []Result{{"b", Timestamp{2, 0}}, {"c", Timestamp{3, 1}}, {"c", Timestamp{3, 1}}}
	for i := range want {
		if r[i] != want[i] {
			t.Errorf("operation %d returned %v, want %v", i, r[i], want[i])
		}
	}
}

func TestConcurrentTimestampsGrowPerClient(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cl := start(ctx, 5, 3)
	ops := []Operation{{Write: true, Val: "x"}, {}, {Write: true, Val: "y"}, {}, {}}
	res := make([][]Result, 3)
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() {
			var err error
			res[i], err = Run(ctx, i, cl.replicaIn, cl.clientIn[i], ops)
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for i, rs := range res {
		if len(rs) != len(ops) {
			t.Fatalf("client %d completed %d operations, want %d", i, len(rs), len(ops))
		}
		for k := 1; k < len(rs); k++ {
			if rs[k].TS.Less(rs[k-1].TS) {
				t.Errorf("client %d: operation %d saw %v after %v", i, k, rs[k].TS, rs[k-1].TS)
			}
		}
	}
}
