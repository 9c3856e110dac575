// Package mistakes holds deliberate annotation mistakes, so that running
// ccvet on the examples shows what its findings look like. Each comment
// says what is wrong.
package mistakes

// Round is the step inside a ballot.
type Round int

// The rounds, in order.
const (
	Prepare Round = iota
	Ack
)

// Prepare1 maps its tag onto a field it does not have: the field is
// called Ballot.
//
//sync:msg Bal,Prepare
type Prepare1 struct {
	Ballot int
}

// Ack1 carries a ballot but no round, so the loop below, tagged with two
// variables, cannot read a tag from it: write Ballot,Ack or Ballot,_.
//
//sync:msg Ballot
type Ack1 struct {
	Ballot int
}

// Replica is one process.
type Replica struct {
	ballot int
	round  Round
	leader string
	inbox  chan Ack1
}

// Run is the protocol loop.
func (r *Replica) Run() {
	// The leader's name is a string, not a phase or round number.
	//sync:tag r.ballot,r.leader
	for {
		r.ballot++
	}
}

// Collect waits for acknowledgements.
func (r *Replica) Collect() {
	// sync:tag r.ballot,r.round -- the space after // makes this a plain comment
	for {
		r.ballot++
		r.round = Prepare
	}
}

// Wait has a well-formed tag, but the message it receives maps one
// component only.
func (r *Replica) Wait() {
	//sync:tag r.ballot,r.round
	for r.round = Prepare; r.round <= Ack; r.round++ {
		<-r.inbox
	}
}
