package streamlet

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
)

// Step is the round part of the tag: where a node is in its epoch.
type Step int

// The rounds of an epoch.
const (
	// StepPropose: the leader proposes; the others wait for the proposal.
	StepPropose Step = iota
	// StepVote: the node has voted (or given up voting) in the epoch.
	StepVote
)

// Block is a block of the chain.
type Block struct {
	Epoch  uint64
	Parent string // hash of the parent block
	Height int    // genesis is at height 0
	Txs    string
}

// Hash identifies the block.
func (b Block) Hash() string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%d|%s|%d|%s", b.Epoch, b.Parent, b.Height, b.Txs))
	return hex.EncodeToString(sum[:8])
}

// Genesis is the block every chain starts from; it is notarized and final.
var Genesis = Block{Txs: "genesis"}

// Header is the part common to every message.
type Header struct {
	Epoch uint64
	From  int
}

// Proposal is the leader's block for an epoch.
//
//sync:msg Hdr.Epoch,StepPropose
type Proposal struct {
	Hdr   Header
	Block Block
}

// Vote is a node's vote for the block of an epoch.
//
//sync:msg Hdr.Epoch,StepVote
type Vote struct {
	Hdr   Header
	Block Block
}

// Transport broadcasts messages to every node, the sender included.
type Transport interface {
	// BroadcastProposal sends p to every node.
	//
	//sync:send
	BroadcastProposal(p Proposal)
	// BroadcastVote sends v to every node.
	//
	//sync:send
	BroadcastVote(v Vote)
}

// Node is one Streamlet node.
//
//sync:tag epoch,step
type Node struct {
	id, n int
	net   Transport
	txs   func(epoch uint64) string // the transactions to propose

	epoch uint64
	step  Step

	votes     map[string]map[int]bool // this epoch's votes: block hash -> voters
	blocks    map[string]Block        // every block seen
	notarized map[string]bool
	final     []Block // the final chain, genesis first
}

// NewNode returns node id of n; txs gives the payload it proposes.
func NewNode(id, n int, net Transport, txs func(epoch uint64) string) *Node {
	g := Genesis.Hash()
	return &Node{id: id, n: n, net: net, txs: txs,
		votes:     make(map[string]map[int]bool),
		blocks:    map[string]Block{g: Genesis},
		notarized: map[string]bool{g: true},
		final:     []Block{Genesis}}
}

func leaderOf(epoch uint64, n int) int { return int(epoch % uint64(n)) }

func (s *Node) header() Header { return Header{Epoch: s.epoch, From: s.id} }

// enter moves the node to the start of epoch e.
func (s *Node) enter(e uint64) {
	s.epoch = e
	s.step = StepPropose
	clear(s.votes)
}

// OnEpoch is called by the clock when epoch e starts.
//
//sync:handler
func (s *Node) OnEpoch(e uint64) {
	if e <= s.epoch {
		return // a late tick: a message already brought us there
	}
	s.enter(e)
	if leaderOf(e, s.n) != s.id {
		return
	}
	parent := s.longestTip()
	b := Block{Epoch: e, Parent: parent.Hash(), Height: parent.Height + 1, Txs: s.txs(e)}
	s.blocks[b.Hash()] = b
	s.net.BroadcastProposal(Proposal{Hdr: s.header(), Block: b})
}

// OnProposal votes for the leader's block if it extends a longest
// notarized chain.
//
//sync:handler
func (s *Node) OnProposal(p Proposal) {
	if p.Hdr.Epoch < s.epoch || p.Hdr.Epoch == s.epoch && s.step != StepPropose {
		return // an old epoch, or we already voted in this one
	}
	b := p.Block
	if p.Hdr.From != leaderOf(p.Hdr.Epoch, s.n) || b.Epoch != p.Hdr.Epoch ||
		!s.notarized[b.Parent] || s.blocks[b.Parent].Height != s.longestTip().Height ||
		b.Height != s.blocks[b.Parent].Height+1 {
		return // not from the leader, or not on a longest notarized chain
	}
	if p.Hdr.Epoch > s.epoch {
		s.enter(p.Hdr.Epoch) // our clock is behind: catch up
	}
	s.blocks[b.Hash()] = b
	s.step = StepVote
	s.net.BroadcastVote(Vote{Hdr: s.header(), Block: b})
}

// OnVote counts a vote of the current epoch; a block with 2n/3 votes is
// notarized.
//
//sync:handler
func (s *Node) OnVote(v Vote) {
	if v.Hdr.Epoch < s.epoch {
		return // a vote of an epoch we left
	}
	if v.Hdr.Epoch > s.epoch {
		s.enter(v.Hdr.Epoch) // others are in a later epoch: catch up
	}
	s.step = StepVote // a vote of this epoch is out: we no longer vote in it
	h := v.Block.Hash()
	if s.votes[h] == nil {
		s.votes[h] = make(map[int]bool)
	}
	s.votes[h][v.Hdr.From] = true
	if len(s.votes[h])*3 >= 2*s.n && !s.notarized[h] {
		s.blocks[h] = v.Block
		s.notarized[h] = true
		s.finalize(v.Block)
	}
}

// longestTip returns the last block of a longest notarized chain, the one
// with the smallest hash among equals.
func (s *Node) longestTip() Block {
	tip := Genesis
	for h := range s.notarized {
		b := s.blocks[h]
		if b.Height > tip.Height || b.Height == tip.Height && h < tip.Hash() {
			tip = b
		}
	}
	return tip
}

// finalize applies the finality rule to a newly notarized block b: if b,
// its parent and its grandparent are notarized with consecutive epochs, the
// parent and its ancestors become final.
func (s *Node) finalize(b Block) {
	p, okP := s.blocks[b.Parent]
	if !okP || !s.notarized[b.Parent] || p.Epoch+1 != b.Epoch {
		return
	}
	g, okG := s.blocks[p.Parent]
	if !okG || !s.notarized[p.Parent] || g.Epoch+1 != p.Epoch || p.Height < len(s.final) {
		return
	}
	var chain []Block
	for cur := p; ; {
		chain = append(chain, cur)
		if cur.Height == 0 {
			break
		}
		next, ok := s.blocks[cur.Parent]
		if !ok {
			return // an ancestor we never saw: wait for a later chance
		}
		cur = next
	}
	slices.Reverse(chain)
	s.final = chain
}

// Final returns the node's final chain, genesis first.
func (s *Node) Final() []Block { return slices.Clone(s.final) }
