package crusader

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Round is the round part of the tag (instance, round).
type Round int

// The two rounds of an instance.
const (
	// ReportRound: processes broadcast their inputs.
	ReportRound Round = iota
	// EchoRound: processes broadcast the value they saw n-f times, if any.
	EchoRound
)

// Bottom is the output of an instance whose correct inputs differed.
const Bottom = "⊥"

// Report carries a process's input.
//
//sync:msg Inst,ReportRound
type Report struct {
	Inst  int
	Value string
}

// Echo carries the value a process saw from n-f processes; Value is "" if
// there was none.
//
//sync:msg Inst,EchoRound
type Echo struct {
	Inst  int
	Value string
}

// Envelope is what travels on the channels: a body and its sender.
type Envelope struct {
	From int
	Body any // *Report or *Echo
}

// Position is where a process is: instance and round.
type Position struct {
	Inst  int
	Round Round
}

// Crusader is one process.
type Crusader struct {
	id, n, f int
	roundDur time.Duration

	//sync:peers
	peers  []chan<- Envelope
	sendMu *sync.Mutex // shared by the group: a broadcast is atomic
	//sync:inbox
	inbox <-chan Envelope

	pos     Position
	outputs []string
}

// New returns process id, sending to peers[q] and receiving on inbox. The
// processes of a group share sendMu, which makes each broadcast atomic, so
// that an echo never overtakes the reports it answers.
func New(id, f int, peers []chan<- Envelope, sendMu *sync.Mutex, inbox <-chan Envelope, roundDur time.Duration) *Crusader {
	return &Crusader{id: id, n: len(peers), f: f, peers: peers, sendMu: sendMu, inbox: inbox, roundDur: roundDur}
}

// Outputs returns the output of each instance, in order.
func (c *Crusader) Outputs() []string { return slices.Clone(c.outputs) }

func (c *Crusader) broadcast(body any) {
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	for _, ch := range c.peers {
		select {
		case ch <- Envelope{From: c.id, Body: body}:
		default:
		}
	}
}

// Run runs one instance per input.
func (c *Crusader) Run(ctx context.Context, inputs []string) error {
	//sync:tag c.pos.Inst,c.pos.Round
	for c.pos.Inst < len(inputs) {
		c.pos.Inst++
		c.pos.Round = ReportRound
		c.broadcast(&Report{Inst: c.pos.Inst, Value: inputs[c.pos.Inst-1]})

		reports := make(map[int]string)
		timer := time.NewTimer(c.roundDur)
	reporting:
		for len(reports) < c.n {
			select {
			case env := <-c.inbox:
				switch m := env.Body.(type) {
				case *Report:
					if m.Inst != c.pos.Inst {
						continue
					}
					reports[env.From] = m.Value
				case *Echo:
					continue // no echo belongs to this round
				}
			case <-timer.C:
				break reporting
			case <-ctx.Done():
				timer.Stop()
				return ctx.Err()
			}
		}
		timer.Stop()
		seen, _ := mostCommon(reports)
		if count(reports, seen) < c.n-c.f {
			seen = ""
		}

		c.pos.Round = EchoRound
		c.broadcast(&Echo{Inst: c.pos.Inst, Value: seen})

		echoes := make(map[int]string)
		timer = time.NewTimer(c.roundDur)
	echoing:
		for len(echoes) < c.n {
			select {
			case env := <-c.inbox:
				e, ok := env.Body.(*Echo)
				if !ok || e.Inst != c.pos.Inst {
					continue
				}
				echoes[env.From] = e.Value
			case <-timer.C:
				break echoing
			case <-ctx.Done():
				timer.Stop()
				return ctx.Err()
			}
		}
		timer.Stop()
		out := Bottom
		if v, k := mostCommon(echoes); v != "" && k >= c.f+1 {
			out = v
		}
		c.outputs = append(c.outputs, out)
	}
	return nil
}

// mostCommon returns the most frequent non-empty value (smallest on ties)
// and its count.
func mostCommon(votes map[int]string) (string, int) {
	best, bestN := "", 0
	for _, v := range votes {
		k := count(votes, v)
		if v != "" && (k > bestN || k == bestN && v < best) {
			best, bestN = v, k
		}
	}
	return best, bestN
}

func count(votes map[int]string, v string) int {
	k := 0
	for _, w := range votes {
		if w == v {
			k++
		}
	}
	return k
}
