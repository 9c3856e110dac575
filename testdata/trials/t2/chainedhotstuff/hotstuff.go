package chainedhotstuff

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"time"
)

const genesis = "genesis"

// Replica is one chained-HotStuff replica.
type Replica struct {
	id, n, f int
	tr       Transport
	timeout  time.Duration

	// The tag (view, phase).
	view  int
	phase Phase

	blocks    map[string]Block
	highQC    QC // highest QC known: what the next proposal extends
	lockedQC  QC // QC of the locked block
	committed []Block
}

// NewReplica returns replica id of n, in view 0.
func NewReplica(id, n int, tr Transport, timeout time.Duration) *Replica {
	g := QC{Hash: genesis}
	return &Replica{
		id: id, n: n, f: (n - 1) / 3, tr: tr, timeout: timeout,
		blocks: map[string]Block{genesis: {Hash: genesis, Justify: g}},
		highQC: g, lockedQC: g,
	}
}

// Committed returns the committed chain, oldest first.
func (r *Replica) Committed() []Block { return slices.Clone(r.committed) }

func (r *Replica) leader(view int) int { return view % r.n }

func (r *Replica) quorum() int { return 2*r.f + 1 }

func hashBlock(b Block) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%d|%s|%s|%s", b.View, b.Parent, b.Justify.Hash, b.Cmd))
	return hex.EncodeToString(sum[:8])
}

// Run takes part in views 1..views.
func (r *Replica) Run(views int) {
	//sync:tag r.view,r.phase
	for r.view < views {
		r.view++
		r.phase = Propose

		if r.leader(r.view) == r.id {
			b := Block{View: r.view, Parent: r.highQC.Hash, Justify: r.highQC, Cmd: fmt.Sprintf("cmd-%d", r.view)}
			b.Hash = hashBlock(b)
			r.tr.Broadcast(&Proposal{View: r.view, From: r.id, Block: b})
		}
		prop := r.awaitProposal()
		if prop != nil && prop.View > r.view {
			r.view = prop.View // the others are ahead: join their view
		}

		r.phase = Collect
		next := r.leader(r.view + 1)
		if prop != nil && r.update(prop.Block) {
			r.tr.Send(next, &Vote{View: r.view, From: r.id, Hash: prop.Block.Hash})
		} else {
			r.tr.Send(next, &NewView{View: r.view, From: r.id, HighQC: r.highQC})
		}
		if next == r.id {
			if qc, ok := r.collect(); ok && qc.View > r.highQC.View {
				r.highQC = qc
			}
		}
	}
}

// awaitProposal waits for the proposal of the current view, or of a later
// one, from that view's leader.
func (r *Replica) awaitProposal() *Proposal {
	deadline := time.Now().Add(r.timeout)
	for {
		msg, ok := r.tr.Recv(deadline)
		if !ok {
			return nil
		}
		p, isProp := msg.(*Proposal)
		if !isProp || p.View < r.view || p.From != r.leader(p.View) {
			continue
		}
		return p
	}
}

// collect is run by the next leader: it waits for 2f+1 Vote or NewView
// messages of the current view and returns the QC it can build or adopt.
func (r *Replica) collect() (QC, bool) {
	votes := make(map[int]*Vote)
	newViews := make(map[int]*NewView)
	deadline := time.Now().Add(r.timeout)
	for len(votes)+len(newViews) < r.quorum() {
		msg, ok := r.tr.Recv(deadline)
		if !ok {
			break
		}
		switch m := msg.(type) {
		case *Vote:
			if m.View != r.view {
				continue
			}
			votes[m.From] = m
		case *NewView:
			if m.View != r.view {
				continue
			}
			newViews[m.From] = m
		}
	}
	if qc, ok := formQC(r.view, votes, r.quorum()); ok {
		return qc, true
	}
	if len(votes)+len(newViews) < r.quorum() {
		return QC{}, false
	}
	// No vote quorum: adopt the highest QC any of the quorum knows. A
	// vote's sender knew at least the QC its block carries.
	best := QC{}
	for _, m := range newViews {
		if m.HighQC.View > best.View {
			best = m.HighQC
		}
	}
	for _, v := range votes {
		if b, ok := r.blocks[v.Hash]; ok && b.Justify.View > best.View {
			best = b.Justify
		}
	}
	return best, best.Hash != ""
}

func formQC(view int, votes map[int]*Vote, q int) (QC, bool) {
	by := make(map[string][]int)
	for from, v := range votes {
		by[v.Hash] = append(by[v.Hash], from)
	}
	for h, signers := range by {
		if len(signers) >= q {
			slices.Sort(signers)
			return QC{View: view, Hash: h, Signers: signers}, true
		}
	}
	return QC{}, false
}

// update processes a proposed block (Algorithm 3's update and safeNode) and
// reports whether the replica votes for it.
func (r *Replica) update(b Block) bool {
	if b.Hash != hashBlock(b) || b.Parent != b.Justify.Hash {
		return false
	}
	if _, ok := r.blocks[b.Parent]; !ok {
		return false
	}
	r.blocks[b.Hash] = b
	b2 := r.blocks[b.Justify.Hash]  // b''
	b1 := r.blocks[b2.Justify.Hash] // b'
	b0 := r.blocks[b1.Justify.Hash] // b
	if b.Justify.View > r.highQC.View {
		r.highQC = b.Justify
	}
	if b2.Justify.View > r.lockedQC.View {
		r.lockedQC = b2.Justify
	}
	if b2.Parent == b1.Hash && b1.Parent == b0.Hash && b0.Hash != genesis {
		r.commit(b0)
	}
	return r.extends(b, r.lockedQC.Hash) || b.Justify.View > r.lockedQC.View
}

func (r *Replica) extends(b Block, ancestor string) bool {
	for h := b.Hash; ; h = r.blocks[h].Parent {
		if h == ancestor {
			return true
		}
		if h == genesis {
			return false
		}
	}
}

// commit appends b and its uncommitted ancestors to the committed chain.
func (r *Replica) commit(b Block) {
	var chain []Block
	for h := b.Hash; h != genesis; h = r.blocks[h].Parent {
		if len(r.committed) > 0 && h == r.committed[len(r.committed)-1].Hash {
			break
		}
		chain = append(chain, r.blocks[h])
	}
	slices.Reverse(chain)
	r.committed = append(r.committed, chain...)
}
