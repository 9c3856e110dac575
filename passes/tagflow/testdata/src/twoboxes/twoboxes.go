// Package twoboxes checks the jump when one reception fills two mailboxes
// of different message types: it must reach the maximum over both.
package twoboxes

type Step int

const (
	Propose Step = iota
	Ack
)

//sync:msg Zxid,Propose
type Proposal struct{ Zxid int }

//sync:msg Zxid,Propose
type Hint struct{ Zxid int }

//sync:msg Zxid,Ack
type AckMsg struct{ Zxid int }

type Peer struct {
	zxid int
	step Step
	in   chan any
	out  chan AckMsg
}

// The jump follows the proposal; a hint of a later zxid may be stored.
func (p *Peer) ProposalOnly() {
	p.step = Propose
	//sync:tag p.zxid,p.step
	for {
		p.zxid++
		p.step = Propose
		var prop *Proposal
		var hints []Hint
		for prop == nil {
			switch m := (<-p.in).(type) {
			case Proposal:
				if m.Zxid < p.zxid {
					continue
				}
				prop = &m
			case Hint:
				if m.Zxid < p.zxid {
					continue
				}
				hints = append(hints, m)
			}
		}
		p.zxid = prop.Zxid
		p.step = Ack
		p.out <- AckMsg{Zxid: p.zxid} // want `cannot prove 4: cannot tell that the tag jumped to the latest round of the mailbox before send: it is set at line 51 from a Proposal, and the mailbox may also hold a Hint of a later round`
		_ = hints
	}
}

// Hints of the current zxid only: the proposal's is the latest.
func (p *Peer) CurrentHints() {
	p.step = Propose
	//sync:tag p.zxid,p.step
	for {
		p.zxid++
		p.step = Propose
		var prop *Proposal
		var hints []Hint
		for prop == nil {
			switch m := (<-p.in).(type) {
			case Proposal:
				if m.Zxid < p.zxid {
					continue
				}
				prop = &m
			case Hint:
				if m.Zxid != p.zxid {
					continue
				}
				hints = append(hints, m)
			}
		}
		p.zxid = prop.Zxid
		p.step = Ack
		p.out <- AckMsg{Zxid: p.zxid}
		_ = hints
	}
}
