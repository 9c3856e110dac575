package dbftview

import "fmt"

// ConsensusService is the consensus state of one validator for the block
// being agreed on. The node calls OnReceive with every payload and
// OnTimeout(height, view) when the timer it armed for that height and view
// expires.
//
//sync:tag height,view
type ConsensusService struct {
	index, n int
	node     LocalNode

	height uint32
	view   byte
	blocks []string // blocks[h] is the block accepted at height h

	// The mailbox of (height, view), emptied by reset.
	request      *PrepareRequest
	preparations map[int]string // validator -> preparation hash
	commits      map[int]string // validator -> committed block hash
	changeViews  map[int]bool
	commitSent   bool // commit-locked: this height ends in this view
}

// NewConsensusService returns validator index of n at height 0, view 0.
func NewConsensusService(index, n int, node LocalNode) *ConsensusService {
	c := &ConsensusService{index: index, n: n, node: node}
	c.reset(0, 0)
	return c
}

// m is the number of validators that must agree: n - f.
func (c *ConsensusService) m() int { return c.n - (c.n-1)/3 }

func (c *ConsensusService) primary() int {
	return ((int(c.height)-int(c.view))%c.n + c.n) % c.n
}

func (c *ConsensusService) hdr() header {
	return header{BlockIndex: c.height, View: c.view, Index: c.index}
}

// reset enters (height, view), a later tag, with an empty mailbox.
func (c *ConsensusService) reset(height uint32, view byte) {
	c.height, c.view = height, view
	c.request = nil
	c.preparations = map[int]string{}
	c.commits = map[int]string{}
	c.changeViews = map[int]bool{}
	c.commitSent = false
}

// OnReceive handles a payload relayed by the network.
//
//sync:handler
func (c *ConsensusService) OnReceive(p ConsensusPayload) {
	if p.Height() != c.height || p.ViewNumber() < c.view {
		return // another block, or a view this validator has left
	}
	if p.ViewNumber() > c.view {
		if c.commitSent {
			return // commit-locked: this height ends in this view
		}
		c.reset(c.height, p.ViewNumber()) // the others moved on: follow
	}
	switch m := p.(type) {
	case *PrepareRequest:
		c.onPrepareRequest(m)
	case *PrepareResponse:
		if _, ok := c.preparations[m.ValidatorIndex()]; !ok {
			c.preparations[m.ValidatorIndex()] = m.PreparationHash
			c.checkPreparations()
		}
	case *Commit:
		c.commits[m.ValidatorIndex()] = m.BlockHash
		c.checkPreparations()
		c.checkCommits()
	case *ChangeView:
		if !c.commitSent {
			c.changeViews[m.ValidatorIndex()] = true
			c.checkChangeViews()
		}
	}
}

func (c *ConsensusService) onPrepareRequest(m *PrepareRequest) {
	if m.ValidatorIndex() != c.primary() || c.request != nil {
		return
	}
	c.request = m
	c.preparations[m.ValidatorIndex()] = m.Block
	c.preparations[c.index] = m.Block
	c.node.Broadcast(&PrepareResponse{header: c.hdr(), PreparationHash: m.Block})
	c.checkPreparations()
}

// checkPreparations commits once m validators prepared the request. A
// validator that asked to leave the view commits only once more than f
// others committed in it, when the view can no longer change (dBFT 2.0's
// rule against a split between committed and view-changing validators).
func (c *ConsensusService) checkPreparations() {
	if c.request == nil || c.commitSent || count(c.preparations, c.request.Block) < c.m() {
		return
	}
	if c.changeViews[c.index] && len(c.commits) <= (c.n-1)/3 {
		return
	}
	c.commitSent = true
	c.commits[c.index] = c.request.Block
	c.node.Broadcast(&Commit{header: c.hdr(), BlockHash: c.request.Block})
	c.checkCommits()
}

// checkCommits accepts the block once m validators committed it and moves
// to the next height.
func (c *ConsensusService) checkCommits() {
	if c.request == nil || count(c.commits, c.request.Block) < c.m() {
		return
	}
	c.blocks = append(c.blocks, c.request.Block)
	c.reset(c.height+1, 0)
}

// checkChangeViews moves to the next view once m validators asked for it.
func (c *ConsensusService) checkChangeViews() {
	if len(c.changeViews) >= c.m() {
		c.reset(c.height, c.view+1)
	}
}

// OnTimeout is the timer of (height, view): the primary's block time, or a
// backup's patience with the primary.
//
//sync:handler
func (c *ConsensusService) OnTimeout(height uint32, view byte) {
	if height != c.height || view != c.view {
		return // a timer of a view or block already done
	}
	// Say again what this validator said in this view, in case it was
	// lost (what dBFT's recovery messages are for).
	if c.request != nil && c.primary() == c.index {
		c.node.Broadcast(c.request)
	} else if c.request != nil {
		c.node.Broadcast(&PrepareResponse{header: c.hdr(), PreparationHash: c.request.Block})
	}
	if c.commitSent {
		c.node.Broadcast(&Commit{header: c.hdr(), BlockHash: c.request.Block})
		return // commit-locked: never asks to leave the view
	}
	if c.primary() == c.index && c.request == nil {
		req := &PrepareRequest{header: c.hdr(), Block: fmt.Sprintf("block%d-by%d", c.height, c.index)}
		c.request = req
		c.preparations[c.index] = req.Block
		c.node.Broadcast(req)
		c.checkPreparations()
		return
	}
	c.changeViews[c.index] = true
	c.node.Broadcast(&ChangeView{header: c.hdr(), Reason: ReasonTimeout})
	c.checkChangeViews()
}

// OnPersistCompleted is the ledger telling that it persisted block at
// height, which block sync fetched for a validator that fell behind.
//
//sync:handler
func (c *ConsensusService) OnPersistCompleted(height uint32, block string) {
	if height != c.height {
		return // a block this validator already has
	}
	c.blocks = append(c.blocks, block)
	c.reset(height+1, 0)
}

func count(votes map[int]string, hash string) int {
	n := 0
	for _, h := range votes {
		if h == hash {
			n++
		}
	}
	return n
}

// Height returns the height being agreed on.
func (c *ConsensusService) Height() uint32 { return c.height }

// View returns the current view.
func (c *ConsensusService) View() byte { return c.view }

// Blocks returns the accepted blocks, one per height.
func (c *ConsensusService) Blocks() []string { return append([]string(nil), c.blocks...) }
