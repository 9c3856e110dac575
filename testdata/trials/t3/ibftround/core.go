package ibftround

import "fmt"

// Core is one IBFT validator, deciding one block per height.
//
//sync:tag height,round,state
type Core struct {
	id, n int
	out   Outbox[*IbftMessage]

	height uint64
	round  uint64
	state  State

	proposal      string // the block accepted in (height, round)
	preparedRound uint64 // the last round of this height in which a block was prepared, with preparedValue
	preparedValue string

	votes        map[int]bool         // the mailbox of (height, round, state): prepares or commits
	roundChanges map[int]*IbftMessage // the mailbox of (height, round, StateRoundChange)

	chain []string // finalized blocks; chain[h-1] is the block of height h
}

// NewCore returns validator id of n at height 1, round 0.
func NewCore(id, n int) *Core {
	c := &Core{id: id, n: n, height: 1}
	c.resetRound()
	c.state = StatePrePrepare
	return c
}

func (c *Core) quorum() int { return 2*(c.n-1)/3 + 1 }

func (c *Core) proposer(height, round uint64) int { return int((height + round) % uint64(c.n)) }

func (c *Core) msg(t MessageType) *IbftMessage {
	return &IbftMessage{Height: ptr(c.height), Round: ptr(c.round), Type: t, From: c.id}
}

// newBlock returns the block this validator proposes in the current round.
func (c *Core) newBlock() string { return fmt.Sprintf("h%d.r%d.v%d", c.height, c.round, c.id) }

// resetRound empties the mailboxes and the round's proposal.
func (c *Core) resetRound() {
	c.proposal = ""
	c.votes = map[int]bool{}
	c.roundChanges = map[int]*IbftMessage{}
}

// enterRound moves to round of the current height, collecting its
// ROUND-CHANGEs.
func (c *Core) enterRound(round uint64) {
	c.round, c.state = round, StateRoundChange
	c.resetRound()
}

// Start makes the proposer of height 1, round 0 propose.
//
//sync:handler
func (c *Core) Start() {
	if c.height == 1 && c.round == 0 && c.state == StatePrePrepare && c.proposer(c.height, c.round) == c.id {
		c.propose(c.newBlock())
	}
}

// propose sends the proposal of the round and prepares it.
func (c *Core) propose(block string) {
	c.state = StatePrePrepare
	pp := c.msg(MsgPreprepare)
	pp.Proposal = block
	c.out.Push(pp)
	c.accept(block)
}

// accept takes block as the proposal of the round and sends a PREPARE.
func (c *Core) accept(block string) {
	c.proposal = block
	c.state = StatePrepare
	c.votes = map[int]bool{c.id: true}
	p := c.msg(MsgPrepare)
	p.Proposal = block
	c.out.Push(p)
}

// HandleMessage handles a message from another validator, or a local
// round timeout (a message with no height).
//
//sync:handler
func (c *Core) HandleMessage(m *IbftMessage) {
	if m.GetHeight() == 0 {
		if m.Type == MsgRoundTimeout {
			c.onTimeout()
		}
		return
	}
	if m.GetHeight() != c.height {
		return // another height: finalized already, or not reached (block sync is out of scope)
	}
	switch m.Type {
	case MsgPreprepare:
		c.onPreprepare(m)
	case MsgPrepare:
		c.onPrepare(m)
	case MsgCommit:
		c.onCommit(m)
	case MsgRoundChange:
		c.onRoundChange(m)
	}
}

// onTimeout moves to the next round and asks for a round change, carrying
// the latest prepared certificate.
func (c *Core) onTimeout() {
	c.enterRound(c.round + 1)
	rc := c.msg(MsgRoundChange)
	if c.preparedValue != "" {
		rc.PreparedRound, rc.PreparedValue = ptr(c.preparedRound), c.preparedValue
	}
	c.out.Push(rc)
	c.roundChanges[c.id] = rc
}

func (c *Core) onPreprepare(m *IbftMessage) {
	if m.From != c.proposer(c.height, m.GetRound()) {
		return
	}
	if m.GetRound() < c.round || m.GetRound() == c.round && c.state >= StatePrepare {
		return // an old round's proposal, or we have one for this round
	}
	if m.GetRound() > c.round {
		c.enterRound(m.GetRound()) // the proposer of a later round: join it
	}
	c.state = StatePrePrepare
	c.accept(m.Proposal)
}

func (c *Core) onPrepare(m *IbftMessage) {
	if m.GetRound() != c.round || c.state != StatePrepare || m.Proposal != c.proposal {
		return
	}
	c.votes[m.From] = true
	if len(c.votes) < c.quorum() {
		return
	}
	c.preparedRound, c.preparedValue = c.round, c.proposal
	c.state = StateCommit
	c.votes = map[int]bool{c.id: true}
	cm := c.msg(MsgCommit)
	cm.Proposal = c.proposal
	c.out.Push(cm)
}

func (c *Core) onCommit(m *IbftMessage) {
	if m.GetRound() != c.round || c.state != StateCommit || m.Proposal != c.proposal {
		return
	}
	c.votes[m.From] = true
	if len(c.votes) < c.quorum() {
		return
	}
	c.chain = append(c.chain, c.proposal)
	c.height++
	c.round, c.state = 0, StatePrePrepare
	c.preparedRound, c.preparedValue = 0, ""
	c.resetRound()
	if c.proposer(c.height, c.round) == c.id {
		c.propose(c.newBlock())
	}
}

func (c *Core) onRoundChange(m *IbftMessage) {
	if m.GetRound() != c.round || c.state != StateRoundChange || c.proposer(c.height, c.round) != c.id {
		return
	}
	c.roundChanges[m.From] = m
	if len(c.roundChanges) < c.quorum() {
		return
	}
	// Propose the block prepared in the latest round of the quorum, which
	// any block finalized in an earlier round is; our own if none was.
	block, best := "", uint64(0)
	for _, rc := range c.roundChanges {
		if rc.PreparedValue != "" && (block == "" || rc.GetPreparedRound() > best) {
			block, best = rc.PreparedValue, rc.GetPreparedRound()
		}
	}
	if block == "" {
		block = c.newBlock()
	}
	c.propose(block)
}

// Outbox returns the messages sent since the last call.
func (c *Core) Outbox() []*IbftMessage { return c.out.Drain() }

// Chain returns a copy of the finalized blocks.
func (c *Core) Chain() []string { return append([]string(nil), c.chain...) }

// Height returns the height being decided.
func (c *Core) Height() uint64 { return c.height }
