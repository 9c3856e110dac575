package rabia

import (
	"context"
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"
	"time"
)

// Round is the last part of the tag (slot, phase, round).
type Round int

// The rounds of a phase; Propose only happens in phase 1.
const (
	Propose Round = iota
	State
	Vote
)

// Unknown is the "?" vote.
const Unknown = -1

// Msg is the one message type of the protocol.
//
//sync:msg Slot,Phase,Round
type Msg struct {
	Slot     int
	Phase    int
	Round    Round
	From     int
	Proposal string // Propose
	Value    int    // State: 0 or 1; Vote: 0, 1 or Unknown
}

// Transport connects a replica to the others.
type Transport interface {
	// Broadcast sends m to every replica, this one included.
	//
	//sync:send
	Broadcast(m Msg)
	// Inbox is where this replica's messages arrive, in the order sent.
	Inbox() <-chan Msg
}

// Replica is one Rabia replica.
type Replica struct {
	id, n, f int
	net      Transport
	timeout  time.Duration
}

// NewReplica returns replica id of n = 2f+1.
func NewReplica(id, n int, net Transport, timeout time.Duration) *Replica {
	return &Replica{id: id, n: n, f: (n - 1) / 2, net: net, timeout: timeout}
}

func (r *Replica) broadcast(m Msg) {
	m.From = r.id
	r.net.Broadcast(m)
}

// collect returns the messages of n-f replicas for (slot, phase, round), or
// fewer if the time-out expires first.
func (r *Replica) collect(ctx context.Context, slot, phase int, round Round) ([]Msg, error) {
	got := make(map[int]Msg)
	timer := time.NewTimer(r.timeout)
	defer timer.Stop()
	for len(got) < r.n-r.f {
		select {
		case m := <-r.net.Inbox():
			if m.Slot != slot || m.Phase != phase || m.Round != round {
				continue
			}
			got[m.From] = m
		case <-timer.C:
			return values(got), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return values(got), nil
}

// values returns the messages of got ordered by sender.
func values(got map[int]Msg) []Msg {
	out := make([]Msg, 0, len(got))
	for _, q := range slices.Sorted(maps.Keys(got)) {
		out = append(out, got[q])
	}
	return out
}

// Decide runs weak MVC for slot with this replica's proposal and returns the
// slot's content: a proposal, or "" if the slot stays empty.
func (r *Replica) Decide(ctx context.Context, slot int, proposal string) (string, error) {
	var (
		state    int
		majority string // the proposal a majority sent, if any
		decided  = Unknown
	)
	phase, round := 0, Propose
	//sync:tag slot,phase,round
	for {
		phase++
		round = Propose
		if phase == 1 {
			r.broadcast(Msg{Slot: slot, Phase: phase, Round: Propose, Proposal: proposal})
			props, err := r.collect(ctx, slot, phase, round)
			if err != nil {
				return "", err
			}
			majority = majorityProposal(props, r.n)
			if majority != "" {
				state = 1
			}
		}

		round = State
		r.broadcast(Msg{Slot: slot, Phase: phase, Round: State, Value: state})
		states, err := r.collect(ctx, slot, phase, round)
		if err != nil {
			return "", err
		}
		vote := Unknown
		for v := range 2 {
			if countValue(states, v) > r.n/2 {
				vote = v
			}
		}
		if decided != Unknown {
			vote = decided
		}

		round = Vote
		r.broadcast(Msg{Slot: slot, Phase: phase, Round: Vote, Value: vote})
		votes, err := r.collect(ctx, slot, phase, round)
		if err != nil {
			return "", err
		}
		if decided != Unknown {
			break // we voted our decision for one more phase
		}
		state = coin(slot, phase)
		for v := range 2 {
			if countValue(votes, v) >= 1 {
				state = v
			}
			if countValue(votes, v) >= r.f+1 {
				decided = v
			}
		}
	}
	if decided == 1 {
		return majority, nil
	}
	return "", nil
}

func majorityProposal(props []Msg, n int) string {
	for _, m := range props {
		k := 0
		for _, o := range props {
			if o.Proposal == m.Proposal {
				k++
			}
		}
		if k > n/2 {
			return m.Proposal
		}
	}
	return ""
}

func countValue(ms []Msg, v int) int {
	k := 0
	for _, m := range ms {
		if m.Value == v {
			k++
		}
	}
	return k
}

// coin is the common coin of a phase: the same bit at every replica.
func coin(slot, phase int) int {
	sum := sha256.Sum256(fmt.Appendf(nil, "rabia/%d/%d", slot, phase))
	return int(sum[0] & 1)
}
