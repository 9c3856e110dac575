package zabsync

import (
	"fmt"
	"slices"
	"time"
)

// Peer is one Zab server running discovery and synchronisation.
type Peer struct {
	id      int
	in      *Inbox   //sync:inbox
	peers   []*Inbox //sync:peers
	oracle  func(epoch int) int
	timeout time.Duration

	acceptedEpoch int   // last NEWEPOCH acknowledged
	currentEpoch  int   // last NEWLEADER accepted
	history       []Txn // the follower's history
	committed     int   // history[:committed] is delivered

	established []int // epochs this peer established as leader
}

// NewPeer returns peer id; peers[q] is q's inbox, oracle suggests the
// leader of an attempt.
func NewPeer(id int, peers []*Inbox, oracle func(int) int, timeout time.Duration) *Peer {
	return &Peer{id: id, in: peers[id], peers: peers, oracle: oracle, timeout: timeout}
}

// Delivered returns the committed prefix of the history.
func (p *Peer) Delivered() []Txn { return slices.Clone(p.history[:p.committed]) }

// Established returns the epochs in which this peer became leader.
func (p *Peer) Established() []int { return slices.Clone(p.established) }

// post sends m on ch unless ch is full (the message is then lost).
func post[M any](ch chan M, m M) {
	select {
	case ch <- m:
	default:
	}
}

// attempt is the synchronisation tag of Run: the epoch of the current
// attempt and the phase within it.
type attempt struct {
	epoch int
	phase Phase
}

// Run runs at most maxAttempts attempts to establish a leader.
func (p *Peer) Run(maxAttempts int) {
	quorum := len(p.peers)/2 + 1
	s := &attempt{epoch: p.acceptedEpoch, phase: CEpoch}
	//sync:tag s.epoch,s.phase
	for range maxAttempts {
		s.epoch++
		s.phase = CEpoch
		leader := p.oracle(s.epoch)
		post(p.peers[leader].CEpoch, CEpochMsg{Epoch: s.epoch, From: p.id, Accepted: p.acceptedEpoch})

		if leader == p.id {
			ces := make(map[int]CEpochMsg)
			timer := time.NewTimer(p.timeout)
		discovery:
			for len(ces) < quorum {
				select {
				case m := <-p.in.CEpoch:
					if m.Epoch < s.epoch {
						continue
					}
					ces[m.From] = m
				case <-timer.C:
					break discovery
				}
			}
			timer.Stop()
			for _, m := range ces {
				if m.Epoch > s.epoch {
					s.epoch = m.Epoch
				}
			}
			if len(ces) < quorum {
				continue
			}
			// e' is above every epoch the quorum accepted or tried.
			s.epoch++
			s.phase = NewEpoch
			for _, q := range p.peers {
				post(q.NewEpoch, NewEpochMsg{Epoch: s.epoch, From: p.id})
			}
		}

		// Follower: take the leader's new epoch, ours or a later one.
		s.phase = NewEpoch
		var ne *NewEpochMsg
		timer := time.NewTimer(p.timeout)
	await:
		for ne == nil {
			select {
			case m := <-p.in.NewEpoch:
				if m.From != leader || m.Epoch < s.epoch {
					continue
				}
				ne = &m
			case <-timer.C:
				break await
			}
		}
		timer.Stop()
		if ne == nil {
			continue
		}
		s.epoch = ne.Epoch
		p.acceptedEpoch = s.epoch

		s.phase = AckEpoch
		post(p.peers[leader].AckEpoch, AckEpochMsg{Epoch: s.epoch, From: p.id, Current: p.currentEpoch, History: slices.Clone(p.history)})
		var initial []Txn
		if leader == p.id {
			acks := p.collectAckEpochs(s.epoch, quorum)
			if len(acks) < quorum {
				continue
			}
			initial = append(freshest(acks), Txn{Epoch: s.epoch, Op: fmt.Sprintf("e%d", s.epoch)})
			s.phase = NewLeader
			for _, q := range p.peers {
				post(q.NewLeader, NewLeaderMsg{Epoch: s.epoch, From: p.id, History: slices.Clone(initial)})
			}
		}

		s.phase = NewLeader
		nl, ok := p.awaitNewLeader(s.epoch, leader)
		if !ok {
			continue
		}
		p.currentEpoch = s.epoch
		p.history = slices.Clone(nl.History)
		p.committed = min(p.committed, len(p.history))

		s.phase = AckLeader
		post(p.peers[leader].AckLeader, AckLeaderMsg{Epoch: s.epoch, From: p.id})
		if leader == p.id {
			acked := make(map[int]bool)
			timer := time.NewTimer(p.timeout)
		sync:
			for len(acked) < quorum {
				select {
				case m := <-p.in.AckLeader:
					if m.Epoch != s.epoch {
						continue
					}
					acked[m.From] = true
				case <-timer.C:
					break sync
				}
			}
			timer.Stop()
			if len(acked) < quorum {
				continue
			}
			p.established = append(p.established, s.epoch)
			s.phase = CommitLeader
			for _, q := range p.peers {
				post(q.Commit, CommitMsg{Epoch: s.epoch, From: p.id})
			}
		}

		s.phase = CommitLeader
		var commit *CommitMsg
		timer = time.NewTimer(p.timeout)
		select {
		case m := <-p.in.Commit:
			if m.Epoch == s.epoch && m.From == leader {
				commit = &m
			}
		case <-timer.C:
		}
		timer.Stop()
		if commit != nil {
			p.committed = len(p.history)
		}
	}
}

// collectAckEpochs waits for ACK-E messages of epoch e from a quorum.
func (p *Peer) collectAckEpochs(e, quorum int) map[int]AckEpochMsg {
	acks := make(map[int]AckEpochMsg)
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	for len(acks) < quorum {
		select {
		case m := <-p.in.AckEpoch:
			if m.Epoch != e {
				continue
			}
			acks[m.From] = m
		case <-timer.C:
			return acks
		}
	}
	return acks
}

// awaitNewLeader waits for the NEWLEADER of epoch e from leader.
func (p *Peer) awaitNewLeader(e, leader int) (NewLeaderMsg, bool) {
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	for {
		select {
		case m := <-p.in.NewLeader:
			if m.Epoch == e && m.From == leader {
				return m, true
			}
		case <-timer.C:
			return NewLeaderMsg{}, false
		}
	}
}

// freshest returns the history of the ACK-E with the highest current
// epoch, the longest among those (Zab, step l.1.2).
func freshest(acks map[int]AckEpochMsg) []Txn {
	var best *AckEpochMsg
	for _, a := range acks {
		if best == nil || a.Current > best.Current || a.Current == best.Current && len(a.History) > len(best.History) {
			best = &a
		}
	}
	return slices.Clone(best.History)
}
