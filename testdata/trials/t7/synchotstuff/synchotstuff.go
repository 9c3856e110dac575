package synchotstuff

import (
	"errors"
	"fmt"
	"math/bits"
	"time"
)

// Transport connects the replicas.
type Transport interface {
	// Broadcast sends m to every replica, this one included.
	//
	//sync:send
	Broadcast(m Message)

	// Send sends m to replica to.
	//
	//sync:send
	Send(to int, m Message)

	// Recv returns the next message for this replica, or false once
	// deadline has passed.
	//
	//sync:recv
	Recv(deadline time.Time) (Message, bool)
}

// ErrStalled is returned by Run when a replica blamed its leader but could
// not gather f+1 blames to leave the view.
var ErrStalled = errors.New("synchotstuff: no blame certificate")

// Replica is one Sync HotStuff replica, for n = 2f+1 replicas and a known
// bound Δ on message delay.
type Replica struct {
	id, n, f int
	delta    time.Duration
	tr       Transport
	decide   func(b Block)

	view   uint64
	height uint64
	step   Step

	certified Cert // the highest certified block
}

// NewReplica returns replica id of n; decide is called with every block it
// commits, in height order.
func NewReplica(id, n int, delta time.Duration, tr Transport, decide func(Block)) *Replica {
	return &Replica{id: id, n: n, f: (n - 1) / 2, delta: delta, tr: tr, decide: decide}
}

func (p *Replica) leader(view uint64) int { return int(view % uint64(p.n)) }

// before reports whether (view, height, step) comes before the replica's
// tag: a message of an older round.
func (p *Replica) before(view, height uint64, step Step) bool {
	if view != p.view {
		return view < p.view
	}
	if height != p.height {
		return height < p.height
	}
	return step < p.step
}

// valid reports whether c is a certificate: f+1 voters, or the genesis.
func (p *Replica) valid(c Cert) bool {
	return c.Block.Height == 0 || bits.OnesCount64(c.Voters) > p.f
}

// Run runs the protocol until it committed maxHeight blocks or reached
// maxView.
func (p *Replica) Run(maxHeight, maxView uint64) error {
	p.view, p.height, p.step = 0, 1, StepPropose

	//sync:tag p.view,p.height,p.step
	for p.height <= maxHeight && p.view < maxView {
		leader := p.leader(p.view)

		// View change: the new leader learns the highest certified block,
		// waiting 2Δ so that every honest replica's status arrives.
		if p.step == StepStatus {
			p.tr.Send(leader, Status{View: p.view, Height: p.height, From: p.id, Cert: p.certified})
			if leader == p.id {
				var statuses []Status
				deadline := time.Now().Add(2 * p.delta)
				for {
					m, ok := p.tr.Recv(deadline)
					if !ok {
						break
					}
					s, isStatus := m.(Status)
					if !isStatus || s.View != p.view || s.Height < p.height {
						continue
					}
					statuses = append(statuses, s)
				}
				for _, s := range statuses {
					if s.Height > p.height {
						p.height = s.Height // a replica certified more: jump to its height
					}
				}
				for _, s := range statuses {
					if s.Cert.Block.Height > p.certified.Block.Height {
						p.certified = s.Cert
					}
				}
			}
		}

		// Propose.
		p.step = StepPropose
		if leader == p.id {
			b := Block{Height: p.height, Parent: p.certified.Block.ID, Cmd: fmt.Sprintf("cmd@%d", p.height)}
			b.ID = fmt.Sprintf("%d/%d/%s", p.view, b.Height, b.Parent)
			p.tr.Broadcast(Proposal{View: p.view, Height: p.height, From: p.id, Block: b, Justify: p.certified})
		}
		var got []Message
		deadline := time.Now().Add(4 * p.delta)
		for len(got) == 0 {
			m, ok := p.tr.Recv(deadline)
			if !ok {
				break // the blame timer expired
			}
			switch m := m.(type) {
			case Proposal:
				if m.From != p.leader(m.View) || p.before(m.View, m.Height, p.step) {
					continue // not from its view's leader, or of an older round
				}
				got = append(got, m)
			case Blame:
				if m.View == p.view && m.Height == p.height {
					got = append(got, m) // someone blames our leader already
				}
			}
		}

		blames := map[int]bool{}
		var block Block
		switch m := first(got).(type) {
		case nil:
			p.step = StepBlame
		case Blame:
			p.step = StepBlame
			blames[m.From] = true
		case Proposal:
			p.view, p.height = m.View, m.Height // a later height or view: catch up
			p.step = StepVote
			j := m.Justify
			if !p.valid(j) || j.Block.Height+1 != m.Height || m.Block.Parent != j.Block.ID ||
				j.Block.Height < p.certified.Block.Height {
				p.step = StepBlame // the block does not extend the highest certified one
				break
			}
			p.certified = j
			block = m.Block
		}

		// Vote, and listen 2Δ for a conflicting vote before committing.
		if p.step == StepVote {
			p.tr.Broadcast(Vote{View: p.view, Height: p.height, From: p.id, BlockID: block.ID})
			votes := make(map[int]Vote)
			window := 2 * p.delta
			if p.leader(p.view) == p.id {
				window += p.delta // every replica ends its window before the next proposal
			}
			deadline = time.Now().Add(window)
			for {
				m, ok := p.tr.Recv(deadline)
				if !ok {
					break
				}
				if b, isBlame := m.(Blame); isBlame && b.View == p.view && b.Height == p.height {
					blames[b.From] = true
					break
				}
				v, isVote := m.(Vote)
				if !isVote || v.View != p.view || v.Height != p.height {
					continue
				}
				votes[v.From] = v
			}
			if len(blames) > 0 {
				p.step = StepBlame
			} else if c, ok := p.certify(block, votes); ok {
				p.certified = c
				p.decide(block)
				p.height++
				continue
			} else {
				p.step = StepBlame // no certificate, or an equivocation
			}
		}

		// Blame: f+1 blames end the view.
		p.tr.Broadcast(Blame{View: p.view, Height: p.height, From: p.id})
		deadline = time.Now().Add(2 * p.delta)
		for len(blames) <= p.f {
			m, ok := p.tr.Recv(deadline)
			if !ok {
				break
			}
			b, isBlame := m.(Blame)
			if !isBlame || b.View != p.view || b.Height != p.height {
				continue
			}
			blames[b.From] = true
		}
		if len(blames) <= p.f {
			return ErrStalled
		}
		p.view++
		p.step = StepStatus
	}
	return nil
}

// certify returns the certificate of block if f+1 votes are for it and no
// vote is for another block of the same height (an equivocating leader).
func (p *Replica) certify(block Block, votes map[int]Vote) (Cert, bool) {
	c := Cert{View: p.view, Block: block}
	for from, v := range votes {
		if v.BlockID != block.ID {
			return Cert{}, false
		}
		c.Voters |= 1 << uint(from)
	}
	return c, bits.OnesCount64(c.Voters) > p.f
}

func first(ms []Message) Message {
	if len(ms) == 0 {
		return nil
	}
	return ms[0]
}
