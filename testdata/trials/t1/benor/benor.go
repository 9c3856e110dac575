package benor

import (
	"math/rand/v2"
	"time"
)

// Round is the round inside a phase of Ben-Or.
type Round int

// The two rounds of a phase, in execution order.
const (
	// Report: every process broadcasts its current estimate.
	Report Round = iota
	// Proposal: every process broadcasts the value it proposes, if any.
	Proposal
)

// ReportMsg carries the estimate of its sender in round Report of a phase.
//
//sync:msg Phase,Report
type ReportMsg struct {
	Phase int
	V     int
}

// ProposalMsg carries a proposal in round Proposal of a phase; Known is false
// for the "no value" proposal of a process that saw no majority.
//
//sync:msg Phase,Proposal
type ProposalMsg struct {
	Phase int
	V     int
	Known bool
}

// Transport connects a process to the others.
type Transport interface {
	// Broadcast sends m to every process, the sender included.
	//
	//sync:send
	Broadcast(m any)

	// Recv waits at most timeout for the next message; ok is false on a
	// time-out.
	//
	//sync:recv
	Recv(timeout time.Duration) (m any, from int, ok bool)
}

// Config configures one process.
type Config struct {
	ID        int           // process id, 0..N-1
	N, F      int           // number of processes and of crashes tolerated (N > 2F)
	Input     int           // initial estimate, 0 or 1
	Seed      uint64        // seed of the local coin
	Timeout   time.Duration // how long a round waits before the process gives up
	MaxPhases int           // number of phases to run
}

// Result is what Run returns.
type Result struct {
	Decided bool
	Value   int   // the decision, if Decided
	Phase   int   // the phase of the decision
	Phases  int   // the phases completed
	GaveUp  bool  // the process stopped because it heard from fewer than N-F
	Round   Round // the round in which it gave up, if GaveUp
}

// Run executes at most cfg.MaxPhases phases of Ben-Or and returns the first
// decision taken. A process keeps running after it decided, with its
// estimate fixed to the decision, so that the others decide too.
func Run(cfg Config, tr Transport) Result {
	quorum := cfg.N - cfg.F
	x := cfg.Input
	coin := rand.New(rand.NewPCG(cfg.Seed, uint64(cfg.ID)))
	var res Result

	phase, rnd := 1, Report
	//sync:tag phase,rnd
	for phase <= cfg.MaxPhases {
		rnd = Report
		tr.Broadcast(ReportMsg{Phase: phase, V: x})
		reports := make(map[int]int, cfg.N) // sender -> estimate
		for len(reports) < quorum {
			raw, from, ok := tr.Recv(cfg.Timeout)
			if !ok {
				break
			}
			m, isReport := raw.(ReportMsg)
			if !isReport || m.Phase != phase {
				continue // another kind or another phase: drop
			}
			reports[from] = m.V
		}
		if len(reports) < quorum {
			// Fewer than n-f processes are alive: stop, as if crashed.
			res.GaveUp, res.Round = true, rnd
			break
		}
		prop := ProposalMsg{Phase: phase}
		if v, ok := majority(reports, cfg.N); ok {
			prop.V, prop.Known = v, true
		}

		rnd = Proposal
		tr.Broadcast(prop)
		props := make(map[int]ProposalMsg, cfg.N)
		for len(props) < quorum {
			raw, from, ok := tr.Recv(cfg.Timeout)
			if !ok {
				break
			}
			m, isProp := raw.(ProposalMsg)
			if !isProp || m.Phase != phase {
				continue
			}
			props[from] = m
		}
		if len(props) < quorum {
			res.GaveUp, res.Round = true, rnd
			break
		}
		v, count := strongest(props)
		switch {
		case count >= cfg.F+1:
			x = v
			if !res.Decided {
				res = Result{Decided: true, Value: v, Phase: phase}
			}
		case count > 0:
			x = v
		default:
			x = coin.IntN(2)
		}
		res.Phases = phase
		phase++
	}
	return res
}

// majority returns the value reported by more than n/2 processes, if any.
func majority(reports map[int]int, n int) (int, bool) {
	var count [2]int
	for _, v := range reports {
		count[v&1]++
	}
	for v, c := range count {
		if 2*c > n {
			return v, true
		}
	}
	return 0, false
}

// strongest returns the value proposed most often and how often. Processes
// never propose two different values in one phase, so at most one value
// has a non-zero count.
func strongest(props map[int]ProposalMsg) (v, count int) {
	var counts [2]int
	for _, m := range props {
		if m.Known {
			counts[m.V&1]++
		}
	}
	if counts[1] > counts[0] {
		return 1, counts[1]
	}
	return 0, counts[0]
}
