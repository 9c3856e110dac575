package hotstuffpm

import "fmt"

// Genesis is the block every chain starts from, certified in view 0.
var Genesis = &Block{ID: "genesis"}

// Replica is one replica of chained HotStuff with its pacemaker. The driver
// calls its handlers with the messages the transport delivers, Start once,
// and OnTimeout(v) when the timer it armed for view v expires.
//
//sync:tag view,phase
type Replica struct {
	id, n int
	net   Transport

	view  uint64
	phase Phase

	blocks     map[string]*Block
	highQC     QC     // the highest QC seen
	lockedView uint64 // view of the locked block
	lockedID   string
	lastVoted  uint64 // the last view this replica voted in
	committed  []*Block

	// The mailbox of the current (view, phase), emptied by enter.
	votes    map[int]*Block // leader of view+1: the votes for the block of view
	newViews map[int]QC     // leader of view: the NewViews that opened it
}

// NewReplica returns replica id of n, in view 1, waiting for its proposal.
func NewReplica(id, n int, net Transport) *Replica {
	r := &Replica{id: id, n: n, net: net, blocks: map[string]*Block{Genesis.ID: Genesis}}
	r.highQC = QC{BlockID: Genesis.ID}
	r.lockedID = Genesis.ID
	r.enter(1, PhasePropose)
	return r
}

func (r *Replica) leader(view uint64) int { return int(view % uint64(r.n)) }

func (r *Replica) quorum() int { return r.n - (r.n-1)/3 }

// enter moves the replica forward to (view, phase) with an empty mailbox.
func (r *Replica) enter(view uint64, phase Phase) {
	r.view, r.phase = view, phase
	r.votes = map[int]*Block{}
	r.newViews = map[int]QC{}
}

// stale reports whether a message of (view, phase) is of an earlier round.
func (r *Replica) stale(view uint64, phase Phase) bool {
	return view < r.view || view == r.view && phase < r.phase
}

// catchUp jumps to the round of a message that is not stale.
func (r *Replica) catchUp(view uint64, phase Phase) {
	if view > r.view || phase > r.phase {
		r.enter(view, phase)
	}
}

// Start makes the leader of the first view propose.
//
//sync:handler
func (r *Replica) Start() {
	if r.leader(r.view) == r.id && r.phase == PhasePropose {
		r.propose()
	}
}

// OnProposal handles the block of a leader.
//
//sync:handler
func (r *Replica) OnProposal(p Proposal) {
	if r.stale(p.View, PhasePropose) || p.From != r.leader(p.View) {
		return
	}
	r.catchUp(p.View, PhasePropose)
	r.accept(p.Block)
}

// accept stores b, updates the chain state and votes for b if it is safe.
func (r *Replica) accept(b *Block) {
	r.blocks[b.ID] = b
	r.update(b)
	if b.View <= r.lastVoted || !(r.extendsLocked(b) || b.QC.View > r.lockedView) {
		return
	}
	r.phase = PhaseVote
	r.lastVoted = r.view
	r.net.SendVote(r.leader(r.view+1), Vote{View: r.view, Block: b, From: r.id})
}

// update applies the 1-, 2- and 3-chain rules of chained HotStuff to the
// chain that ends at b.
func (r *Replica) update(b *Block) {
	if b.QC.View > r.highQC.View {
		r.highQC = b.QC
	}
	b1 := r.blocks[b.QC.BlockID]
	if b1 == nil {
		return
	}
	b2 := r.blocks[b1.QC.BlockID]
	if b2 == nil {
		return
	}
	if b2.View > r.lockedView {
		r.lockedView, r.lockedID = b2.View, b2.ID
	}
	b3 := r.blocks[b2.QC.BlockID]
	if b3 != nil && b1.Parent == b2.ID && b2.Parent == b3.ID {
		r.commit(b3)
	}
}

func (r *Replica) commit(b *Block) {
	var chain []*Block
	for ; b != Genesis; b = r.blocks[b.Parent] {
		if b == nil {
			return // an ancestor is missing: commit when it is known
		}
		if r.isCommitted(b) {
			break
		}
		chain = append(chain, b)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		r.committed = append(r.committed, chain[i])
	}
}

func (r *Replica) isCommitted(b *Block) bool {
	return len(r.committed) > 0 && r.committed[len(r.committed)-1].View >= b.View
}

func (r *Replica) extendsLocked(b *Block) bool {
	for ; b != nil; b = r.blocks[b.Parent] {
		if b.ID == r.lockedID {
			return true
		}
	}
	return false
}

// OnVote aggregates the votes for the block of a view this replica leads
// the next of.
//
//sync:handler
func (r *Replica) OnVote(v Vote) {
	if r.stale(v.View, PhaseVote) || r.leader(v.View+1) != r.id {
		return
	}
	r.catchUp(v.View, PhaseVote)
	r.votes[v.From] = v.Block
	n := 0
	for _, b := range r.votes {
		if b.ID == v.Block.ID {
			n++
		}
	}
	if n < r.quorum() {
		return
	}
	r.blocks[v.Block.ID] = v.Block
	if r.view > r.highQC.View {
		r.highQC = QC{View: r.view, BlockID: v.Block.ID}
	}
	r.enter(r.view+1, PhasePropose)
	r.propose()
}

// OnNewView collects the NewView messages of a view this replica leads and
// opens the view with the highest QC of a quorum of them.
//
//sync:handler
func (r *Replica) OnNewView(m NewView) {
	if r.stale(m.View, PhasePropose) || r.leader(m.View) != r.id {
		return
	}
	r.catchUp(m.View, PhasePropose)
	r.newViews[m.From] = m.HighQC
	if len(r.newViews) != r.quorum() {
		return // not yet, or already proposed
	}
	for _, qc := range r.newViews {
		if qc.View > r.highQC.View && r.blocks[qc.BlockID] != nil {
			r.highQC = qc
		}
	}
	r.propose()
}

// OnTimeout is the pacemaker's timer of view: the replica gives up on it,
// moves to the next view and tells its leader the highest QC it knows.
//
//sync:handler
func (r *Replica) OnTimeout(view uint64) {
	if view != r.view {
		return // the timer of a view already left
	}
	r.enter(view+1, PhasePropose)
	r.net.SendNewView(r.leader(r.view), NewView{View: r.view, HighQC: r.highQC, From: r.id})
}

// propose broadcasts a block extending the highest QC and votes for it.
func (r *Replica) propose() {
	b := &Block{
		ID:     fmt.Sprintf("b%d.%d", r.view, r.id),
		View:   r.view,
		Parent: r.highQC.BlockID,
		QC:     r.highQC,
		Cmd:    fmt.Sprintf("cmd@%d", r.view),
	}
	r.net.BroadcastProposal(Proposal{View: r.view, Block: b, From: r.id})
	r.accept(b)
}

// View returns the current view.
func (r *Replica) View() uint64 { return r.view }

// Committed returns the ids of the committed blocks, in chain order.
func (r *Replica) Committed() []string {
	ids := make([]string, len(r.committed))
	for i, b := range r.committed {
		ids[i] = b.ID
	}
	return ids
}
