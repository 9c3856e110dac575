// Package structtag keeps two components of its tag in one struct, as Zab
// keeps its zxid, and so do its messages: a test of the whole struct
// (m.Hdr.Zxid != p.zxid) and a jump that assigns it whole (p.zxid =
// m.Hdr.Zxid) are read component by component.
package structtag

type Step int

const (
	NewEpoch Step = iota
	AckEpoch
)

type Zxid struct {
	Epoch, Counter uint32
}

type Header struct {
	Zxid Zxid
	Step Step
	From int
}

//sync:msg Hdr.Zxid.Epoch,Hdr.Zxid.Counter,Hdr.Step
type Packet struct {
	Hdr  Header
	Data string
}

type Net interface {
	//sync:send
	Send(to int, m Packet)
}

//sync:tag zxid.Epoch,zxid.Counter,step
type Peer struct {
	net    Net
	zxid   Zxid
	step   Step
	leader int
	acks   map[int]string
}

// OnNewEpoch follows the leader of a later epoch: it jumps to the
// message's zxid whole.
//
//sync:handler Hdr.Step==NewEpoch
func (p *Peer) OnNewEpoch(m Packet) {
	if m.Hdr.Zxid.Epoch <= p.zxid.Epoch {
		return
	}
	p.zxid, p.step = m.Hdr.Zxid, NewEpoch
	p.leader = m.Hdr.From
	p.acks = map[int]string{}
	p.step = AckEpoch
	p.net.Send(p.leader, Packet{Hdr: Header{Zxid: p.zxid, Step: p.step}})
}

// OnAckEpoch counts the acks of the current zxid.
//
//sync:handler Hdr.Step==AckEpoch
func (p *Peer) OnAckEpoch(m Packet) {
	if m.Hdr.Zxid != p.zxid || p.step != AckEpoch {
		return
	}
	p.acks[m.Hdr.From] = m.Data
}

// OnAckEpochLoose counts acks of the current epoch: one of an earlier
// transaction of it gets in.
//
//sync:handler Hdr.Step==AckEpoch
func (p *Peer) OnAckEpochLoose(m Packet) {
	if m.Hdr.Zxid.Epoch != p.zxid.Epoch || p.step != AckEpoch {
		return
	}
	p.acks[m.Hdr.From] = m.Data // want `condition 3: the state changes while the received Packet may be of an earlier round than \(zxid.Epoch,zxid.Counter,step\) was when the handler was called: such a message must leave the state unchanged`
} // want `condition 4: the process returns while a Packet of a later round can be kept, without a jump to its round first`
