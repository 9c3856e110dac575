// Package envdata checks a field of the envelope a message came in (its
// sender) written to the process state: data of that message, as its
// own fields are.
package envdata

type Step int

const (
	Vote Step = iota
	Lead
)

//sync:msg Term,Lead
type Heartbeat struct{ Term, Commit int }

//sync:msg Term,Vote
type RequestVote struct{ Term int }

type Envelope struct {
	From int
	Msg  any
}

type Node struct {
	id, term int
	step     Step
	leader   int
	votedFor int
	in       chan Envelope
	out      chan Envelope
}

// The heartbeat of a later term is followed without adopting its term: the
// leader is taken from the envelope.
func (nd *Node) NoJump() {
	nd.step = Vote
	//sync:tag nd.term,nd.step
	for {
		e := <-nd.in
		switch m := e.Msg.(type) {
		case Heartbeat:
			if m.Term < nd.term {
				continue
			}
			nd.leader = e.From // want `cannot prove 4: cannot tell that the tag jumps to the round of the Heartbeat stored here, which may be a later one`
		case RequestVote:
			nd.out <- Envelope{From: nd.id, Msg: RequestVote{Term: nd.term}}
		}
	}
}

// The same with the jump first.
func (nd *Node) Jump() {
	nd.step = Vote
	//sync:tag nd.term,nd.step
	for {
		e := <-nd.in
		switch m := e.Msg.(type) {
		case Heartbeat:
			if m.Term < nd.term {
				continue
			}
			nd.term, nd.step = m.Term, Lead
			nd.leader = e.From
		case RequestVote:
			if nd.step != Vote {
				continue
			}
			nd.out <- Envelope{From: nd.id, Msg: RequestVote{Term: nd.term}}
		}
	}
}

// A vote recorded from a request of any term.
func (nd *Node) Stale() {
	nd.step = Vote
	//sync:tag nd.term,nd.step
	for {
		e := <-nd.in
		if _, ok := e.Msg.(RequestVote); ok {
			nd.votedFor = e.From // want `condition 3: RequestVote stored without checking that its tag is >= \(nd.term,nd.step\): a message of an earlier round can get in`
		}
		nd.out <- Envelope{From: nd.id, Msg: RequestVote{Term: nd.term}}
	}
}
