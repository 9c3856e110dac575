package lockstep_test

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ccvet/ccvet/compho"
	"github.com/ccvet/ccvet/compho/lockstep"
)

// chanProc is a toy channel-based process: in each step it sends its id
// and the step to everybody, then receives until it heard everybody or
// its timer fires; process 1 skips step 1.
type chanProc struct {
	id, n, step int
	in          chan [2]int
	out         []chan [2]int
	got         [][]int // senders heard, by step
}

func (p *chanProc) run(steps int) {
	timer := time.NewTimer(time.Second)
	defer timer.Stop()
	for p.step = 0; p.step < steps; p.step++ {
		if p.id == 1 && p.step == 1 {
			continue
		}
		for _, ch := range p.out {
			ch <- [2]int{p.id, p.step}
		}
		var heard []int
		timer.Reset(time.Second)
	wait:
		for len(heard) < p.n {
			select {
			case m := <-p.in:
				if m[1] == p.step {
					heard = append(heard, m[0])
				}
			case <-timer.C:
				break wait
			}
		}
		p.got = append(p.got, heard)
	}
}

// TestRunChans checks that each reception of a channel-based process gets
// exactly the batch of its step that RunChans reports, in sender order,
// under loss and with a process that skips a step.
func TestRunChans(t *testing.T) {
	const n, steps = 3, 4
	synctest.Test(t, func(t *testing.T) {
		sinks := make([]chan [2]int, n)
		procs := make([]*chanProc, n)
		done := make([]chan struct{}, n)
		for q := range n {
			sinks[q] = make(chan [2]int, 100)
		}
		for i := range n {
			procs[i] = &chanProc{id: i, n: n, in: make(chan [2]int, 100), out: sinks}
			done[i] = make(chan struct{})
			go func() {
				defer close(done[i])
				procs[i].run(steps)
			}()
		}
		script, err := lockstep.RunChans(lockstep.ChanConfig{
			N: n, Adversary: compho.RandomLoss(3, 0.3), Timeout: time.Second,
			Drain: func() []lockstep.Packet {
				var pk []lockstep.Packet
				for q := range n {
					for len(sinks[q]) > 0 {
						m := <-sinks[q]
						pk = append(pk, lockstep.Packet{From: compho.PID(m[0]), To: compho.PID(q), Step: m[1], Deliver: func() { procs[q].in <- m }})
					}
				}
				return pk
			},
			Step: func(p compho.PID) int { return quietStep(procs[p]) },
			Done: func(p compho.PID) bool {
				select {
				case <-done[p]:
					return true
				default:
					return false
				}
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range procs {
			k := 0
			for s := range steps {
				if i == 1 && s == 1 {
					if _, ok := script[s][compho.PID(i)]; ok {
						t.Errorf("process 1 skipped step 1, but it has a heard-of set there")
					}
					continue
				}
				var want []int
				for _, q := range script[s][compho.PID(i)] {
					want = append(want, int(q))
				}
				if !slices.Equal(p.got[k], want) {
					t.Errorf("process %d, step %d: received from %v, heard-of set %v", i, s, p.got[k], want)
				}
				k++
			}
		}
		lost := 0
		for _, m := range script {
			for _, ho := range m {
				lost += n - len(ho)
			}
		}
		if len(script) != steps || lost == 0 {
			t.Errorf("script %v: want %d steps and some loss", script, steps)
		}
	})
}

// quietStep reads the step of a process blocked in a reception (see
// RunChans's Step).
//
//go:norace
func quietStep(p *chanProc) int { return p.step }
