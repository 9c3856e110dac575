package simplex

import (
	"fmt"
	"sync"
	"time"
)

// Network connects n processes by buffered FIFO channels; a broadcast
// enqueues all its copies under one lock, so delivery is causal.
type Network struct {
	mu      sync.Mutex
	inboxes []chan Msg
}

// NewNetwork returns a network of n processes.
func NewNetwork(n int) *Network {
	nw := &Network{inboxes: make([]chan Msg, n)}
	for i := range nw.inboxes {
		nw.inboxes[i] = make(chan Msg, 64*n)
	}
	return nw
}

// Config configures one process.
type Config struct {
	ID    int
	Net   *Network
	Delta time.Duration // the assumed message delay Δ
	// Payload returns the payload this process proposes when it leads
	// iteration h.
	Payload func(h int) string
}

type proc struct {
	id, n  int
	quorum int
	delta  time.Duration
	mu     *sync.Mutex
	//sync:peers
	peers []chan Msg
	//sync:inbox
	inbox chan Msg

	iter int
	step Step

	notarized map[int]Block // notarized real blocks by iteration
	tip       Block         // the notarized block of the highest iteration
	final     []Block       // the finalized chain, genesis excluded
}

func (p *proc) broadcast(m Msg) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, ch := range p.peers {
		select {
		case ch <- m:
		default:
		}
	}
}

// Run takes part in iterations 1..last and returns the finalized chain.
func Run(cfg Config, last int) ([]Block, error) {
	n := len(cfg.Net.inboxes)
	if cfg.ID < 0 || cfg.ID >= n || cfg.Delta <= 0 {
		return nil, fmt.Errorf("simplex: bad config: id %d of %d processes, delta %v", cfg.ID, n, cfg.Delta)
	}
	p := &proc{
		id: cfg.ID, n: n, quorum: (2*n + 2) / 3, delta: cfg.Delta,
		mu: &cfg.Net.mu, peers: cfg.Net.inboxes, inbox: cfg.Net.inboxes[cfg.ID],
		iter: 0, step: Propose,
		notarized: map[int]Block{0: {}},
	}
	//sync:tag p.iter,p.step
	for p.iter < last {
		p.iter++
		p.step = Propose
		timer := time.NewTimer(3 * p.delta)
		leader := p.iter % p.n
		if leader == p.id {
			b := Block{Iter: p.iter, Parent: p.tip.Iter, Payload: cfg.Payload(p.iter)}
			p.broadcast(Msg{Hdr: Header{Iter: p.iter, Step: Propose}, From: p.id, Block: b})
		}
		// The leader's proposal. A vote of this iteration or of a later one
		// that comes first shows that the others stopped waiting for it: a
		// vote for the leader's block comes after the block itself.
		var first []Msg
	propose:
		for len(first) == 0 {
			select {
			case m := <-p.inbox:
				isProposal := m.Hdr == Header{Iter: p.iter, Step: Propose} && m.From == leader
				isVote := m.Hdr.Step == Vote && m.Hdr.Iter >= p.iter
				if !isProposal && !isVote {
					continue
				}
				first = append(first, m)
			case <-timer.C:
				break propose
			}
		}

		// Move to round Vote, of the early vote's iteration if it is later;
		// a process that caught up does not vote in the iteration it
		// skipped to.
		caughtUp := len(first) > 0 && first[0].Hdr.Iter > p.iter
		if caughtUp {
			p.iter, p.step = first[0].Hdr.Iter, Vote
		}
		p.step = Vote
		var vote Block
		votes := make(map[int]Msg) // the mailbox of the vote round
		switch {
		case len(first) > 0 && first[0].Hdr.Step == Vote:
			votes[first[0].From] = first[0]
			if !caughtUp {
				vote = Block{Iter: p.iter, Dummy: true}
			}
		case len(first) > 0 && p.extendsNotarized(first[0].Block):
			vote = first[0].Block
		default:
			vote = Block{Iter: p.iter, Dummy: true}
		}
		if !caughtUp {
			p.broadcast(Msg{Hdr: Header{Iter: p.iter, Step: Vote}, From: p.id, Block: vote})
		}
		timer.Stop()
		timer = time.NewTimer(2 * p.delta)

		// Votes of this iteration or of a later one: a process that is
		// ahead shows that this one fell behind.
	collect:
		for {
			if _, _, count := p.best(votes); count >= p.quorum {
				break
			}
			select {
			case m := <-p.inbox:
				if m.Hdr.Step != Vote || m.Hdr.Iter < p.iter {
					continue
				}
				if old, ok := votes[m.From]; !ok || old.Hdr.Iter < m.Hdr.Iter {
					votes[m.From] = m
				}
			case <-timer.C:
				break collect
			}
		}
		timer.Stop()
		h, block, count := p.best(votes)
		if h > p.iter {
			p.iter = h // catch up with the processes ahead
		}
		if count < p.quorum {
			continue // nothing notarized in time: next iteration
		}
		// Relay the notarization, so that processes that missed votes
		// can move on too.
		for _, m := range votes {
			if m.Hdr.Iter == p.iter && m.Block == block {
				p.broadcast(m)
			}
		}
		if !block.Dummy {
			p.notarized[block.Iter] = block
			p.tip = block
		}
		if block.Dummy || block != vote {
			continue // finalize only what this process voted for in time
		}

		p.step = Finalize
		p.broadcast(Msg{Hdr: Header{Iter: p.iter, Step: Finalize}, From: p.id, Block: block})
		finals := make(map[int]Msg)
		timer = time.NewTimer(p.delta)
	finalize:
		for len(finals) < p.quorum {
			select {
			case m := <-p.inbox:
				if m.Hdr.Iter != p.iter || m.Hdr.Step != Finalize || m.Block != block {
					continue
				}
				finals[m.From] = m
			case <-timer.C:
				break finalize
			}
		}
		timer.Stop()
		if len(finals) >= p.quorum {
			p.finalize(block)
		}
	}
	return p.final, nil
}

// extendsNotarized reports whether b is a real block of the current
// iteration whose parent this process saw notarized.
func (p *proc) extendsNotarized(b Block) bool {
	_, ok := p.notarized[b.Parent]
	return !b.Dummy && b.Iter == p.iter && b.Parent < b.Iter && ok
}

// best returns the latest iteration among the votes of a mailbox, the block
// with the most votes in it (the earliest sender's on a tie) and its count.
func (p *proc) best(votes map[int]Msg) (h int, block Block, count int) {
	for _, m := range votes {
		h = max(h, m.Hdr.Iter)
	}
	counts := make(map[Block]int)
	for q := range p.n {
		m, ok := votes[q]
		if !ok || m.Hdr.Iter != h {
			continue
		}
		counts[m.Block]++
		if counts[m.Block] > count {
			block, count = m.Block, counts[m.Block]
		}
	}
	return h, block, count
}

// finalize appends to the final chain the notarized ancestors of b not yet
// final, and b.
func (p *proc) finalize(b Block) {
	var pending []Block
	done := 0
	if len(p.final) > 0 {
		done = p.final[len(p.final)-1].Iter
	}
	for cur := b; cur.Iter > done; cur = p.notarized[cur.Parent] {
		pending = append(pending, cur)
	}
	for i := len(pending) - 1; i >= 0; i-- {
		p.final = append(p.final, pending[i])
	}
}
