package bosco

import "time"

// Step is the round inside a phase, in execution order.
type Step int

// The rounds. Phase 0 has only Vote; the phases of phase king have
// Exchange then King.
const (
	Vote     Step = iota // BOSCO's single step
	Exchange             // phase king: everybody sends its value
	King                 // phase king: the king sends its majority value
)

// Msg is the only message type.
//
//sync:msg Phase,Step
type Msg struct {
	From  int
	Phase int
	Step  Step
	Val   int // 0 or 1
}

// Config holds the parameters shared by all processes.
type Config struct {
	F       int           // number of faulty processes tolerated; n > 5f
	Timeout time.Duration // how long a phase-king round waits
	// After returns a channel that fires after d; nil means time.After.
	// Tests inject their own clock.
	After func(d time.Duration) <-chan time.Time
}

// Result is the outcome of Run.
type Result struct {
	Decision int
	OneStep  bool // decided in BOSCO's first step
}

// Run executes BOSCO for process id with the given binary input. out[q] is
// the channel to process q (out[id] included) and in is this process's
// inbox.
func Run(id, input int, in <-chan Msg, out []chan<- Msg, cfg Config) Result {
	n, f := len(out), cfg.F
	after := cfg.After
	if after == nil {
		after = time.After
	}
	val, res := input, Result{Decision: -1}

	phase, step := 0, Vote
	//sync:tag phase,step
	for ; phase <= f+1; phase++ {
		if phase == 0 {
			broadcast(out, Msg{From: id, Phase: phase, Step: step, Val: val})
			votes := collect(in, phase, step, n-f, after(cfg.Timeout))
			c := tally(votes)
			for v := range 2 {
				switch {
				case 2*c[v] > n+3*f:
					res, val = Result{Decision: v, OneStep: true}, v
				case 2*c[v] > n-f:
					val = v
				}
			}
			continue
		}

		step = Exchange
		broadcast(out, Msg{From: id, Phase: phase, Step: step, Val: val})
		vals := collect(in, phase, step, n, after(cfg.Timeout))
		c := tally(vals)
		maj := 0
		if c[1] > c[0] {
			maj = 1
		}

		step = King
		king := phase - 1
		if king == id {
			broadcast(out, Msg{From: id, Phase: phase, Step: step, Val: maj})
		}
		var kv Msg
		heard := false
		timer := after(cfg.Timeout)
	wait:
		for !heard {
			select {
			case m := <-in:
				if m.Phase != phase || m.Step != step || m.From != king {
					continue // not the king of this phase
				}
				kv, heard = m, true
			case <-timer:
				break wait
			}
		}
		if 2*c[maj] > n+2*f || !heard {
			val = maj // our majority is strong enough, or the king is silent
		} else {
			val = kv.Val
		}
	}
	if res.Decision < 0 {
		res.Decision = val
	}
	return res
}

// broadcast sends m to every process, itself included.
func broadcast(out []chan<- Msg, m Msg) {
	for _, o := range out {
		o <- m
	}
}

// collect receives messages of round (phase, step), one per sender, until it
// has need of them or timeout fires. Messages of other rounds are dropped.
func collect(in <-chan Msg, phase int, step Step, need int, timeout <-chan time.Time) map[int]Msg {
	got := make(map[int]Msg)
	for len(got) < need {
		select {
		case m := <-in:
			if m.Phase != phase || m.Step != step {
				continue // another round's message
			}
			got[m.From] = m
		case <-timeout:
			return got
		}
	}
	return got
}

// tally counts the values of a mailbox.
func tally(mbox map[int]Msg) [2]int {
	var c [2]int
	for _, m := range mbox {
		if m.Val == 0 || m.Val == 1 {
			c[m.Val]++
		}
	}
	return c
}
