package diembft

import "fmt"

// Envelope is a message to one node, or to all of them when To < 0.
type Envelope struct {
	To  int
	Msg Message
}

// Node is one DiemBFT v4 (Jolteon) replica: a pacemaker that enters round
// r+1 on a QC or a TC of round r, a 2-chain commit rule, and votes guarded
// by the highest voted round. A driver calls its handlers and drains Out.
//
//sync:tag round,step
type Node struct {
	id, n, f int

	round uint64
	step  Step

	highestVotedRound uint64
	highQC            QC
	lastTC            *TC // the TC that made this node enter round, if any

	blocks      map[BlockID]Block // the block tree
	committed   []Block           // the ledger
	isCommitted map[BlockID]bool
	commitTip   BlockID

	// Forked is set if the node was asked to commit a block that does not
	// extend its ledger: a safety violation.
	Forked bool

	// Mailboxes of the current round, emptied when a round starts.
	votes    map[BlockID]uint64 // voters, by block
	timeouts map[int]*TimeoutMsg

	Out []Envelope
}

// genesis is the block every chain starts from; its QC is implied.
var genesis = Block{ID: "genesis"}

// NewNode returns node id of n = 3f+1, in round 1.
func NewNode(id, n int) *Node {
	nd := &Node{
		id: id, n: n, f: (n - 1) / 3,
		round: 1, step: StepPropose,
		highQC:      QC{Round: 0, Block: genesis.ID},
		blocks:      map[BlockID]Block{genesis.ID: genesis},
		commitTip:   genesis.ID,
		isCommitted: map[BlockID]bool{genesis.ID: true},
		votes:       make(map[BlockID]uint64),
		timeouts:    make(map[int]*TimeoutMsg),
	}
	return nd
}

func (nd *Node) quorum() int               { return 2*nd.f + 1 }
func (nd *Node) leader(round uint64) int   { return int(round % uint64(nd.n)) }
func (nd *Node) validQC(qc QC) bool        { return qc.Round == 0 || count(qc.Signers) >= nd.quorum() }
func (nd *Node) validTC(tc *TC) bool       { return len(tc.HighQCRounds) >= nd.quorum() }
func (nd *Node) highQCRound(tc *TC) uint64 { return maxRound(tc.HighQCRounds) }

// send queues m for node to.
//
//sync:send
func (nd *Node) send(to int, m Message) { nd.Out = append(nd.Out, Envelope{To: to, Msg: m}) }

// broadcast queues m for every node, this one included.
//
//sync:send
func (nd *Node) broadcast(m Message) { nd.Out = append(nd.Out, Envelope{To: -1, Msg: m}) }

// advance enters round r (> the current one), justified by a QC or a TC of
// round r-1, and proposes if this node leads it.
func (nd *Node) advance(r uint64, tc *TC) {
	nd.round, nd.step = r, StepPropose
	nd.lastTC = tc
	clear(nd.votes)
	clear(nd.timeouts)
	if nd.leader(r) == nd.id {
		b := Block{Round: r, Author: nd.id, QC: nd.highQC, Payload: fmt.Sprintf("tx@%d", r)}
		b.ID = BlockID(fmt.Sprintf("B%d(%s)", r, nd.highQC.Block))
		nd.broadcast(&ProposalMsg{Block: b, LastRoundTC: tc})
	}
}

// Start lets the leader of round 1 propose.
//
//sync:handler
func (nd *Node) Start() {
	if nd.leader(nd.round) == nd.id {
		b := Block{Round: nd.round, Author: nd.id, QC: nd.highQC, Payload: "tx@1"}
		b.ID = BlockID(fmt.Sprintf("B%d(%s)", nd.round, nd.highQC.Block))
		nd.broadcast(&ProposalMsg{Block: b})
	}
}

// OnProposal votes for the block of the current round, or of a later round
// the proposal's certificate lets this node enter.
//
//sync:handler
func (nd *Node) OnProposal(p *ProposalMsg) {
	b := p.Block
	if b.Round < nd.round || b.Round == nd.round && nd.step > StepPropose {
		return // an older round, or this round's vote is cast or abandoned
	}
	if b.Author != nd.leader(b.Round) || !nd.validQC(b.QC) || p.LastRoundTC != nil && !nd.validTC(p.LastRoundTC) {
		return
	}
	if b.Round > nd.round {
		// Its certificate for the round before lets this node catch up.
		if b.QC.Round+1 != b.Round && (p.LastRoundTC == nil || p.LastRoundTC.Round+1 != b.Round) {
			return
		}
		nd.advance(b.Round, p.LastRoundTC)
	}
	nd.processQC(b.QC)
	nd.blocks[b.ID] = b

	// The voting rule of DiemBFT v4: extend the QC of the previous round,
	// or, after a timeout, a QC at least as high as any in the TC.
	safe := b.QC.Round+1 == b.Round ||
		p.LastRoundTC != nil && p.LastRoundTC.Round+1 == b.Round && b.QC.Round >= nd.highQCRound(p.LastRoundTC)
	if !safe || b.Round <= nd.highestVotedRound {
		return
	}
	nd.highestVotedRound = b.Round
	nd.step = StepVote
	nd.send(nd.leader(nd.round+1), &VoteMsg{VoteRound: nd.round, Block: b, Voter: nd.id})
}

// OnVote collects the votes of the current round at the next leader; a
// quorum is a QC, which makes it enter the next round and propose.
//
//sync:handler
func (nd *Node) OnVote(v *VoteMsg) {
	if v.VoteRound < nd.round || v.VoteRound == nd.round && nd.step > StepVote {
		return // an older round or step
	}
	if v.VoteRound > nd.round {
		nd.advance(v.VoteRound, nil) // others are in a later round: go there first
	}
	nd.step = StepVote
	nd.blocks[v.Block.ID] = v.Block
	nd.votes[v.Block.ID] |= 1 << uint(v.Voter)
	if count(nd.votes[v.Block.ID]) < nd.quorum() {
		return
	}
	qc := QC{Round: nd.round, Block: v.Block.ID, Signers: nd.votes[v.Block.ID]}
	nd.processQC(qc)
	nd.advance(qc.Round+1, nil)
}

// OnTimeout collects the timeouts of the current round; a quorum is a TC,
// which makes the node enter the next round.
//
//sync:handler
func (nd *Node) OnTimeout(t *TimeoutMsg) {
	if t.TimeoutRound < nd.round || !nd.validQC(t.HighQC) {
		return // an older round
	}
	if t.TimeoutRound > nd.round {
		nd.advance(t.TimeoutRound, nil) // others gave up on a later round: go there first
	}
	if nd.step < StepTimeout {
		nd.timeoutRound() // join: give up on this round too
	}
	nd.timeouts[t.From] = t
	nd.processQC(t.HighQC)
	if len(nd.timeouts) < nd.quorum() {
		return
	}
	tc := &TC{Round: nd.round, HighQCRounds: make(map[int]uint64)}
	for from, m := range nd.timeouts {
		tc.HighQCRounds[from] = m.HighQC.Round
	}
	nd.advance(tc.Round+1, tc)
}

// OnLocalTimeout is the pacemaker's timer: the round made no progress. A
// node that gave up on the round already sends its timeout again, in case
// it was lost.
//
//sync:handler
func (nd *Node) OnLocalTimeout() {
	if nd.step < StepTimeout {
		nd.timeoutRound()
		return
	}
	nd.broadcast(&TimeoutMsg{TimeoutRound: nd.round, HighQC: nd.highQC, From: nd.id})
}

// timeoutRound gives up on the current round: no more votes in it, and a
// timeout to everybody with the highest QC.
func (nd *Node) timeoutRound() {
	nd.step = StepTimeout
	nd.highestVotedRound = max(nd.highestVotedRound, nd.round)
	nd.broadcast(&TimeoutMsg{TimeoutRound: nd.round, HighQC: nd.highQC, From: nd.id})
}

// processQC records qc as the highest QC if it is, and commits by the
// 2-chain rule: a certified block whose parent is of the round just before
// commits the parent.
func (nd *Node) processQC(qc QC) {
	if qc.Round > nd.highQC.Round {
		nd.highQC = qc
	}
	b1, ok := nd.blocks[qc.Block]
	if !ok {
		return
	}
	b0, ok := nd.blocks[b1.QC.Block]
	if !ok || b0.ID == genesis.ID || b1.Round != b0.Round+1 {
		return
	}
	nd.commit(b0)
}

// commit appends b and its uncommitted ancestors to the ledger, oldest
// first. A block already committed is ignored; a chain that leaves the
// ledger elsewhere than at its tip is a fork, recorded in Forked.
func (nd *Node) commit(b Block) {
	var chain []Block
	cur := b
	for !nd.isCommitted[cur.ID] {
		chain = append(chain, cur)
		parent, ok := nd.blocks[cur.QC.Block]
		if !ok {
			return // an ancestor is missing: commit later
		}
		cur = parent
	}
	if len(chain) == 0 {
		return
	}
	if cur.ID != nd.commitTip {
		nd.Forked = true
		return
	}
	for i := len(chain) - 1; i >= 0; i-- {
		nd.committed = append(nd.committed, chain[i])
		nd.isCommitted[chain[i].ID] = true
	}
	nd.commitTip = b.ID
}

// Ledger returns the committed blocks, oldest first.
func (nd *Node) Ledger() []Block { return append([]Block(nil), nd.committed...) }

func maxRound(m map[int]uint64) uint64 {
	var r uint64
	for _, v := range m {
		r = max(r, v)
	}
	return r
}
