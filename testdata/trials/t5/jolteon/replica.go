package jolteon

import (
	"fmt"
	"slices"
)

// Genesis is the block every chain starts from, certified by GenesisQC.
var (
	Genesis   = &Block{Payload: "genesis"}
	GenesisQC = &QC{BlockID: Genesis.ID()}
)

// Replica is one Jolteon replica.
//
//sync:tag round,step
type Replica struct {
	id, n, f int
	net      Network

	round uint64
	step  Step

	lastVoted uint64 // the highest round voted in or timed out of
	highQC    *QC
	lastTC    *TC // the TC that moved us into this round, if any

	votes    map[string]map[int]bool // this round's votes, by block (as next leader)
	timeouts map[int]*Timeout        // this round's timeouts

	blocks    map[string]*Block
	committed []*Block
}

// NewReplica returns replica id of n = 3f+1, in round 1.
func NewReplica(id, n int, net Network) (*Replica, error) {
	if n < 4 || (n-1)%3 != 0 {
		return nil, fmt.Errorf("jolteon: n=%d is not 3f+1 with f >= 1", n)
	}
	return &Replica{id: id, n: n, f: (n - 1) / 3, net: net, round: 1, highQC: GenesisQC,
		votes: make(map[string]map[int]bool), timeouts: make(map[int]*Timeout),
		blocks: map[string]*Block{Genesis.ID(): Genesis}, committed: []*Block{Genesis}}, nil
}

func (r *Replica) leaderOf(round uint64) int { return int(round % uint64(r.n)) }

func (r *Replica) quorum() int { return 2*r.f + 1 }

// broadcast stamps m with the replica's round and id and sends it to all.
//
//sync:send stamps
func (r *Replica) broadcast(m Msg) {
	m.stamp(r.round, r.id)
	r.net.Broadcast(m)
}

// sendTo stamps m with the replica's round and id and sends it to one
// replica.
//
//sync:send stamps
func (r *Replica) sendTo(to int, m Msg) {
	m.stamp(r.round, r.id)
	r.net.SendTo(to, m)
}

// Start makes the leader of round 1 propose.
//
//sync:handler
func (r *Replica) Start() {
	if r.round == 1 && r.step == StepPropose {
		r.propose()
	}
}

// enter moves the replica to the start of a later round.
func (r *Replica) enter(round uint64) {
	r.round = round
	r.step = StepPropose
	r.lastTC = nil
	clear(r.votes)
	clear(r.timeouts)
}

// propose sends this round's block if the replica leads it.
func (r *Replica) propose() {
	if r.leaderOf(r.round) != r.id {
		return
	}
	parent := r.highQC
	b := &Block{Round: r.round, Parent: parent.BlockID, QC: parent, TC: r.lastTC,
		Payload: fmt.Sprintf("r%d", r.round)}
	r.blocks[b.ID()] = b
	r.broadcast(&Proposal{Block: b})
}

// OnProposal votes for the block of the round if the safety rules allow it.
//
//sync:handler
func (r *Replica) OnProposal(p *Proposal) {
	if p.GetRound() < r.round || p.GetRound() == r.round && r.step != StepPropose {
		return // an old round, or one we voted in or gave up on
	}
	b := p.Block
	if b == nil || b.Round != p.Round || p.From != r.leaderOf(p.Round) || !r.validQC(b.QC) ||
		b.Parent != b.QC.BlockID {
		return
	}
	extends := b.QC.Round+1 == b.Round ||
		b.TC != nil && b.TC.Round+1 == b.Round && b.QC.Round >= b.TC.HighQCRound
	if !extends {
		return
	}
	if p.Round > r.round {
		r.enter(p.Round) // the certificate in the block moves us forward
	}
	r.blocks[b.ID()] = b
	r.processQC(b.QC)
	r.step = StepVote
	if b.Round > r.lastVoted {
		r.lastVoted = b.Round
		r.sendTo(r.leaderOf(b.Round+1), &Vote{BlockID: b.ID()})
	}
}

// OnVote collects the votes of a round at the leader of the next round;
// with 2f+1 votes for a block it forms a QC, enters the next round and
// proposes.
//
//sync:handler
func (r *Replica) OnVote(v *Vote) {
	if v.GetRound() < r.round || v.GetRound() == r.round && r.step > StepVote {
		return
	}
	if r.leaderOf(v.Round+1) != r.id {
		return // not ours to collect
	}
	if v.Round > r.round {
		r.enter(v.Round)
	}
	r.step = StepVote
	if r.votes[v.BlockID] == nil {
		r.votes[v.BlockID] = make(map[int]bool)
	}
	r.votes[v.BlockID][v.From] = true
	if len(r.votes[v.BlockID]) < r.quorum() {
		return
	}
	qc := &QC{Round: v.Round, BlockID: v.BlockID, Signers: signers(r.votes[v.BlockID])}
	r.processQC(qc)
	r.enter(qc.Round + 1)
	r.propose()
}

// OnLocalTimeout is called by the pacemaker when the timer armed for round
// fires: the replica gives up on the round.
//
//sync:handler
func (r *Replica) OnLocalTimeout(round uint64) {
	if round != r.round || r.step == StepTimeout {
		return // a timer of a round we left
	}
	r.giveUp()
}

// giveUp stops voting in the round and broadcasts a timeout.
func (r *Replica) giveUp() {
	r.step = StepTimeout
	clear(r.votes) // no QC of this round from us any more
	r.lastVoted = max(r.lastVoted, r.round)
	r.broadcast(&Timeout{HighQC: r.highQC})
}

// OnTimeout collects the timeouts of the round; a timeout of a later round
// makes the replica join it. With 2f+1 timeouts the replica forms a TC and
// enters the next round.
//
//sync:handler
func (r *Replica) OnTimeout(t *Timeout) {
	if t.GetRound() < r.round || !r.validQC(t.HighQC) {
		return
	}
	if t.Round > r.round {
		r.enter(t.Round)
	}
	if r.step != StepTimeout {
		r.giveUp() // others gave up on the round: join them
	}
	r.timeouts[t.From] = t
	r.processQC(t.HighQC)
	if len(r.timeouts) < r.quorum() {
		return
	}
	tc := &TC{Round: r.round}
	set := make(map[int]bool)
	for q, to := range r.timeouts {
		set[q] = true
		tc.HighQCRound = max(tc.HighQCRound, to.HighQC.Round)
	}
	tc.Signers = signers(set)
	r.enter(tc.Round + 1)
	r.lastTC = tc
	r.propose()
}

// validQC checks a QC's shape: 2f+1 distinct signers (genesis needs none).
func (r *Replica) validQC(qc *QC) bool {
	if qc == nil {
		return false
	}
	if qc.Round == 0 {
		return qc.BlockID == Genesis.ID()
	}
	return len(qc.Signers) >= r.quorum() && len(slices.Compact(slices.Clone(qc.Signers))) == len(qc.Signers)
}

// processQC keeps the highest QC and applies the two-chain commit rule: if
// qc certifies a block whose parent is of the previous round, the parent is
// committed.
func (r *Replica) processQC(qc *QC) {
	if qc.Round > r.highQC.Round {
		r.highQC = qc
	}
	b, ok := r.blocks[qc.BlockID]
	if !ok || b.QC == nil {
		return
	}
	parent, ok := r.blocks[b.QC.BlockID]
	if !ok || parent.Round+1 != b.Round || parent.Round <= r.committed[len(r.committed)-1].Round {
		return
	}
	var chain []*Block
	for cur := parent; cur.Round > r.committed[len(r.committed)-1].Round; {
		chain = append(chain, cur)
		next, ok := r.blocks[cur.Parent]
		if !ok {
			return // a missing ancestor: commit later
		}
		cur = next
	}
	slices.Reverse(chain)
	r.committed = append(r.committed, chain...)
}

// Committed returns the rounds of the committed blocks, genesis first.
func (r *Replica) Committed() []uint64 {
	var out []uint64
	for _, b := range r.committed {
		out = append(out, b.Round)
	}
	return out
}

// Round returns the replica's current round.
func (r *Replica) Round() uint64 { return r.round }
