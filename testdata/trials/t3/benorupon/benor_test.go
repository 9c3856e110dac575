package benorupon

import (
	"math/rand/v2"
	"testing"
)

type envelope struct {
	to int
	m  Message
}

// run runs n processes with inputs xs, of which the ones in crashed never
// take a step, over a network that delivers every message to every live
// process in an order chosen by seed. It returns the processes once every
// live one decided, or after a bound on deliveries.
func run(t *testing.T, seed uint64, f int, xs []Value, crashed map[int]bool) []*Process {
	n := len(xs)
	rng := rand.New(rand.NewPCG(seed, 3))
	outs := make([]chan Message, n)
	procs := make([]*Process, n)
	for i := range n {
		outs[i] = make(chan Message, 8)
		procs[i] = NewProcess(i, n, f, xs[i], outs[i], rand.New(rand.NewPCG(seed, uint64(i))))
	}
	var inflight []envelope
	drain := func(i int) {
		for len(outs[i]) > 0 {
			m := <-outs[i]
			for to := range n {
				if !crashed[to] {
					inflight = append(inflight, envelope{to, m})
				}
			}
		}
	}
	allDecided := func() bool {
		for i, p := range procs {
			if _, ok := p.Decision(); !ok && !crashed[i] {
				return false
			}
		}
		return true
	}
	for i, p := range procs {
		if !crashed[i] {
			p.Start()
			drain(i)
		}
	}
	for deliveries := 0; len(inflight) > 0 && !allDecided(); deliveries++ {
		if deliveries > 100000 {
			t.Fatalf("seed %d: no decision after %d deliveries", seed, deliveries)
		}
		k := rng.IntN(len(inflight))
		e := inflight[k]
		inflight = append(inflight[:k], inflight[k+1:]...)
		switch m := e.m.(type) {
		case Report:
			procs[e.to].OnReport(m)
		case Proposal:
			procs[e.to].OnProposal(m)
		}
		drain(e.to)
	}
	return procs
}

// decisions returns the values decided by the live processes.
func decisions(t *testing.T, procs []*Process, crashed map[int]bool) map[Value]int {
	out := map[Value]int{}
	for i, p := range procs {
		v, ok := p.Decision()
		if !ok && !crashed[i] {
			t.Fatalf("process %d did not decide", i)
		}
		if ok {
			out[v]++
		}
	}
	return out
}

func TestValidity(t *testing.T) {
	for seed := range uint64(50) {
		procs := run(t, seed, 1, []Value{One, One, One, One}, nil)
		if got := decisions(t, procs, nil); len(got) != 1 || got[One] != 4 {
			t.Fatalf("seed %d: decisions %v, want 4 x One", seed, got)
		}
	}
}

func TestAgreementMixedInputs(t *testing.T) {
	for seed := range uint64(300) {
		crashed := map[int]bool{}
		if seed%3 == 0 {
			crashed[int(seed/3)%5] = true
		}
		procs := run(t, seed, 2, []Value{Zero, One, Zero, One, One}, crashed)
		if got := decisions(t, procs, crashed); len(got) != 1 {
			t.Fatalf("seed %d: processes decided differently: %v", seed, got)
		}
	}
}
