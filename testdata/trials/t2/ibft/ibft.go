package ibft

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"time"
)

// Config configures a Node.
type Config struct {
	ID        int
	N         int // number of replicas, n >= 3f+1
	Transport Transport
	Timeout   time.Duration           // how long a step waits for its messages
	Propose   func(height int) string // the block this replica proposes
}

// Node is one IBFT replica.
type Node struct {
	id, n, f int
	tr       Transport
	timeout  time.Duration
	propose  func(height int) string

	// The tag (height, round, step).
	height int
	round  int
	step   Step

	// The lock: the last value this replica saw a prepare quorum for.
	preparedRound int
	preparedValue string

	decided []string // decided[h] is the block of height h
}

// NewNode returns a replica at height 0, round 0.
func NewNode(cfg Config) *Node {
	return &Node{
		id: cfg.ID, n: cfg.N, f: (cfg.N - 1) / 3,
		tr: cfg.Transport, timeout: cfg.Timeout, propose: cfg.Propose,
		preparedRound: -1,
	}
}

// Decided returns the blocks decided so far, by height.
func (n *Node) Decided() []string { return slices.Clone(n.decided) }

func (n *Node) quorum() int { return 2*n.f + 1 }

func proposerOf(height, round, n int) int { return (height + round) % n }

func digestOf(v string) string {
	sum := sha256.Sum256([]byte(v))
	return hex.EncodeToString(sum[:8])
}

// hdr is the header of a message sent now: it carries the current tag.
func (n *Node) hdr() Header {
	return Header{Height: n.height, Round: n.round, Step: n.step, From: n.id}
}

func (n *Node) broadcast(m Message) { n.tr.Broadcast(m) }

// Run decides heights blocks, or returns ctx's error.
func (n *Node) Run(ctx context.Context, heights int) error {
	//sync:tag n.height,n.round,n.step
	for n.height < heights {
		if err := ctx.Err(); err != nil {
			return err
		}
		n.step = RoundChange
		var proposal string
		if n.round > 0 {
			n.broadcast(Message{Hdr: n.hdr(), Value: n.preparedValue, PreparedRound: n.preparedRound})
			if proposerOf(n.height, n.round, n.n) == n.id {
				rcs := n.collect(ctx, n.quorum())
				if len(rcs) < n.quorum() {
					n.round++ // no round-change quorum: try the next proposer
					continue
				}
				proposal = highestPrepared(rcs)
			}
		}

		n.step = PrePrepare
		if proposerOf(n.height, n.round, n.n) == n.id {
			if proposal == "" {
				proposal = n.propose(n.height)
			}
			n.broadcast(Message{Hdr: n.hdr(), Value: proposal})
		}
		pp, ok := n.awaitPrePrepare(ctx)
		if !ok {
			n.round++ // proposer silent: change round
			continue
		}
		if pp.Hdr.Round > n.round {
			// The proposer of a later round of this height is already
			// running it: catch up before voting.
			n.round = pp.Hdr.Round
		}

		n.step = Prepare
		digest := digestOf(pp.Value)
		prepareVote := Message{Hdr: n.hdr(), Digest: digest}
		n.broadcast(prepareVote)
		prepares := n.collect(ctx, n.quorum())
		if matching(prepares, digest) < n.quorum() {
			n.round++ // no prepare quorum: change round
			continue
		}
		n.preparedRound, n.preparedValue = n.round, pp.Value

		n.step = Commit
		n.broadcast(Message{Hdr: n.hdr(), Digest: digest})
		commits := n.collect(ctx, n.quorum())
		if matching(commits, digest) < n.quorum() {
			n.round++ // no commit quorum: change round
			continue
		}
		n.decided = append(n.decided, pp.Value)
		n.height++
		n.round = 0
		n.preparedRound, n.preparedValue = -1, ""
	}
	return nil
}

// collect gathers up to need messages of the current (height, round, step)
// from distinct senders, for at most one time-out.
func (n *Node) collect(ctx context.Context, need int) []Message {
	ctx, cancel := context.WithTimeout(ctx, n.timeout)
	defer cancel()
	got := make(map[int]Message)
	for len(got) < need {
		m, err := n.tr.Recv(ctx)
		if err != nil {
			break
		}
		if m.Hdr.Height != n.height || m.Hdr.Round != n.round || m.Hdr.Step != n.step {
			continue
		}
		got[m.Hdr.From] = m
	}
	out := make([]Message, 0, len(got))
	for _, m := range got {
		out = append(out, m)
	}
	return out
}

// awaitPrePrepare waits for the PrePrepare of this height's current round or
// of a later one, sent by that round's proposer.
func (n *Node) awaitPrePrepare(ctx context.Context) (Message, bool) {
	ctx, cancel := context.WithTimeout(ctx, n.timeout)
	defer cancel()
	for {
		m, err := n.tr.Recv(ctx)
		if err != nil {
			return Message{}, false
		}
		if m.Hdr.Step != PrePrepare || m.Hdr.Height != n.height || m.Hdr.Round < n.round {
			continue
		}
		if m.Hdr.From != proposerOf(m.Hdr.Height, m.Hdr.Round, n.n) {
			continue
		}
		return m, true
	}
}

// highestPrepared is the value prepared in the highest round among the
// round-change messages, or "" if none was prepared.
func highestPrepared(rcs []Message) string {
	best, value := -1, ""
	for _, m := range rcs {
		if m.PreparedRound > best {
			best, value = m.PreparedRound, m.Value
		}
	}
	return value
}

func matching(votes []Message, digest string) int {
	c := 0
	for _, m := range votes {
		if m.Digest == digest {
			c++
		}
	}
	return c
}
