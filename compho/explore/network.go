package explore

import (
	"fmt"

	"github.com/ccvet/ccvet/compho"
)

// A Network is an assumption on the HO sets of an execution: which HO
// sets each receiver may have in a step. It may keep a monitor state, a
// uint64 that is part of the explored state, to constrain the steps by
// what happened before (a kernel process fixed once chosen, a budget of
// isolations) or to record that a communication predicate held.
//
// In a step, the receivers' HO sets are chosen by a Mode: each receiver
// independently among the sets the mode allows it. A step has one mode or
// several (one per kernel process, say); the successors of a state are
// the union over the modes.
type Network interface {
	// Name describes the assumption, for traces and reports.
	Name() string
	// Init returns the monitor state of an initial state of n processes.
	Init(n int) uint64
	// Modes returns the modes of a step from monitor state mon. cands[p]
	// are the candidate senders of receiver p, running[p] whether p runs
	// the step.
	Modes(n int, mon uint64, cands []compho.Set, running []bool) []Mode
	// Next returns the monitor state after a step in mode (an index in
	// the slice Modes returned), in which each running receiver p had a
	// set tagged tags[p] (0 for the processes that do not run).
	Next(n int, mon uint64, mode int, tags []uint64) uint64
}

// A Mode is a way a step may go: Sets calls yield with each HO set
// receiver p may have (a subset of its candidates, each once) and the tag
// that Next sees for it. Sets with different tags are kept apart even
// when they lead to the same state.
type Mode struct {
	Sets func(p compho.PID, cands compho.Set, yield func(ho compho.Set, tag uint64))
}

// subsets calls yield with every subset of s, s itself first and then
// by decreasing binary value, so that the executions that lose fewer
// messages tend to come first.
func subsets(s compho.Set, yield func(compho.Set)) {
	for x := s; ; x = (x - 1) & s {
		yield(x)
		if x == 0 {
			return
		}
	}
}

// A symmetricNetwork treats all processes alike and keeps no monitor
// state: it allows symmetry reduction.
type symmetricNetwork interface{ symmetric() }

func (anyLoss) symmetric() {}
func (noLoss) symmetric()  {}
func (deliver) symmetric() {}

// sizeBound reports, for a network whose one mode allows a receiver
// exactly the subsets of its candidates cands with at least some number
// of senders, all tagged 0 and enumerated as subsets does, that number:
// the search then enumerates them without calling the mode.
func sizeBound(net Network, cands compho.Set) (int, bool) {
	switch d := net.(type) {
	case anyLoss:
		return 0, true
	case noLoss:
		return cands.Len(), true
	case deliver:
		return min(d.k, cands.Len()), true
	}
	return 0, false
}

type anyLoss struct{}

// AnyLoss allows every HO set: any message may be lost.
func AnyLoss() Network { return anyLoss{} }

func (anyLoss) Name() string                                     { return "any loss" }
func (anyLoss) Init(int) uint64                                  { return 0 }
func (anyLoss) Next(_ int, mon uint64, _ int, _ []uint64) uint64 { return mon }

// anyLossModes is the one mode of AnyLoss, allocated once: a search asks
// for it in every state.
var anyLossModes = []Mode{{Sets: func(_ compho.PID, c compho.Set, yield func(compho.Set, uint64)) {
	subsets(c, func(h compho.Set) { yield(h, 0) })
}}}

func (anyLoss) Modes(int, uint64, []compho.Set, []bool) []Mode { return anyLossModes }

type noLoss struct{}

// NoLoss delivers every message: one execution.
func NoLoss() Network { return noLoss{} }

func (noLoss) Name() string                                     { return "no loss" }
func (noLoss) Init(int) uint64                                  { return 0 }
func (noLoss) Next(_ int, mon uint64, _ int, _ []uint64) uint64 { return mon }
func (noLoss) Modes(int, uint64, []compho.Set, []bool) []Mode {
	return []Mode{{Sets: func(_ compho.PID, c compho.Set, yield func(compho.Set, uint64)) { yield(c, 0) }}}
}

type deliver struct{ k int }

// Deliver is DELIVER k of the sequentialization paper: every receiver
// hears at least k of the messages sent to it, or all of them if fewer
// were sent (n−f for f crash or omission faults).
func Deliver(k int) Network { return deliver{k} }

func (d deliver) Name() string                                   { return fmt.Sprintf("deliver %d", d.k) }
func (deliver) Init(int) uint64                                  { return 0 }
func (deliver) Next(_ int, mon uint64, _ int, _ []uint64) uint64 { return mon }
func (d deliver) Modes(int, uint64, []compho.Set, []bool) []Mode {
	return []Mode{{Sets: func(_ compho.PID, c compho.Set, yield func(compho.Set, uint64)) {
		need := min(d.k, c.Len())
		subsets(c, func(h compho.Set) {
			if h.Len() >= need {
				yield(h, 0)
			}
		})
	}}}
}

type kernel struct{}

// Kernel is KERNEL of the sequentialization paper: one process, the same
// in every step (chosen in the first step), exchanges messages reliably
// with every process: every receiver hears it if it sent, and it hears
// every message sent to it. The other messages may be lost. The monitor
// is the kernel process plus one (0 before the first step).
func Kernel() Network { return kernel{} }

func (kernel) Name() string    { return "kernel" }
func (kernel) Init(int) uint64 { return 0 }
func (kernel) Next(_ int, mon uint64, mode int, _ []uint64) uint64 {
	if mon == 0 {
		return uint64(mode) + 1
	}
	return mon
}

func (kernel) Modes(n int, mon uint64, _ []compho.Set, _ []bool) []Mode {
	mode := func(k compho.PID) Mode {
		return Mode{Sets: func(p compho.PID, c compho.Set, yield func(compho.Set, uint64)) {
			if p == k {
				yield(c, 0)
				return
			}
			must := c & compho.SetOf(k)
			subsets(c&^must, func(h compho.Set) { yield(h|must, 0) })
		}}
	}
	if mon != 0 {
		return []Mode{mode(compho.PID(mon - 1))}
	}
	ms := make([]Mode, n)
	for k := range ms {
		ms[k] = mode(compho.PID(k))
	}
	return ms
}

type roundKernel struct{}

// RoundKernel allows the steps with a non-empty kernel, the condition of
// UniformVoting: in every step some process, not always the same, is
// heard by every process it sent to (the intersection of the HO sets is
// not empty). The other messages may be lost.
func RoundKernel() Network { return roundKernel{} }

func (roundKernel) Name() string                                     { return "round kernel" }
func (roundKernel) Init(int) uint64                                  { return 0 }
func (roundKernel) Next(_ int, mon uint64, _ int, _ []uint64) uint64 { return mon }
func (roundKernel) Modes(n int, _ uint64, _ []compho.Set, _ []bool) []Mode {
	ms := make([]Mode, n)
	for k := range ms {
		must := compho.SetOf(compho.PID(k))
		ms[k] = Mode{Sets: func(_ compho.PID, c compho.Set, yield func(compho.Set, uint64)) {
			m := c & must
			subsets(c&^m, func(h compho.Set) { yield(h|m, 0) })
		}}
	}
	return ms
}

type isolations struct{ d, k int }

// Isolations allows the d-bounded k-periodic uniform lossy-synchronous
// executions of Drăgoi et al., "Testing consensus implementations using
// communication closure" (Sec. 4; LossySync samples them): the steps
// are cut into periods of k steps; in a step, a process may be isolated
// until the end of the period, at most d isolations in all; an isolated
// process hears nothing and nobody hears it; the others hear each other.
// The monitor packs the isolations used, the step in the period and the
// isolated processes (at most 32).
func Isolations(d, k int) Network { return isolations{d, max(k, 1)} }

func (is isolations) Name() string {
	return fmt.Sprintf("at most %d isolation(s), period %d", is.d, is.k)
}
func (isolations) Init(int) uint64 { return 0 }

func unpackIso(mon uint64) (used, step int, iso compho.Set) {
	return int(mon & 0xffff), int(mon >> 16 & 0xffff), compho.Set(mon >> 32)
}

func packIso(used, step int, iso compho.Set) uint64 {
	return uint64(used) | uint64(step)<<16 | uint64(iso)<<32
}

func (is isolations) Modes(n int, mon uint64, _ []compho.Set, _ []bool) []Mode {
	used, _, iso := unpackIso(mon)
	all := compho.Set(1)<<min(n, 32) - 1
	var ms []Mode
	// Every set of new isolations within the budget, fewest first.
	subsets(all&^iso, func(add compho.Set) {
		if used+add.Len() > is.d {
			return
		}
		kernel := all &^ (iso | add)
		ms = append(ms, Mode{Sets: func(p compho.PID, c compho.Set, yield func(compho.Set, uint64)) {
			if kernel.Has(p) {
				yield(c&kernel, uint64(add))
			} else {
				yield(0, uint64(add))
			}
		}})
	})
	return ms
}

func (is isolations) Next(_ int, mon uint64, _ int, tags []uint64) uint64 {
	used, step, iso := unpackIso(mon)
	var add compho.Set
	for _, t := range tags {
		add |= compho.Set(t)
	}
	used += add.Len()
	iso |= add
	if step++; step == is.k {
		step, iso = 0, 0
	}
	return packIso(used, step, iso)
}

type uniformRound struct{ more func(k, n int) bool }

// UniformRound monitors the communication predicate of OneThirdRule's
// termination (Tsuchiya and Schiper, Sec. 4.3): a round r0 in which every
// process hears of the same set of processes, a set more(k, n) holds
// of, and then for each process p a round after r0 in which p hears of
// such a set. Any HO set is allowed; the monitor's bit 0 records r0, bit
// 1+p the round of p. Use Good to test it in an invariant.
func UniformRound(more func(k, n int) bool) Network { return uniformRound{more} }

// Good reports whether the predicate UniformRound monitors has held in
// full: r0 and a later good round for each of the n processes.
func Good(mon uint64, n int) bool {
	all := uint64(1)<<(n+1) - 1
	return mon&all == all
}

func (uniformRound) Name() string    { return "uniform round then good rounds" }
func (uniformRound) Init(int) uint64 { return 0 }
func (u uniformRound) Modes(n int, _ uint64, _ []compho.Set, _ []bool) []Mode {
	return []Mode{{Sets: func(_ compho.PID, c compho.Set, yield func(compho.Set, uint64)) {
		subsets(c, func(h compho.Set) {
			if u.more(h.Len(), n) {
				yield(h, uint64(h)|1<<63) // the set, for r0
			} else {
				yield(h, 0)
			}
		})
	}}}
}

func (u uniformRound) Next(n int, mon uint64, _ int, tags []uint64) uint64 {
	next := mon
	uniform := true
	for p, t := range tags {
		if t == 0 || t != tags[0] {
			uniform = false
		}
		if t != 0 && mon&1 != 0 {
			next |= 1 << (p + 1)
		}
	}
	if uniform && len(tags) == n {
		next |= 1
	}
	return next
}
