package dagrider

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"
)

func run(t *testing.T, n, f int, ids []int, waves int) map[int][]string {
	t.Helper()
	nw := NewNetwork(n)
	procs := make(map[int]*Process)
	for _, id := range ids {
		p, err := NewProcess(id, f, nw)
		if err != nil {
			t.Fatal(err)
		}
		procs[id] = p
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Go(func() {
			if err := p.Run(ctx, waves); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	out := make(map[int][]string)
	for id, p := range procs {
		out[id] = p.Output()
	}
	return out
}

// checkSameOrder checks total order: every process delivered the same
// sequence (they all ran the same waves), with no block twice.
func checkSameOrder(t *testing.T, out map[int][]string) {
	t.Helper()
	var ref []string
	for _, got := range out {
		ref = got
		break
	}
	seen := make(map[string]bool)
	for _, b := range ref {
		if seen[b] {
			t.Errorf("block %s delivered twice", b)
		}
		seen[b] = true
	}
	for id, got := range out {
		if !reflect.DeepEqual(got, ref) {
			t.Errorf("process %d delivered %v,\nanother %v", id, got, ref)
		}
	}
}

func TestAllCorrect(t *testing.T) {
	checkSameOrder(t, run(t, 4, 1, []int{0, 1, 2, 3}, 5))
}

func TestCrashedProcess(t *testing.T) {
	checkSameOrder(t, run(t, 4, 1, []int{0, 1, 2}, 5))
}

// fullDAG returns a process whose DAG has the given authors in every round
// of waves 1..waves, each vertex referencing all the previous round's.
func fullDAG(authors []int, waves int) *Process {
	p, _ := NewProcess(0, 1, NewNetwork(4))
	for r := range abs(waves+1, 0) {
		p.dag[r] = make(map[int]Vertex)
		for _, a := range authors {
			v := Vertex{Author: a, Block: "b" + string(rune('0'+a)) + "-r" + string(rune('a'+r))}
			if r > 0 {
				v.Parents = authors
			}
			p.dag[r][a] = v
		}
	}
	return p
}

func TestCommitOrder(t *testing.T) {
	p := fullDAG([]int{0, 1, 2}, 2)
	// Wave 1's leader is process 1, at round 0.
	if !p.tryCommit(1) {
		t.Fatal("wave 1 not committed")
	}
	if want := []string{"b1-ra"}; !reflect.DeepEqual(p.output, want) {
		t.Errorf("after wave 1: %v, want %v", p.output, want)
	}
	// Wave 2's leader, process 2 at round 4, delivers the rest of rounds
	// 0-3 by round and author, then itself.
	if !p.tryCommit(2) {
		t.Fatal("wave 2 not committed")
	}
	want := []string{"b1-ra", "b0-ra", "b2-ra", "b0-rb", "b1-rb", "b2-rb", "b0-rc", "b1-rc", "b2-rc", "b0-rd", "b1-rd", "b2-rd", "b2-re"}
	if !reflect.DeepEqual(p.output, want) {
		t.Errorf("after wave 2: %v,\nwant %v", p.output, want)
	}
}

func TestMissingLeaderSkipsWave(t *testing.T) {
	// Without process 1, wave 1 has no leader vertex; wave 2's leader
	// then delivers wave 1's rounds.
	p := fullDAG([]int{0, 2, 3}, 2)
	if p.tryCommit(1) {
		t.Fatal("wave 1 committed without its leader")
	}
	if !p.tryCommit(2) {
		t.Fatal("wave 2 not committed")
	}
	if len(p.output) != 4*3+1 || p.output[len(p.output)-1] != "b2-re" {
		t.Errorf("after wave 2: %v", p.output)
	}
}

func TestBadConfig(t *testing.T) {
	_, err := NewProcess(0, 1, NewNetwork(3))
	if err == nil || err.Error() != "dagrider: need 0 <= id < n and n > 3f, got id=0 n=3 f=1" {
		t.Errorf("got %v", err)
	}
}
