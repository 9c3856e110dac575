package lockstep_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ccvet/ccvet/compho"
	"github.com/ccvet/ccvet/compho/lockstep"
)

// minEnv is the envelope of minProc: the sender, the round, the value.
type minEnv struct{ From, Round, X int }

// minProc keeps the minimum of the values it hears, one round at a time,
// for three rounds; its tag is its round.
type minProc struct {
	id, round, x int
	in           <-chan minEnv
	out          []chan<- minEnv
}

func (p *minProc) run(ctx context.Context) {
	timer := time.NewTimer(time.Second)
	defer timer.Stop()
	for p.round = 1; p.round <= 3; p.round++ {
		for _, ch := range p.out {
			ch <- minEnv{p.id, p.round, p.x}
		}
		timer.Reset(time.Second)
		best := p.x
	recv:
		for {
			select {
			case e := <-p.in:
				if e.Round == p.round {
					best = min(best, e.X)
				}
			case <-timer.C:
				break recv
			case <-ctx.Done():
				return
			}
		}
		p.x = best
	}
}

// minMachine is minProc's round-based form; broken keeps the maximum.
type minMachine struct {
	p      *minProc
	broken bool
}

func (m *minMachine) Init(*compho.Ctx) { m.p.round = 1 }
func (m *minMachine) Halted() bool     { return m.p.round > 3 }
func (m *minMachine) Rounds() []compho.Round {
	return []compho.Round{{
		Name: "R",
		Send: func(c *compho.Ctx) { c.Broadcast(m.p.x) },
		Update: func(_ *compho.Ctx, mb compho.Mailbox) {
			for _, e := range mb {
				if x := e.Msg.(int); (x < m.p.x) != m.broken && x != m.p.x {
					m.p.x = x
				}
			}
			m.p.round++
		},
	}}
}

//go:norace
func minWhere(p *minProc) lockstep.Where { return lockstep.TagWhere(compho.Tag{p.round, 0}) }

//go:norace
func minState(p *minProc) string { return fmt.Sprint(p.round, p.x) }

func TestDiff(t *testing.T) {
	xs := []int{4, 2, 7}
	for _, broken := range []bool{false, true} {
		d := &lockstep.Diff[*minProc, minEnv, *minMachine]{
			N: len(xs), Timeout: time.Second,
			Async: func(i int, in chan minEnv, out []chan<- minEnv) (*minProc, func(context.Context)) {
				p := &minProc{id: i, x: xs[i], in: in, out: out}
				return p, p.run
			},
			Machine:      func(i int) *minMachine { return &minMachine{p: &minProc{id: i, x: xs[i]}, broken: broken} },
			Where:        minWhere,
			MachineWhere: func(m *minMachine) lockstep.Where { return minWhere(m.p) },
			Message: func(e minEnv) (compho.PID, lockstep.Where) {
				return compho.PID(e.From), lockstep.TagWhere(compho.Tag{e.Round, 0})
			},
			State:        minState,
			MachineState: func(m *minMachine) string { return minState(m.p) },
		}
		advs, err := lockstep.DiffAdversaries(len(xs), 4)
		if err != nil {
			t.Fatal(err)
		}
		res := d.Run(t, advs)
		if len(res.Errors) > 0 {
			t.Fatal(res.Errors)
		}
		// 8 adversaries (no loss, 4 random, 3 lossy-synchronous) by 3
		// processes; the broken machine keeps the maximum, which no
		// process does.
		want := lockstep.DiffResult{Runs: 24, Changed: 24, Exact: 24}
		if broken {
			want = lockstep.DiffResult{Runs: 24, Changed: 24, Differ: 24, First: res.First}
			if !strings.HasPrefix(res.First, "noloss, process 0:\n") {
				t.Errorf("first difference %q, want one of process 0 under no loss", res.First)
			}
		}
		if res.Partial == 0 {
			t.Error("no partial reception: the adversaries lost nothing")
		}
		res.Partial = 0
		if fmt.Sprint(res) != fmt.Sprint(want) {
			t.Errorf("broken %v: %+v, want %+v", broken, res, want)
		}
		t.Logf("broken %v: %d runs, %d differ", broken, res.Runs, res.Differ)
	}
}
