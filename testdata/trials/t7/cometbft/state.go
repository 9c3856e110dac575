package cometbft

import (
	"fmt"
	"time"
)

// RoundState is the position of a validator and what it learnt in the
// current round.
type RoundState struct {
	Height int64
	Round  int32
	Step   RoundStepType

	// The mailboxes of the round: emptied when a round starts.
	Proposal   *Proposal
	Prevotes   map[int32]*Vote // by validator
	Precommits map[int32]*Vote

	LockedRound int32
	LockedBlock string
	ValidRound  int32
	ValidBlock  string
	ValidPOL    []Vote // the prevotes that made ValidBlock valid

	TriggeredTimeoutPrevote   bool
	TriggeredTimeoutPrecommit bool
}

// Config holds the parameters of a validator.
type Config struct {
	Index            int32
	Validators       int
	TimeoutPropose   time.Duration
	TimeoutPrevote   time.Duration
	TimeoutPrecommit time.Duration
	// Delta is added to every time-out per round, so that rounds get
	// longer until the network is fast enough.
	Delta time.Duration
}

// State is one validator's consensus state machine. The driver hands it
// messages (handleMsg) and fired time-outs (handleTimeout), drains the
// messages it broadcasts from out (delivering them to every validator, this
// one included) and the time-outs it schedules from timeouts.
//
//sync:tag Height,Round,Step
type State struct {
	RoundState
	cfg Config

	out       []Message
	timeouts  []timeoutInfo
	decisions map[int64]string
}

// NewState returns validator cfg.Index at height 1, before round 0.
func NewState(cfg Config) *State {
	cs := &State{cfg: cfg, decisions: make(map[int64]string)}
	cs.Height, cs.Round, cs.Step = 1, 0, RoundStepNewHeight
	cs.LockedRound, cs.ValidRound = -1, -1
	return cs
}

func (cs *State) quorum() int { return cs.cfg.Validators*2/3 + 1 }

func (cs *State) isProposer(height int64, round int32) bool {
	return int32((height+int64(round))%int64(cs.cfg.Validators)) == cs.cfg.Index
}

// broadcast queues msg for every validator.
//
//sync:send
func (cs *State) broadcast(msg Message) {
	cs.out = append(cs.out, msg)
}

func (cs *State) scheduleTimeout(d time.Duration, height int64, round int32, step RoundStepType) {
	d += time.Duration(round) * cs.cfg.Delta
	cs.timeouts = append(cs.timeouts, timeoutInfo{Duration: d, Height: height, Round: round, Step: step})
}

func (cs *State) signVote(t SignedMsgType, blockID string) *Vote {
	return &Vote{Type: t, Height: cs.Height, Round: cs.Round, BlockID: blockID, ValidatorIndex: cs.cfg.Index}
}

// Start enters round 0 of the first height.
//
//sync:handler
func (cs *State) Start() {
	cs.enterNewRound(cs.Height, 0)
}

// handleMsg processes one message from a peer or from this validator.
//
//sync:handler
func (cs *State) handleMsg(mi msgInfo) {
	if err := mi.Msg.ValidateBasic(); err != nil {
		return
	}
	switch msg := mi.Msg.(type) {
	case *ProposalMessage:
		cs.setProposal(msg.Proposal)
	case *VoteMessage:
		cs.tryAddVote(msg.Vote)
	}
}

// handleTimeout processes a fired time-out; one of an earlier step is
// stale.
//
//sync:handler
func (cs *State) handleTimeout(ti timeoutInfo) {
	if ti.Height != cs.Height || ti.Round < cs.Round || (ti.Round == cs.Round && ti.Step < cs.Step) {
		return
	}
	switch ti.Step {
	case RoundStepPropose:
		cs.enterPrevote(ti.Height, ti.Round)
	case RoundStepPrevote:
		cs.enterPrecommit(ti.Height, ti.Round)
	case RoundStepPrecommit:
		cs.enterNewRound(ti.Height, ti.Round+1)
	}
}

func (cs *State) setProposal(p *Proposal) {
	if p.Height != cs.Height || p.Round < cs.Round || p.Round == cs.Round && (cs.Step > RoundStepPropose || cs.Proposal != nil) {
		return // another height, an earlier round, or too late in this one
	}
	if p.POLRound >= p.Round || p.POLRound >= 0 && !cs.validPOL(p) {
		return // the proof of lock does not hold
	}
	if p.Round > cs.Round {
		cs.enterNewRound(cs.Height, p.Round) // the proposal of a later round: catch up
	}
	cs.Proposal = p
	cs.enterPrevote(cs.Height, cs.Round)
}

// validPOL reports whether p carries +2/3 prevotes of its POLRound for its
// block.
func (cs *State) validPOL(p *Proposal) bool {
	seen := make(map[int32]bool)
	for _, v := range p.POL {
		if v.Type == PrevoteType && v.Height == p.Height && v.Round == p.POLRound && v.BlockID == p.Block {
			seen[v.ValidatorIndex] = true
		}
	}
	return len(seen) >= cs.quorum()
}

func stepOf(t SignedMsgType) RoundStepType {
	if t == PrevoteType {
		return RoundStepPrevote
	}
	return RoundStepPrecommit
}

func (cs *State) tryAddVote(vote *Vote) {
	if vote.Height != cs.Height {
		return // another height: block sync is out of scope
	}
	if vote.Round < cs.Round || vote.Round == cs.Round && stepOf(vote.Type) < cs.Step {
		return // an earlier round or step
	}
	// A vote of a later round or step: catch up with it before counting.
	if vote.Round > cs.Round {
		cs.enterNewRound(cs.Height, vote.Round)
	}
	switch vote.Type {
	case PrevoteType:
		cs.enterPrevote(cs.Height, vote.Round)
		cs.Prevotes[vote.ValidatorIndex] = vote
		cs.onPrevote()
	case PrecommitType:
		cs.enterPrecommit(cs.Height, vote.Round)
		cs.Precommits[vote.ValidatorIndex] = vote
		cs.onPrecommit()
	}
}

func (cs *State) onPrevote() {
	if id, ok := majority(cs.Prevotes, cs.quorum()); ok && (id == NilBlock || cs.Proposal != nil && cs.Proposal.Block == id) {
		cs.enterPrecommit(cs.Height, cs.Round)
		return
	}
	if !cs.TriggeredTimeoutPrevote && len(cs.Prevotes) >= cs.quorum() {
		cs.TriggeredTimeoutPrevote = true
		cs.scheduleTimeout(cs.cfg.TimeoutPrevote, cs.Height, cs.Round, RoundStepPrevote)
	}
}

func (cs *State) onPrecommit() {
	if id, ok := majority(cs.Precommits, cs.quorum()); ok && id != NilBlock {
		cs.enterCommit(cs.Height, cs.Round, id)
		return
	}
	if !cs.TriggeredTimeoutPrecommit && len(cs.Precommits) >= cs.quorum() {
		cs.TriggeredTimeoutPrecommit = true
		cs.scheduleTimeout(cs.cfg.TimeoutPrecommit, cs.Height, cs.Round, RoundStepPrecommit)
	}
}

func (cs *State) enterNewRound(height int64, round int32) {
	if cs.Height != height || round < cs.Round || (cs.Round == round && cs.Step != RoundStepNewHeight) {
		return
	}
	cs.Round, cs.Step = round, RoundStepNewRound
	cs.Proposal = nil
	cs.Prevotes = make(map[int32]*Vote)
	cs.Precommits = make(map[int32]*Vote)
	cs.TriggeredTimeoutPrevote, cs.TriggeredTimeoutPrecommit = false, false
	cs.enterPropose(height, round)
}

func (cs *State) enterPropose(height int64, round int32) {
	if cs.Height != height || round < cs.Round || (cs.Round == round && RoundStepPropose <= cs.Step) {
		return
	}
	cs.Round, cs.Step = round, RoundStepPropose
	cs.scheduleTimeout(cs.cfg.TimeoutPropose, height, round, RoundStepPropose)
	if cs.isProposer(height, round) {
		cs.decideProposal(height, round)
	}
}

// decideProposal proposes the valid block, with its proof of lock, or a
// new one.
func (cs *State) decideProposal(height int64, round int32) {
	p := &Proposal{Height: height, Round: round, POLRound: -1}
	if cs.ValidBlock != NilBlock {
		p.Block, p.POLRound, p.POL = cs.ValidBlock, cs.ValidRound, cs.ValidPOL
	} else {
		p.Block = fmt.Sprintf("block(h=%d,r=%d,v=%d)", height, round, cs.cfg.Index)
	}
	cs.Proposal = p // the copy this validator receives will be ignored
	cs.broadcast(&ProposalMessage{Proposal: p})
}

func (cs *State) enterPrevote(height int64, round int32) {
	if cs.Height != height || round < cs.Round || (cs.Round == round && RoundStepPrevote <= cs.Step) {
		return
	}
	cs.Round, cs.Step = round, RoundStepPrevote
	id := NilBlock
	if p := cs.Proposal; p != nil {
		switch {
		case cs.LockedRound == -1 || cs.LockedBlock == p.Block:
			id = p.Block
		case p.POLRound >= 0 && cs.LockedRound <= p.POLRound:
			id = p.Block // a newer proof of lock than ours
		}
	}
	cs.broadcast(&VoteMessage{Vote: cs.signVote(PrevoteType, id)})
}

func (cs *State) enterPrecommit(height int64, round int32) {
	if cs.Height != height || round < cs.Round || (cs.Round == round && RoundStepPrecommit <= cs.Step) {
		return
	}
	cs.Round, cs.Step = round, RoundStepPrecommit
	id, ok := majority(cs.Prevotes, cs.quorum())
	if !ok || cs.Proposal == nil || cs.Proposal.Block != id {
		id = NilBlock // no polka for the proposal: precommit nil, keep the lock
	} else {
		cs.LockedRound, cs.LockedBlock = round, id
		cs.ValidRound, cs.ValidBlock, cs.ValidPOL = round, id, polOf(cs.Prevotes, id)
	}
	cs.broadcast(&VoteMessage{Vote: cs.signVote(PrecommitType, id)})
}

// enterCommit decides blockID at this height and starts the next one.
func (cs *State) enterCommit(height int64, round int32, blockID string) {
	if cs.Height != height || round < cs.Round || (cs.Round == round && RoundStepCommit <= cs.Step) {
		return
	}
	cs.Round, cs.Step = round, RoundStepCommit
	cs.decisions[height] = blockID
	cs.updateToState(height + 1)
	cs.enterNewRound(cs.Height, 0)
}

// updateToState resets the round state for a new height, before its round 0.
func (cs *State) updateToState(height int64) {
	cs.Height, cs.Round, cs.Step = height, 0, RoundStepNewHeight
	cs.LockedRound, cs.LockedBlock = -1, NilBlock
	cs.ValidRound, cs.ValidBlock, cs.ValidPOL = -1, NilBlock, nil
}

// majority returns the block id that at least quorum votes are for.
func majority(votes map[int32]*Vote, quorum int) (string, bool) {
	count := make(map[string]int)
	for _, v := range votes {
		count[v.BlockID]++
		if count[v.BlockID] >= quorum {
			return v.BlockID, true
		}
	}
	return NilBlock, false
}

// polOf copies the prevotes for id: the proof of lock of a later proposal.
func polOf(votes map[int32]*Vote, id string) []Vote {
	var pol []Vote
	for _, v := range votes {
		if v.BlockID == id {
			pol = append(pol, *v)
		}
	}
	return pol
}
