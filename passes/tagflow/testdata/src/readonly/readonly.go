// Package readonly checks mailboxes kept in the process state across
// calls of helpers between their emptying and the reception: a helper
// that writes nothing, or writes other fields only, leaves them emptied;
// one that writes the mailbox's field does not.
package readonly

import "time"

type Step int

const (
	Propose Step = iota
	AckStep
)

//sync:msg Epoch,Counter,Propose
type Proposal struct{ Epoch, Counter int }

//sync:msg Epoch,Counter,AckStep
type AckMsg struct{ Epoch, Counter, From int }

type Net interface {
	//sync:send
	Send(to int, m any)
	//sync:recv
	Recv(d time.Duration) (any, bool)
}

type Peer struct {
	id, leader, n  int
	epoch, counter int
	step           Step
	net            Net
	acks           map[int]AckMsg
	queue          []int
}

func (p *Peer) onAck(raw any) {
	m, ok := raw.(AckMsg)
	if !ok || p.step != AckStep || m.Epoch != p.epoch || m.Counter != p.counter {
		return
	}
	p.acks[m.From] = m
}

// onAck2 is onAck for Rewritten.
func (p *Peer) onAck2(raw any) {
	m, ok := raw.(AckMsg)
	if !ok || p.step != AckStep || m.Epoch != p.epoch || m.Counter != p.counter {
		return
	}
	p.acks[m.From] = m // want `condition 3: p.acks is written inside the reception loop, which may write only the mailbox`
}

func (p *Peer) isLeader() bool { return p.leader == p.id }

// nextTxn takes the next transaction from the queue.
func (p *Peer) nextTxn() int {
	t := p.queue[0]
	p.queue = p.queue[1:]
	return t
}

// resetAcks writes the mailbox's field with what it is handed.
func (p *Peer) resetAcks(acks map[int]AckMsg) { p.acks = acks }

// The leader test and the transaction taken from the queue sit between
// the emptying of p.acks and the reception: neither writes p.acks.
func (p *Peer) Helpers() {
	//sync:tag p.epoch,p.counter,p.step
	for {
		p.counter++
		p.step = Propose
		p.acks = make(map[int]AckMsg)
		if !p.isLeader() {
			continue
		}
		_ = p.nextTxn()
		p.net.Send(0, Proposal{Epoch: p.epoch, Counter: p.counter})
		p.step = AckStep
		for len(p.acks) <= p.n/2 {
			raw, ok := p.net.Recv(time.Second)
			if !ok {
				return
			}
			p.onAck(raw)
		}
	}
}

// The helper writes p.acks with a map of its caller's: whatever it holds,
// p.acks is not emptied for this round any more.
func (p *Peer) Rewritten(old map[int]AckMsg) {
	//sync:tag p.epoch,p.counter,p.step
	for {
		p.counter++
		p.step = Propose
		p.acks = make(map[int]AckMsg)
		p.resetAcks(old)
		p.net.Send(0, Proposal{Epoch: p.epoch, Counter: p.counter})
		p.step = AckStep
		for len(p.acks) <= p.n/2 {
			raw, ok := p.net.Recv(time.Second)
			if !ok {
				return
			}
			p.onAck2(raw)
		}
	}
}
