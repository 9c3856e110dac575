package kset

import (
	"errors"
	"maps"
	"slices"
	"time"
)

// Value is the message of a round: its sender's current estimate.
//
//sync:msg Round
type Value struct {
	Round int
	From  int
	X     float64
}

// ErrTimeout is returned by Transport.Recv when nothing arrived in time.
var ErrTimeout = errors.New("kset: receive timed out")

// Transport connects a process to the others.
type Transport interface {
	// Broadcast sends m to every process, the sender included.
	//
	//sync:send
	Broadcast(m Value)

	// Recv returns the next message, or ErrTimeout once deadline passed.
	//
	//sync:recv
	Recv(deadline time.Time) (Value, error)
}

// Mailbox holds the messages of one reception, at most one per sender (the
// last one received).
type Mailbox[M any] struct {
	msgs map[int]M
}

// NewMailbox returns an empty mailbox.
func NewMailbox[M any]() *Mailbox[M] {
	return &Mailbox[M]{msgs: make(map[int]M)}
}

// Put stores m, received from sender from.
func (b *Mailbox[M]) Put(from int, m M) { b.msgs[from] = m }

// Select returns the messages for which keep holds, by increasing sender.
func (b *Mailbox[M]) Select(keep func(M) bool) []M {
	var out []M
	for _, q := range slices.Sorted(maps.Keys(b.msgs)) {
		if keep(b.msgs[q]) {
			out = append(out, b.msgs[q])
		}
	}
	return out
}

// Config configures one process.
type Config struct {
	ID, N, F int
	Input    float64
	Rounds   int           // number of rounds to run
	Timeout  time.Duration // how long a round waits for n-f values
}

// Result is what Run returns.
type Result struct {
	X       float64   // the final estimate
	History []float64 // the estimate after every round in which it changed
}

type proc struct {
	id      int
	round   int
	x       float64
	history []float64
}

// Run executes cfg.Rounds rounds of approximate agreement over tr.
func Run(cfg Config, tr Transport) Result {
	quorum := cfg.N - cfg.F
	p := &proc{id: cfg.ID, round: 0, x: cfg.Input}

	//sync:tag p.round
	for p.round < cfg.Rounds {
		p.round++
		tr.Broadcast(Value{Round: p.round, From: p.id, X: p.x})

		mb := NewMailbox[Value]()
		current := 0
		deadline := time.Now().Add(cfg.Timeout)
		for current < quorum {
			m, err := tr.Recv(deadline)
			if err != nil {
				break
			}
			if m.Round < p.round {
				continue // a round we are past
			}
			mb.Put(m.From, m)
			if m.Round == p.round {
				current++
			}
		}

		// Values of later rounds: we fell behind, catch up with the latest
		// round we heard of.
		hi := p.round
		for _, m := range mb.msgs {
			hi = max(hi, m.Round)
		}
		p.round = hi

		vals := mb.Select(func(m Value) bool { return m.Round == p.round })
		if len(vals) < quorum {
			continue // too few values of this round: keep x
		}
		p.x = midpoint(vals)
		p.history = append(p.history, p.x)
	}
	return Result{X: p.x, History: p.history}
}

// midpoint is the averaging function of the crash-tolerant algorithm: the
// middle of the range of the received values.
func midpoint(vals []Value) float64 {
	lo, hi := vals[0].X, vals[0].X
	for _, v := range vals[1:] {
		lo, hi = min(lo, v.X), max(hi, v.X)
	}
	return (lo + hi) / 2
}
