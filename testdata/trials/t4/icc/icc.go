package icc

// Replica is one ICC replica. The driver delivers artifacts to OnBlock,
// OnNotarize and OnFinalize and calls OnTimeout when the replica has waited
// too long in its current rank.
//
//sync:tag height,rank,step
type Replica struct {
	id, n  int
	height uint64
	rank   int
	step   Step
	net    Gossip

	// Mailboxes of the current (height, rank) of the Notarize and Finalize
	// steps; emptied on every tag change.
	notShare map[int]BlockID
	finShare map[int]BlockID

	// sharedAt records the blocks of the current height this replica
	// notarization-shared, over all ranks: a finalization share may only be
	// issued if there was exactly one.
	sharedAt map[BlockID]bool
	pending  []string
	proposed BlockID // the block this replica made in its rank, if any

	// Finalized is the finalized block of each height.
	Finalized map[uint64]BlockID
}

// NewReplica returns replica id of n, at height 1, rank 0. The payloads are
// what it puts in the blocks it makes.
func NewReplica(id, n int, net Gossip, payloads []string) *Replica {
	r := &Replica{id: id, n: n, net: net, pending: payloads, Finalized: map[uint64]BlockID{}}
	r.enter(1, 0)
	return r
}

func (r *Replica) quorum() int { return r.n - (r.n-1)/3 }

// maker is the block maker of rank rank at height h: ranks rotate so that a
// slow maker is replaced by the next one after a time-out.
func (r *Replica) maker(h uint64, rank int) int { return int((h + uint64(rank)) % uint64(r.n)) }

// enter moves to (h, rank, Propose) and empties the mailboxes; the block
// maker of the new rank proposes.
func (r *Replica) enter(h uint64, rank int) {
	if h != r.height {
		r.sharedAt = map[BlockID]bool{}
	}
	r.height, r.rank, r.step = h, rank, Propose
	r.notShare = map[int]BlockID{}
	r.finShare = map[int]BlockID{}
	r.proposed = ""
	if r.maker(h, rank) == r.id {
		payload := "empty"
		if len(r.pending) > 0 {
			payload = r.pending[0]
		}
		b := BlockProposal{H: h, R: rank, Maker: r.id, Payload: payload}
		r.proposed = b.ID()
		r.net.Broadcast(b)
	}
}

// stale reports whether (h, rank) is before the replica's (height, rank).
func (r *Replica) stale(h uint64, rank int) bool {
	return h < r.height || (h == r.height && rank < r.rank)
}

// OnBlock handles a block proposal: the first valid block of the rank gets
// this replica's notarization share.
//
//sync:handler
func (r *Replica) OnBlock(b BlockProposal) {
	if r.stale(b.H, b.R) || b.Maker != r.maker(b.H, b.R) {
		return
	}
	if b.H > r.height || b.R > r.rank {
		r.enter(b.H, b.R)
	}
	if r.step != Propose {
		return
	}
	share := NotarizationShare{H: r.height, R: r.rank, From: r.id, Block: b.ID()}
	r.step = Notarize
	r.sharedAt[b.ID()] = true
	r.net.Broadcast(share)
}

// OnNotarize handles a notarization share. With a quorum of shares on one
// block the block is notarized; the replica issues a finalization share if
// it shared no other block at this height, else moves on to the next height.
//
//sync:handler
func (r *Replica) OnNotarize(s NotarizationShare) {
	if s.H < r.height || (s.H == r.height && s.R < r.rank) {
		return
	}
	if s.H > r.height || s.R > r.rank {
		r.enter(s.H, s.R)
	}
	if r.step == Finalize {
		return
	}
	// A share may overtake the block: counting it means leaving Propose,
	// and this replica then does not share a block of this rank itself.
	r.step = Notarize
	r.notShare[s.From] = s.Block
	if count(r.notShare, s.Block) < r.quorum() {
		return
	}
	if len(r.sharedAt) > 1 || (len(r.sharedAt) == 1 && !r.sharedAt[s.Block]) {
		r.enter(r.height+1, 0)
		return
	}
	r.step = Finalize
	r.notShare = map[int]BlockID{}
	r.net.Broadcast(FinalizationShare{H: r.height, R: r.rank, From: r.id, Block: s.Block})
}

// advance moves to step of (h, rank), which is not before the current tag.
func (r *Replica) advance(h uint64, rank int, step Step) {
	if h > r.height || rank > r.rank {
		r.enter(h, rank)
	}
	if r.step < step {
		r.step = step
		r.notShare = map[int]BlockID{}
	}
}

// OnFinalize handles a finalization share; a quorum on one block finalizes
// it and starts the next height.
//
//sync:handler
func (r *Replica) OnFinalize(s FinalizationShare) {
	if r.stale(s.H, s.R) {
		return
	}
	r.advance(s.H, s.R, Finalize)
	r.finShare[s.From] = s.Block
	if count(r.finShare, s.Block) < r.quorum() {
		return
	}
	r.Finalized[r.height] = s.Block
	if s.Block == r.proposed && len(r.pending) > 0 {
		r.pending = r.pending[1:]
	}
	r.enter(r.height+1, 0)
}

// OnTimeout is called when the replica waited too long in its rank: before
// notarization it gives the next block maker a chance; after it, the height
// is left without an explicit finalization.
//
//sync:handler
func (r *Replica) OnTimeout() {
	if r.step == Finalize {
		r.enter(r.height+1, 0)
		return
	}
	r.enter(r.height, r.rank+1)
}

func count(shares map[int]BlockID, id BlockID) int {
	c := 0
	for _, b := range shares {
		if b == id {
			c++
		}
	}
	return c
}
