package sbft

import (
	"fmt"
	"time"
)

// Clock is the source of time-outs, injected so that tests control it.
type Clock interface {
	After(d time.Duration) <-chan time.Time
}

// Config configures a replica.
type Config struct {
	ID       int
	F        int           // tolerated faults; len(Peers) == 3F+1
	Slots    uint64        // the replica returns once it committed slot Slots
	MaxView  uint64        // it gives up in this view
	Timeout  time.Duration // how long a step waits for the primary or the collector
	Clock    Clock
	Propose  func(view, seq uint64, id int) string // the block a primary proposes
	Decision func(seq uint64, block string)        // called once per committed slot
}

// Replica is one SBFT replica running the linear PBFT path: the collector
// (here the primary of the view) turns 2f+1 signature shares into one
// certificate, so every step is linear in n.
type Replica struct {
	cfg    Config
	n      int
	quorum int

	//sync:inbox
	inbox <-chan Msg
	//sync:peers
	peers []chan<- Msg

	view uint64
	seq  uint64
	step Step

	prepared Cert // the highest prepare certificate of the current slot
}

// NewReplica returns replica cfg.ID, receiving on inbox and sending to
// replica q on peers[q].
func NewReplica(cfg Config, inbox <-chan Msg, peers []chan<- Msg) *Replica {
	return &Replica{cfg: cfg, n: len(peers), quorum: 2*cfg.F + 1, inbox: inbox, peers: peers}
}

func (r *Replica) primary() int { return int(r.view % uint64(r.n)) }

func (r *Replica) hdr() Header { return Header{View: r.view, Seq: r.seq, Step: r.step} }

func (r *Replica) broadcast(m Msg) {
	for _, p := range r.peers {
		p <- m
	}
}

// Run orders slots 1..cfg.Slots and returns the last view it was in.
func (r *Replica) Run() uint64 {
	r.view, r.seq, r.step = 0, 1, PrePrepare
	var carry []Msg // the message of a later round that ended the last wait

	//sync:tag r.view,r.seq,r.step
	for r.seq <= r.cfg.Slots && r.view < r.cfg.MaxView {
		proposal := ""
		if r.step == ViewChange {
			// Every replica tells every other one what it prepared; the new
			// primary re-proposes the certificate of the highest view.
			r.broadcast(Msg{Hdr: r.hdr(), From: r.id(), Cert: r.prepared})
			vcs, timedOut := r.await(carry, func(m Msg) bool { return true }, r.quorum)
			carry = nil
			if later, ok := r.jump(vcs); ok {
				carry = later
				continue
			}
			if timedOut {
				r.view++
				continue
			}
			for _, m := range vcs {
				if m.Cert.Valid(r.quorum) && m.Cert.View >= r.prepared.View {
					r.prepared = m.Cert
				}
			}
			proposal = r.prepared.Block
		}

		// PrePrepare: the primary proposes; everyone waits for it.
		r.step = PrePrepare
		primary := r.primary()
		if primary == r.id() {
			if proposal == "" {
				proposal = r.cfg.Propose(r.view, r.seq, r.id())
			}
			r.broadcast(Msg{Hdr: r.hdr(), From: r.id(), Block: proposal})
		}
		pps, timedOut := r.await(carry, func(m Msg) bool { return m.From == primary }, 1)
		carry = nil
		if later, ok := r.jump(pps); ok {
			carry = later
			continue
		}
		if timedOut {
			r.view, r.step = r.view+1, ViewChange
			continue
		}
		block := pps[0].Block

		// SignPrepare: a share to the collector, which combines a quorum.
		r.step = SignPrepare
		r.peers[primary] <- Msg{Hdr: r.hdr(), From: r.id(), Block: block}
		if primary == r.id() {
			shares, timedOut := r.await(nil, func(m Msg) bool { return m.Block == block }, r.quorum)
			if later, ok := r.jump(shares); ok {
				carry = later
				continue
			}
			if timedOut {
				r.view, r.step = r.view+1, ViewChange
				continue
			}
			r.step = Prepared
			r.broadcast(Msg{Hdr: r.hdr(), From: r.id(), Cert: combine(r.view, block, shares)})
		}

		// Prepared: the prepare certificate from the collector.
		r.step = Prepared
		certs, timedOut := r.await(nil, func(m Msg) bool { return m.From == primary && m.Cert.Valid(r.quorum) }, 1)
		if later, ok := r.jump(certs); ok {
			carry = later
			continue
		}
		if timedOut {
			r.view, r.step = r.view+1, ViewChange
			continue
		}
		r.prepared = certs[0].Cert

		// SignCommit: a commit share to the collector.
		r.step = SignCommit
		r.peers[primary] <- Msg{Hdr: r.hdr(), From: r.id(), Block: r.prepared.Block}
		if primary == r.id() {
			shares, timedOut := r.await(nil, func(m Msg) bool { return m.Block == r.prepared.Block }, r.quorum)
			if later, ok := r.jump(shares); ok {
				carry = later
				continue
			}
			if timedOut {
				r.view, r.step = r.view+1, ViewChange
				continue
			}
			r.step = Committed
			r.broadcast(Msg{Hdr: r.hdr(), From: r.id(), Cert: combine(r.view, r.prepared.Block, shares)})
		}

		// Committed: the commit certificate ends the slot.
		r.step = Committed
		commits, timedOut := r.await(nil, func(m Msg) bool { return m.From == primary && m.Cert.Valid(r.quorum) }, 1)
		if later, ok := r.jump(commits); ok {
			carry = later
			continue
		}
		if timedOut {
			r.view, r.step = r.view+1, ViewChange
			continue
		}
		r.commit(commits[0].Cert)
	}
	return r.view
}

func (r *Replica) id() int { return r.cfg.ID }

// commit delivers the block of the current slot and opens the next one.
func (r *Replica) commit(c Cert) {
	r.cfg.Decision(r.seq, c.Block)
	r.seq++
	r.step = PrePrepare
	r.prepared = Cert{}
}

// await waits for want messages of the current round, from distinct
// senders, that satisfy accept; mbox starts with carry. A message of an
// older round is dropped. A message of a later round of this slot that lets
// a replica catch up (see catchUp) ends the wait: it is the last of mbox and
// the caller must jump to it.
func (r *Replica) await(carry []Msg, accept func(Msg) bool, want int) (mbox []Msg, timedOut bool) {
	mbox = carry
	seen := make(map[int]bool)
	for _, m := range mbox {
		seen[m.From] = true
	}
	timer := r.cfg.Clock.After(r.cfg.Timeout)
	for len(mbox) < want {
		select {
		case m := <-r.inbox:
			if m.Hdr.Seq != r.seq || m.Hdr.Less(r.hdr()) {
				continue // another slot, or an older round: drop it
			}
			if r.hdr().Less(m.Hdr) {
				if r.catchUp(m) {
					return append(mbox, m), false
				}
				continue
			}
			if seen[m.From] || !accept(m) {
				continue
			}
			seen[m.From] = true
			mbox = append(mbox, m)
		case <-timer:
			return mbox, true
		}
	}
	return mbox, false
}

// catchUp reports whether a message of a later round is one a replica can
// jump to: a view change of a later view, the proposal of the primary of a
// later round, or a commit certificate.
func (r *Replica) catchUp(m Msg) bool {
	switch m.Hdr.Step {
	case ViewChange:
		return m.Hdr.View > r.view
	case PrePrepare:
		return m.From == int(m.Hdr.View%uint64(r.n))
	case Committed:
		return m.Cert.Valid(r.quorum)
	}
	return false
}

// jump moves the replica to the round of the last message of mbox if it is
// a later one. A commit certificate is applied at once; otherwise the
// message is returned to be the mailbox of the round jumped to.
func (r *Replica) jump(mbox []Msg) (carry []Msg, jumped bool) {
	if len(mbox) == 0 || !r.hdr().Less(mbox[len(mbox)-1].Hdr) {
		return nil, false
	}
	m := mbox[len(mbox)-1]
	r.view, r.step = m.Hdr.View, m.Hdr.Step
	if m.Hdr.Step == Committed {
		r.commit(m.Cert)
		return nil, true
	}
	return []Msg{m}, true
}

// combine aggregates the shares of a quorum into a certificate.
func combine(view uint64, block string, shares []Msg) Cert {
	c := Cert{View: view, Block: block}
	for _, s := range shares {
		c.Signers |= 1 << uint(s.From)
	}
	return c
}

// String names the step.
func (s Step) String() string {
	return [...]string{"ViewChange", "PrePrepare", "SignPrepare", "Prepared", "SignCommit", "Committed"}[s]
}

// String formats the header as view/seq/step.
func (h Header) String() string { return fmt.Sprintf("%d/%d/%v", h.View, h.Seq, h.Step) }
