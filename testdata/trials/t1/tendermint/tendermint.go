package tendermint

import "time"

// Step is the step of a round.
type Step int

// The steps of a round, in order.
const (
	Propose Step = iota
	Prevote
	Precommit
)

// Proposal is the proposer's value for a round. ValidRound is the round in
// which the value got 2f+1 prevotes, or -1.
//
//sync:msg Height,Round,Propose
type Proposal struct {
	Height, Round int
	Value         string
	ValidRound    int
	From          int
}

// Vote is a prevote or a precommit; the empty Value is the nil vote.
//
//sync:msg Height,Round,Type
type Vote struct {
	Height, Round int
	Type          Step
	Value         string
	From          int
}

// Config configures a node.
type Config struct {
	ID, N    int
	Timeouts [3]time.Duration        // per step: Propose, Prevote, Precommit
	Value    func(height int) string // the value this node proposes at a height
}

// Node is one Tendermint validator.
type Node struct {
	cfg   Config
	f     int
	in    <-chan any   // Proposal and Vote values
	peers []chan<- any // every node's inbox, this one's included
	timer *time.Timer

	height, round int // synchronization variables, with step
	step          Step

	lockedValue string
	lockedRound int
	validValue  string
	validRound  int

	// The messages of the current round; emptied when the round changes.
	proposal   *Proposal
	prevotes   map[int]string
	precommits map[int]string

	decisions []string // decisions[h-1] is the value decided at height h
}

// NewNode returns a node reading in and sending to peers.
func NewNode(cfg Config, in <-chan any, peers []chan<- any) *Node {
	return &Node{cfg: cfg, f: (cfg.N - 1) / 3, in: in, peers: peers}
}

// Decisions returns the values decided, by height.
func (t *Node) Decisions() []string { return t.decisions }

func (t *Node) proposer(height, round int) int { return (height + round) % t.cfg.N }

func (t *Node) quorum() int { return 2*t.f + 1 }

// Run decides heights 1..heights.
func (t *Node) Run(heights int) {
	t.timer = time.NewTimer(time.Hour)
	defer t.timer.Stop()
	t.height = 1
	t.newHeight()

	//sync:tag t.height,t.round,t.step
	for t.height <= heights {
		select {
		case <-t.timer.C:
			t.onTimeout()
		case raw := <-t.in:
			switch m := raw.(type) {
			case Proposal:
				t.onProposal(m)
			case Vote:
				t.onVote(m)
			}
		}
	}
}

// newHeight starts round 0 of the current height.
func (t *Node) newHeight() {
	t.lockedValue, t.lockedRound = "", -1
	t.validValue, t.validRound = "", -1
	t.startRound(0)
}

// startRound enters round r in step Propose; the proposer proposes.
func (t *Node) startRound(r int) {
	t.round, t.step = r, Propose
	t.proposal, t.prevotes, t.precommits = nil, make(map[int]string), make(map[int]string)
	t.timer.Reset(t.cfg.Timeouts[Propose])
	if t.proposer(t.height, r) == t.cfg.ID {
		v := t.validValue
		if v == "" {
			v = t.cfg.Value(t.height)
		}
		t.broadcast(Proposal{Height: t.height, Round: r, Value: v, ValidRound: t.validRound, From: t.cfg.ID})
	}
}

// advance moves to a later round or step of the height, as messages from
// there arrived; the node casts the nil vote of the step it lands in.
func (t *Node) advance(round int, step Step) {
	if round > t.round {
		t.startRound(round)
	}
	if step > t.step {
		t.step = step
		t.timer.Reset(t.cfg.Timeouts[step])
		t.broadcast(Vote{Height: t.height, Round: t.round, Type: step, From: t.cfg.ID})
	}
}

func (t *Node) onTimeout() {
	switch t.step {
	case Propose:
		t.step = Prevote
		t.broadcast(Vote{Height: t.height, Round: t.round, Type: Prevote, From: t.cfg.ID})
		t.timer.Reset(t.cfg.Timeouts[Prevote])
	case Prevote:
		t.step = Precommit
		t.broadcast(Vote{Height: t.height, Round: t.round, Type: Precommit, From: t.cfg.ID})
		t.timer.Reset(t.cfg.Timeouts[Precommit])
	case Precommit:
		t.startRound(t.round + 1)
	}
}

func (t *Node) onProposal(m Proposal) {
	if m.Height != t.height || m.From != t.proposer(m.Height, m.Round) || earlier(m.Round, Propose, t.round, t.step) {
		return
	}
	if m.Round > t.round {
		t.advance(m.Round, Propose) // round skip
	}
	t.proposal = &m

	vote := "" // prevote nil unless the value is acceptable (lines 22-33)
	if t.lockedRound == -1 || t.lockedValue == m.Value || m.ValidRound >= t.lockedRound {
		vote = m.Value
	}
	t.step = Prevote
	t.broadcast(Vote{Height: t.height, Round: t.round, Type: Prevote, Value: vote, From: t.cfg.ID})
	t.timer.Reset(t.cfg.Timeouts[Prevote])
	t.onPrevotes() // prevotes may be there already
}

func (t *Node) onVote(m Vote) {
	if m.Height != t.height || m.Type == Propose || earlier(m.Round, m.Type, t.round, t.step) {
		return
	}
	if earlier(t.round, t.step, m.Round, m.Type) {
		t.advance(m.Round, m.Type) // round skip, or the others are a step ahead
	}
	switch m.Type {
	case Prevote:
		t.prevotes[m.From] = m.Value
		t.onPrevotes()
	case Precommit:
		t.precommits[m.From] = m.Value
		t.onPrecommits()
	}
}

// onPrevotes acts on 2f+1 prevotes of the round (lines 34-47).
func (t *Node) onPrevotes() {
	if t.step != Prevote {
		return
	}
	v, n := plurality(t.prevotes)
	switch {
	case n >= t.quorum() && v != "" && t.proposal != nil && t.proposal.Value == v:
		t.lockedValue, t.lockedRound = v, t.round
		t.validValue, t.validRound = v, t.round
	case n >= t.quorum() && v == "":
	default:
		return // wait for more prevotes, or for the time-out
	}
	t.step = Precommit
	t.broadcast(Vote{Height: t.height, Round: t.round, Type: Precommit, Value: v, From: t.cfg.ID})
	t.timer.Reset(t.cfg.Timeouts[Precommit])
}

// onPrecommits decides on 2f+1 precommits for a value (line 49).
func (t *Node) onPrecommits() {
	v, n := plurality(t.precommits)
	if n < t.quorum() || v == "" {
		return
	}
	t.decisions = append(t.decisions, v)
	t.height++
	t.newHeight()
}

func (t *Node) broadcast(m any) {
	for _, ch := range t.peers {
		ch <- m
	}
}

// earlier reports whether (r1, s1) comes before (r2, s2).
func earlier(r1 int, s1 Step, r2 int, s2 Step) bool {
	return r1 < r2 || r1 == r2 && s1 < s2
}

// plurality returns the value with the most votes and its count.
func plurality(votes map[int]string) (string, int) {
	count := make(map[string]int)
	best, most := "", 0
	for _, v := range votes {
		count[v]++
		if c := count[v]; c > most || c == most && v < best {
			best, most = v, c
		}
	}
	return best, most
}
