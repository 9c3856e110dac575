package zabheader

import "slices"

// Step is the round of an epoch, in execution order: the recovery steps
// run at counter 0, the broadcast steps once per transaction.
type Step uint8

// The steps of Zab.
const (
	NewEpoch  Step = iota // the prospective leader announces its epoch
	AckEpoch              // followers promise it and send their history
	NewLeader             // the leader sends the freshest history of a quorum
	AckLeader             // followers adopt it: a quorum establishes the leader
	Propose               // the leader proposes the transaction of the counter
	Ack                   // followers log it and acknowledge it
	Commit                // the leader, acknowledged by a quorum, commits it
)

// Zxid is ZooKeeper's transaction id: an epoch and a counter in it.
type Zxid struct {
	Epoch   uint32
	Counter uint32
}

// Header starts every packet: the round it belongs to and its sender.
type Header struct {
	Zxid Zxid
	Step Step
	From int
}

// Txn is a transaction of the replicated history.
type Txn struct {
	Zxid Zxid
	Data string
}

// Packet is every message of the protocol; its header says which round it
// belongs to. Which other fields are set depends on Hdr.Step.
//
//sync:msg Hdr.Zxid.Epoch,Hdr.Zxid.Counter,Hdr.Step
type Packet struct {
	Hdr      Header
	Accepted uint32 // AckEpoch: the epoch of the sender's last NEWLEADER
	History  []Txn  // AckEpoch, NewLeader
	Txn      Txn    // Propose
}

// Envelope is a packet on its way to peer To.
type Envelope struct {
	To  int
	Pkt Packet
}

// Peer is one Zab server, leader or follower.
//
//sync:tag zxid.Epoch,zxid.Counter,step
type Peer struct {
	id, n  int
	outbox []Envelope

	// zxid.Epoch is the epoch this peer promised last (ZooKeeper's
	// acceptedEpoch); zxid.Counter the transaction being replicated.
	zxid Zxid
	step Step

	leader       int    // the leader of zxid.Epoch, -1 if none
	currentEpoch uint32 // the epoch of the last NEWLEADER adopted
	history      []Txn
	committed    int  // history[:committed] is committed
	synced       bool // follower: adopted the NEWLEADER of zxid.Epoch
	established  bool // leader: a quorum adopted its NEWLEADER

	acks map[int]Packet // leader: the mailbox of the current round
}

// NewPeer returns peer id of n with an empty history.
func NewPeer(id, n int) *Peer {
	return &Peer{id: id, n: n, leader: -1, acks: map[int]Packet{}}
}

// send sends body to peer to, with the header of the current round.
//
//sync:send stamps
func (p *Peer) send(to int, body Packet) {
	body.Hdr = Header{Zxid: p.zxid, Step: p.step, From: p.id}
	p.outbox = append(p.outbox, Envelope{To: to, Pkt: body})
}

func (p *Peer) broadcast(body Packet) {
	for q := range p.n {
		if q != p.id {
			p.send(q, body)
		}
	}
}

// Lead makes the peer try to lead the next epoch; the leader election that
// picks it is the driver's. Followers that promised a later epoch ignore
// it, and the driver tries again.
//
//sync:handler
func (p *Peer) Lead() {
	p.zxid = Zxid{Epoch: p.zxid.Epoch + 1}
	p.step = NewEpoch
	p.leader = p.id
	p.synced, p.established = false, false
	p.broadcast(Packet{})
	p.step = AckEpoch
	p.acks = map[int]Packet{p.id: {Accepted: p.currentEpoch, History: slices.Clone(p.history)}}
}

// Propose starts the replication of a transaction; it returns false unless
// the peer is an established leader with no transaction in flight.
//
//sync:handler
func (p *Peer) Propose(data string) bool {
	if p.leader != p.id || !p.established || p.step == Ack {
		return false
	}
	p.zxid.Counter++
	p.step = Propose
	txn := Txn{Zxid: p.zxid, Data: data}
	p.history = append(p.history, txn)
	p.broadcast(Packet{Txn: txn})
	p.step = Ack
	p.acks = map[int]Packet{p.id: {}}
	return true
}

// LeaderTimeout tells a follower that its leader has been silent too long:
// it stops following it until a new leader syncs it.
//
//sync:handler
func (p *Peer) LeaderTimeout() {
	if p.leader == p.id {
		return
	}
	p.synced = false
	p.leader = -1
}

// Receive handles one packet from another peer.
//
//sync:handler
func (p *Peer) Receive(m Packet) {
	switch m.Hdr.Step {
	case NewEpoch:
		p.onNewEpoch(m)
	case AckEpoch:
		p.onAckEpoch(m)
	case NewLeader:
		p.onNewLeader(m)
	case AckLeader:
		p.onAckLeader(m)
	case Propose:
		p.onPropose(m)
	case Ack:
		p.onAck(m)
	case Commit:
		p.onCommit(m)
	}
}

func (p *Peer) onNewEpoch(m Packet) {
	if m.Hdr.Zxid.Epoch <= p.zxid.Epoch {
		return // we promised this epoch or a later one already
	}
	p.zxid, p.step = m.Hdr.Zxid, NewEpoch
	p.leader = m.Hdr.From
	p.synced, p.established = false, false
	p.acks = map[int]Packet{}
	p.step = AckEpoch
	p.send(p.leader, Packet{Accepted: p.currentEpoch, History: slices.Clone(p.history)})
}

func (p *Peer) onAckEpoch(m Packet) {
	if p.leader != p.id || m.Hdr.Zxid != p.zxid || p.step != AckEpoch {
		return
	}
	p.acks[m.Hdr.From] = m
	if len(p.acks) <= p.n/2 {
		return
	}
	p.history = freshest(p.acks)
	p.acks = map[int]Packet{p.id: {}}
	p.step = NewLeader
	p.currentEpoch = p.zxid.Epoch
	p.broadcast(Packet{History: slices.Clone(p.history)})
	p.step = AckLeader
}

// freshest returns the history of the quorum adopted in the latest epoch,
// the longest among those: it holds every committed transaction.
func freshest(acks map[int]Packet) []Txn {
	var best Packet
	found := false
	for _, a := range acks {
		if !found || a.Accepted > best.Accepted || a.Accepted == best.Accepted && len(a.History) > len(best.History) {
			best, found = a, true
		}
	}
	return slices.Clone(best.History)
}

func (p *Peer) onNewLeader(m Packet) {
	later := m.Hdr.Zxid.Epoch > p.zxid.Epoch
	if !later && (m.Hdr.Zxid != p.zxid || m.Hdr.From != p.leader || p.step != AckEpoch) {
		return // the NEWLEADER of an old epoch, or one we adopted already
	}
	if later {
		// The leader of a later epoch, whose NEWEPOCH we missed: we can
		// follow it, since we adopt its history whole and move to its
		// epoch, so we will not promise an earlier one again.
		p.zxid, p.step = m.Hdr.Zxid, NewLeader
		p.leader = m.Hdr.From
		p.established = false
		p.acks = map[int]Packet{}
	}
	p.step = NewLeader
	p.history = slices.Clone(m.History)
	p.currentEpoch = p.zxid.Epoch
	p.synced = true
	p.step = AckLeader
	p.send(p.leader, Packet{})
}

func (p *Peer) onAckLeader(m Packet) {
	if p.leader != p.id || m.Hdr.Zxid != p.zxid || p.step != AckLeader {
		return
	}
	p.acks[m.Hdr.From] = m
	if len(p.acks) > p.n/2 && !p.established {
		p.established = true
		p.committed = len(p.history)
	}
}

func (p *Peer) onPropose(m Packet) {
	if m.Hdr.From != p.leader || !p.synced || m.Hdr.Zxid.Epoch != p.zxid.Epoch || m.Hdr.Zxid.Counter != p.zxid.Counter+1 {
		return // not the next proposal of the leader we are synced with
	}
	p.zxid, p.step = m.Hdr.Zxid, Propose
	p.history = append(p.history, m.Txn)
	p.step = Ack
	p.send(p.leader, Packet{})
}

func (p *Peer) onAck(m Packet) {
	if p.leader != p.id || m.Hdr.Zxid != p.zxid || p.step != Ack {
		return
	}
	p.acks[m.Hdr.From] = m
	if len(p.acks) <= p.n/2 {
		return
	}
	p.acks = map[int]Packet{}
	p.step = Commit
	p.committed = len(p.history)
	p.broadcast(Packet{})
}

func (p *Peer) onCommit(m Packet) {
	if m.Hdr.From != p.leader || m.Hdr.Zxid != p.zxid || p.step != Ack {
		return // not the commit of the proposal we logged last
	}
	p.step = Commit
	p.committed = len(p.history)
}

// Outbox returns the packets sent since the last call.
func (p *Peer) Outbox() []Envelope {
	out := p.outbox
	p.outbox = nil
	return out
}

// Committed returns a copy of the committed prefix of the history.
func (p *Peer) Committed() []Txn { return slices.Clone(p.history[:p.committed]) }

// Established reports whether the peer is the established leader of its
// epoch.
func (p *Peer) Established() bool { return p.leader == p.id && p.established }

// Epoch returns the epoch the peer promised last.
func (p *Peer) Epoch() uint32 { return p.zxid.Epoch }
