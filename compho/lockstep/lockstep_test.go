package lockstep_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/ccvet/ccvet/compho"
	"github.com/ccvet/ccvet/compho/lockstep"
)

// proc is a toy asynchronous process: in each of its steps it broadcasts
// its id and the step, then receives until the step's messages run out.
type proc struct {
	step int
	got  []string
}

func run(nt *lockstep.Net, n, steps int, skip func(p, s int) bool) []*proc {
	ps := make([]*proc, n)
	var wg sync.WaitGroup
	for i := range n {
		p := &proc{}
		ps[i] = p
		e := nt.Endpoint(compho.PID(i), func() int { return p.step })
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer e.Done()
			for p.step = 0; p.step < steps; p.step++ {
				if skip != nil && skip(i, p.step) {
					continue
				}
				e.Broadcast(fmt.Sprintf("%d@%d", i, p.step))
				var line []string
				for {
					m, from, ok := e.Recv()
					if !ok {
						break
					}
					line = append(line, fmt.Sprintf("%v/%d", m, from))
				}
				p.got = append(p.got, strings.Join(line, " "))
			}
		}()
	}
	wg.Wait()
	return ps
}

func TestDelivery(t *testing.T) {
	script := []map[compho.PID][]compho.PID{
		{0: {0, 2}, 1: {}},
		{2: {1}},
	}
	nt := lockstep.New(3, compho.Scripted(script, nil))
	// Process 2 sits out step 1: its step-1 messages are never sent, and
	// it receives nothing in that step.
	ps := run(nt, 3, 3, func(p, s int) bool { return p == 2 && s == 1 })
	if err := nt.Err(); err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"0@0/0 2@0/2", "0@1/0 1@1/1", "0@2/0 1@2/1 2@2/2"},
		{"", "0@1/0 1@1/1", "0@2/0 1@2/1 2@2/2"},
		{"0@0/0 1@0/1 2@0/2", "0@2/0 1@2/1 2@2/2"},
	}
	for i, p := range ps {
		if got := strings.Join(p.got, " | "); got != strings.Join(want[i], " | ") {
			t.Errorf("process %d received\n\t%s\nwant\n\t%s", i, got, strings.Join(want[i], " | "))
		}
	}
}

func TestRandomLossMatchesRun(t *testing.T) {
	// The same stateless adversary gives the same HO sets whatever the
	// order of its calls: what process p heard in step s over the Net is
	// what compho.Run's adversary would give.
	adv := compho.RandomLoss(7, 0.4)
	nt := lockstep.New(4, adv)
	ps := run(nt, 4, 5, nil)
	for i, p := range ps {
		for s, line := range p.got {
			all := []compho.PID{0, 1, 2, 3}
			heard := adv.HeardOf(compho.Step{Index: s}, compho.PID(i), all)
			var want []string
			for _, q := range heard {
				want = append(want, fmt.Sprintf("%d@%d/%d", q, s, q))
			}
			if line != strings.Join(want, " ") {
				t.Errorf("process %d, step %d: got %q, want %q", i, s, line, strings.Join(want, " "))
			}
		}
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		body func(e *lockstep.Endpoint, step *int)
		want string
	}{
		{"twice", func(e *lockstep.Endpoint, _ *int) { e.Send(0, "a"); e.Send(0, "b") },
			"lockstep: process 0 sent a second message to process 0 in step 0"},
		{"after-recv", func(e *lockstep.Endpoint, _ *int) { e.Recv(); e.Send(0, "a") },
			"lockstep: process 0 sent in step 0 after receiving in step 0"},
		{"back", func(e *lockstep.Endpoint, step *int) { *step = 2; e.Recv(); *step = 1; e.Recv() },
			"lockstep: process 0 received in step 1 after step 2"},
		{"range", func(e *lockstep.Endpoint, _ *int) { e.Send(3, "a") },
			"lockstep: process 0 sent to process 3, out of range [0, 1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nt := lockstep.New(1, nil)
			step := 0
			e := nt.Endpoint(0, func() int { return step })
			tc.body(e, &step)
			e.Done()
			if err := nt.Err(); err == nil || err.Error() != tc.want {
				t.Errorf("Err() = %v, want %s", err, tc.want)
			}
		})
	}
}
