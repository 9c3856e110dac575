// Package earlymbox: a follower that keeps early Commits (a later round)
// while it waits for the Proposal, then jumps to the Proposal only. Paths
// that stored Proposals of this epoch and of a later one used to be one
// state (what is known of a mailbox's messages was not part of a state's
// identity), and the one explored, with the later epoch, hid the other.
package earlymbox

// Step is a step of a zxid.
type Step int

const (
	Propose Step = iota
	Ack
	Commit
)

// Proposal proposes a transaction.
//
//sync:msg Epoch,Zxid,Propose
type Proposal struct{ Epoch, Zxid int }

// AckMsg acknowledges it.
//
//sync:msg Epoch,Zxid,Ack
type AckMsg struct{ Epoch, Zxid int }

// CommitMsg commits it.
//
//sync:msg Epoch,Zxid,Commit
type CommitMsg struct{ Epoch, Zxid int }

// Peer is a follower.
type Peer struct {
	epoch, zxid int
	step        Step
	in          chan any
	out         chan AckMsg
}

// Run keeps the early Commits.
func (p *Peer) Run() {
	//sync:tag p.epoch,p.zxid,p.step
	for {
		p.zxid++
		p.step = Propose
		var prop *Proposal
		var early []CommitMsg
		for prop == nil {
			raw := <-p.in
			if c, ok := raw.(CommitMsg); ok && c.Epoch == p.epoch && c.Zxid >= p.zxid {
				early = append(early, c)
				continue
			}
			m, ok := raw.(Proposal)
			if !ok || m.Epoch < p.epoch || (m.Epoch == p.epoch && m.Zxid < p.zxid) {
				continue
			}
			prop = &m
		}
		p.epoch, p.zxid = prop.Epoch, prop.Zxid
		p.step = Ack
		p.out <- AckMsg{Epoch: p.epoch, Zxid: p.zxid} // want `cannot prove 4: cannot tell that the tag jumped to the latest round of the mailbox before send: it is set at line 60 from a Proposal, and the mailbox may also hold a CommitMsg of a later round`
		for _, c := range early {
			if c.Zxid == p.zxid {
				p.step = Commit
			}
		}
	}
}
