package algorandba

import (
	"crypto/sha256"
	"strconv"
	"time"
)

// Vote is a process's bit for one step of one period.
//
//sync:msg Period,Step
type Vote struct {
	Period int
	Step   int
	From   int
	Value  int
}

// Process is one BA* participant.
type Process struct {
	id, n, f int
	bus      *Bus
	timeout  time.Duration
	seed     string // seed of the common coin
}

// NewProcess returns process id of n on bus.
func NewProcess(id, n int, bus *Bus, timeout time.Duration, seed string) *Process {
	return &Process{id: id, n: n, f: (n - 1) / 3, bus: bus, timeout: timeout, seed: seed}
}

// baState is the state of one run of BA*.
type baState struct {
	*Process
	period   int // phase of the tag
	step     int // round of the tag: 1, 2 or 3
	decided  bool
	decision int
}

// Agree runs BA* from the initial bit b and returns the decided bit, or
// false if maxPeriods periods went by without a decision.
func (p *Process) Agree(b int, maxPeriods int) (int, bool) {
	st := &baState{Process: p, period: 1, step: 1}
	q := 2*p.f + 1
	helped := false
	//sync:tag st.period,st.step
	for st.period <= maxPeriods {
		if helped {
			break // we decided and voted for a whole period after: done
		}
		helped = st.decided

		// Step 1: coin fixed to 0.
		st.vote(b)
		c := st.count()
		switch {
		case c[0] >= q:
			b = 0
			if !st.decided {
				st.decided, st.decision = true, 0
			}
		case c[1] >= q:
			b = 1
		default:
			b = 0
		}

		// Step 2: coin fixed to 1.
		st.step = 2
		st.vote(b)
		c = st.count()
		switch {
		case c[1] >= q:
			b = 1
			if !st.decided {
				st.decided, st.decision = true, 1
			}
		case c[0] >= q:
			b = 0
		default:
			b = 1
		}

		// Step 3: coin genuinely flipped.
		st.step = 3
		st.vote(b)
		c = st.count()
		switch {
		case c[0] >= q:
			b = 0
		case c[1] >= q:
			b = 1
		default:
			b = st.coin()
		}
		st.period++
		st.step = 1
	}
	return st.decision, st.decided
}

// vote gossips bit b for the current step; a process that decided votes
// its decision.
func (st *baState) vote(b int) {
	if st.decided {
		b = st.decision
	}
	st.bus.Gossip(Vote{Period: st.period, Step: st.step, From: st.id, Value: b})
}

// count waits for the votes of n-f processes in the current step (or a
// time-out) and returns how many voted 0 and 1.
func (st *baState) count() [2]int {
	votes := make(map[int]int)
	for len(votes) < st.n-st.f {
		v, ok := st.bus.Next(st.id, st.timeout)
		if !ok {
			break
		}
		if v.Period != st.period || v.Step != st.step {
			continue
		}
		votes[v.From] = v.Value
	}
	var c [2]int
	for _, b := range votes {
		if b == 0 || b == 1 {
			c[b]++
		}
	}
	return c
}

// coin is the common coin of the current period: the same bit at every
// process.
func (st *baState) coin() int {
	sum := sha256.Sum256([]byte(st.seed + "/" + strconv.Itoa(st.period)))
	return int(sum[0] & 1)
}
