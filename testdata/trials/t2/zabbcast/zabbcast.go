package zabbcast

import (
	"errors"
	"time"
)

// PacketType is the step part of the tag: the kind of packet of the
// current step, numbered as in ZooKeeper.
type PacketType int

// The steps of one transaction, in order.
const (
	Proposal PacketType = 2
	Ack      PacketType = 3
	Commit   PacketType = 4
)

const counterMask = 1<<32 - 1

// Packet is the one message type, like ZooKeeper's QuorumPacket.
//
//sync:msg Zxid,Type
type Packet struct {
	Type PacketType
	Zxid int64
	From int
	Data string // Proposal: the transaction
}

// Link sends packets to other peers.
type Link interface {
	// Send sends p to peer to; a closed connection loses it.
	//
	//sync:send
	Send(to int, p Packet)
}

// Txn is a logged transaction.
type Txn struct {
	Zxid int64
	Data string
}

// ErrCounterExhausted means the epoch used up its 2^32 zxids: ZooKeeper
// then forces a new election, so that the next epoch starts afresh.
var ErrCounterExhausted = errors.New("zabbcast: zxid counter exhausted, new epoch needed")

// Peer is one server in the broadcast phase.
type Peer struct {
	id, leader, n int
	link          Link
	//sync:inbox
	in      <-chan Packet
	timeout time.Duration

	zxid int64
	step PacketType

	synced    bool  // false once a proposal was missed
	log       []Txn // logged, not necessarily delivered
	delivered []Txn
}

// NewPeer returns peer id of n, whose epoch is led by leader, starting after
// lastZxid.
func NewPeer(id, leader, n int, lastZxid int64, link Link, in <-chan Packet, timeout time.Duration) *Peer {
	return &Peer{id: id, leader: leader, n: n, link: link, in: in, timeout: timeout,
		zxid: lastZxid, step: Commit, synced: true}
}

func (z *Peer) broadcast(p Packet) {
	for to := range z.n {
		z.link.Send(to, p)
	}
}

// Run broadcasts txns (the leader) or follows len(txns) transactions.
func (z *Peer) Run(txns []string) error {
	quorum := z.n/2 + 1
	timer := time.NewTimer(z.timeout)
	defer timer.Stop()

	//sync:tag z.zxid,z.step
	for _, txn := range txns {
		if z.zxid&counterMask == counterMask {
			return ErrCounterExhausted
		}
		z.zxid++
		z.step = Proposal
		if z.id == z.leader {
			z.broadcast(Packet{Type: Proposal, Zxid: z.zxid, From: z.id, Data: txn})
		}

		var props []Packet
		timer.Reset(z.timeout)
	proposals:
		for len(props) == 0 {
			select {
			case p := <-z.in:
				if p.Type != Proposal || p.Zxid < z.zxid {
					continue
				}
				props = append(props, p)
			case <-timer.C:
				break proposals
			}
		}
		if len(props) == 0 {
			z.synced = false // the proposal is lost to us: wait for the next sync
			continue
		}
		if props[0].Zxid > z.zxid {
			z.zxid = props[0].Zxid
			z.synced = false // we missed proposals: wait for the next sync
		}
		if z.synced {
			z.log = append(z.log, Txn{Zxid: z.zxid, Data: props[0].Data})
		}

		z.step = Ack
		if z.synced {
			z.link.Send(z.leader, Packet{Type: Ack, Zxid: z.zxid, From: z.id})
		}
		committed := false
		if z.id == z.leader {
			acks := make(map[int]bool)
			timer.Reset(z.timeout)
		acking:
			for len(acks) < quorum {
				select {
				case p := <-z.in:
					if p.Type != Ack || p.Zxid != z.zxid {
						continue
					}
					acks[p.From] = true
				case <-timer.C:
					break acking
				}
			}
			committed = len(acks) >= quorum
		}

		z.step = Commit
		if committed {
			z.broadcast(Packet{Type: Commit, Zxid: z.zxid, From: z.id})
		}
		var commits []Packet
		timer.Reset(z.timeout)
	commits:
		for len(commits) == 0 {
			select {
			case p := <-z.in:
				if p.Type != Commit || p.Zxid != z.zxid {
					continue
				}
				commits = append(commits, p)
			case <-timer.C:
				break commits
			}
		}
		if len(commits) > 0 && z.synced {
			z.deliverUpTo(z.zxid)
		}
	}
	return nil
}

// deliverUpTo delivers the logged transactions up to zxid, in order: a
// COMMIT also commits every earlier proposal of the epoch.
func (z *Peer) deliverUpTo(zxid int64) {
	for _, t := range z.log[len(z.delivered):] {
		if t.Zxid > zxid {
			break
		}
		z.delivered = append(z.delivered, t)
	}
}

// Delivered returns the delivered transactions; call it after Run.
func (z *Peer) Delivered() []Txn { return z.delivered }
