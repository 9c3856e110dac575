package tendermintev

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// Step is the last part of the tag (height, round, step).
type Step int

// The steps of a round, in order.
const (
	Propose Step = iota
	Prevote
	Precommit
)

// Msg is a proposal or a vote; Step says which. Value "" is a vote for nil.
//
//sync:msg Height,Round,Step
type Msg struct {
	Height   int
	Round    int
	Step     Step
	From     int
	Value    string
	POLRound int // Proposal: round in which the proposer locked Value, or -1
}

// Config configures a Node.
type Config struct {
	ID, N    int
	Net      *Network
	Timeout  time.Duration           // each step's time-out
	Proposal func(height int) string // the value this node proposes
}

// Node is one Tendermint validator.
type Node struct {
	id, n, f int
	net      *Network
	gossip   *Gossip
	timeout  time.Duration
	proposal func(height int) string
	timer    *time.Timer

	// The tag (height, round, step).
	height int
	round  int
	step   Step

	lockedValue string
	lockedRound int
	prevotes    map[int]string // votes of the current round and step
	precommits  map[int]string
	decided     []string
}

// NewNode returns a node at height 0.
func NewNode(cfg Config) *Node {
	return &Node{
		id: cfg.ID, n: cfg.N, f: (cfg.N - 1) / 3,
		net: cfg.Net, gossip: cfg.Net.Gossip(cfg.ID),
		timeout: cfg.Timeout, proposal: cfg.Proposal,
		lockedRound: -1,
	}
}

// Decided returns the decided values, by height.
func (c *Node) Decided() []string { return slices.Clone(c.decided) }

func (c *Node) proposer() int { return (c.height + c.round) % c.n }

func (c *Node) quorum() int { return 2*c.f + 1 }

// Run decides heights values, or returns ctx's error.
func (c *Node) Run(ctx context.Context, heights int) error {
	c.timer = time.NewTimer(time.Hour)
	defer c.timer.Stop()
	c.startRound()
	//sync:tag c.height,c.round,c.step
	for c.height < heights {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-c.timer.C:
			c.onTimeout()
		case m := <-c.gossip.C():
			if m.Height != c.height || m.Round < c.round || m.Round == c.round && m.Step < c.step {
				continue // an old height, round or step
			}
			if m.Round > c.round || m.Step > c.step {
				// The others are ahead (the gossip layer only releases a
				// later round once f+1 validators are in it): catch up.
				c.jump(m.Round, m.Step)
			}
			c.handle(m)
		}
	}
	return nil
}

// startRound enters step Propose of the current round.
func (c *Node) startRound() {
	c.step = Propose
	c.resetRound()
	c.propose()
}

// resetRound clears the votes of the round left behind and re-arms the
// gossip layer and the timer for the current round.
func (c *Node) resetRound() {
	c.prevotes = make(map[int]string)
	c.precommits = make(map[int]string)
	c.gossip.Advance(c.height, c.round)
	c.timer.Reset(c.timeout)
}

// propose broadcasts the current round's proposal if this node is its
// proposer.
func (c *Node) propose() {
	if c.proposer() != c.id {
		return
	}
	if c.lockedRound >= 0 {
		// Re-propose the locked value, with the round of its polka.
		c.net.Broadcast(&Msg{Height: c.height, Round: c.round, Step: Propose, From: c.id, Value: c.lockedValue, POLRound: c.lockedRound})
		return
	}
	c.net.Broadcast(&Msg{Height: c.height, Round: c.round, Step: Propose, From: c.id, Value: c.proposal(c.height), POLRound: -1})
}

// jump moves to a later round or step of the height, both at once. A vote
// step entered this way gets this node's nil vote, as if the previous step
// had timed out.
func (c *Node) jump(round int, step Step) {
	newRound := round > c.round
	c.round, c.step = round, step
	if newRound {
		c.resetRound()
	}
	switch step {
	case Propose:
		c.propose()
	case Prevote:
		c.prevote("")
	case Precommit:
		c.precommit("")
	}
}

func (c *Node) enterPrevote(v string) {
	c.step = Prevote
	c.prevote(v)
}

func (c *Node) enterPrecommit(v string) {
	c.step = Precommit
	c.precommit(v)
}

// prevote broadcasts this node's prevote of the current round.
func (c *Node) prevote(v string) {
	c.net.Broadcast(&Msg{Height: c.height, Round: c.round, Step: Prevote, From: c.id, Value: v})
	c.timer.Reset(c.timeout)
}

// precommit broadcasts this node's precommit of the current round.
func (c *Node) precommit(v string) {
	c.net.Broadcast(&Msg{Height: c.height, Round: c.round, Step: Precommit, From: c.id, Value: v})
	c.timer.Reset(c.timeout)
}

// handle processes a message of the current round and step.
func (c *Node) handle(m *Msg) {
	switch m.Step {
	case Propose:
		if m.From != c.proposer() {
			return
		}
		if c.lockedRound < 0 || c.lockedValue == m.Value {
			c.enterPrevote(m.Value)
		} else {
			c.enterPrevote("")
		}
	case Prevote:
		c.prevotes[m.From] = m.Value
		if v, ok := quorumValue(c.prevotes, c.quorum()); ok {
			c.lockedValue, c.lockedRound = v, c.round
			c.enterPrecommit(v)
		}
	case Precommit:
		c.precommits[m.From] = m.Value
		if v, ok := quorumValue(c.precommits, c.quorum()); ok {
			c.decided = append(c.decided, v)
			c.height++
			c.round = 0
			c.lockedValue, c.lockedRound = "", -1
			c.startRound()
		}
	}
}

// onTimeout moves on when a step waited too long.
func (c *Node) onTimeout() {
	switch c.step {
	case Propose:
		c.enterPrevote("")
	case Prevote:
		c.enterPrecommit("")
	case Precommit:
		c.round++
		c.startRound()
	}
}

// quorumValue returns a non-nil value with at least q votes.
func quorumValue(votes map[int]string, q int) (string, bool) {
	count := make(map[string]int)
	for _, v := range votes {
		if v == "" {
			continue
		}
		if count[v]++; count[v] >= q {
			return v, true
		}
	}
	return "", false
}

// String describes the node's position, for logs.
func (c *Node) String() string {
	return fmt.Sprintf("node %d at %d/%d/%d", c.id, c.height, c.round, c.step)
}
