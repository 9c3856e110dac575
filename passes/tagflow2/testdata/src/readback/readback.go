// Package readback checks that condition III is about what a reception
// writes: a message kept in the mailbox in one round and read back in a
// later round to update the state is an ordinary update, not a store of
// an old message; the message just received, stored in the state with a
// filter that lets old rounds in, is.
package readback

type Step int

const (
	Propose Step = iota
	Commit
)

//sync:msg Seq,Propose
type Proposal struct {
	Seq int
	Val string
}

//sync:msg Seq,Step
type Msg struct {
	Seq  int
	Step Step
	Val  string
}

type Net interface {
	//sync:recv
	RecvProposal() (Proposal, bool)
	//sync:recv
	Recv() (Msg, bool)
	//sync:send
	Send(m Msg)
}

type replica struct {
	seq  int
	step Step
	log  map[int]string
	last string
}

// ReadBack keeps the proposal of round Propose and writes its value in
// round Commit: clean.
func (r *replica) ReadBack(net Net) {
	//sync:tag r.seq,r.step
	for r.seq < 100 {
		r.seq++
		r.step = Propose
		var prop []Proposal
		for len(prop) == 0 {
			m, ok := net.RecvProposal()
			if !ok {
				break
			}
			if m.Seq == r.seq {
				prop = append(prop, m)
			}
		}
		if len(prop) == 0 {
			continue
		}
		r.step = Commit
		net.Send(Msg{Seq: r.seq, Step: Commit})
		r.log[r.seq] = prop[0].Val
	}
}

// Direct writes the value of the message just received into the state,
// after a filter that drops only later rounds: a violation, since ReadBack
// sends Msg in round Commit, and a Commit of an earlier seq can arrive
// while this loop is in round Propose.
func (r *replica) Direct(net Net) {
	//sync:tag r.seq,r.step
	for r.seq < 100 {
		r.seq++
		r.step = Propose
		m, ok := net.Recv()
		if !ok || m.Seq > r.seq {
			continue
		}
		r.last = m.Val // want `condition 3: Msg kept in the state without checking that its tag is >= \(r.seq,r.step\)`
	}
}
