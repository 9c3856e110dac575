// Package nestedgetter: a message whose tag is in a nested header, read
// through the nil-safe getters protoc-gen-go generates
// (v.GetHdr().GetTerm()). A nil header makes the getters return 0, so the
// paths that compared a zero term and those that compared the header's
// are different paths: joined, the term compared on the second was lost
// and the filter could not be proved.
package nestedgetter

// Step is a step of a term.
type Step int32

const (
	StepPrepare Step = iota
	StepVote
)

// Header is the tag of every message.
type Header struct {
	Term int64
	Step Step
}

// GetTerm is the getter protoc-gen-go generates.
func (x *Header) GetTerm() int64 {
	if x != nil {
		return x.Term
	}
	return 0
}

// GetStep is the getter protoc-gen-go generates.
func (x *Header) GetStep() Step {
	if x != nil {
		return x.Step
	}
	return 0
}

// Vote is a participant's vote.
//
//sync:msg Hdr.Term,Hdr.Step
type Vote struct {
	Hdr  *Header
	From int32
	Yes  bool
}

// GetHdr is the getter protoc-gen-go generates.
func (x *Vote) GetHdr() *Header {
	if x != nil {
		return x.Hdr
	}
	return nil
}

// Node is a participant.
type Node struct {
	term int64
	step Step
	in   chan *Vote
}

// Filter compares the term, then the step, through the getters.
func (n *Node) Filter() {
	//sync:tag n.term,n.step
	for {
		n.term++
		n.step = StepVote
		votes := make(map[int32]bool)
		for range 3 {
			v := <-n.in
			if v.GetHdr().GetTerm() != n.term || v.GetHdr().GetStep() != n.step {
				continue
			}
			votes[v.From] = v.Yes
		}
		_ = votes
	}
}

// HeaderFirst keeps the header in a variable first.
func (n *Node) HeaderFirst() {
	//sync:tag n.term,n.step
	for {
		n.term++
		n.step = StepVote
		votes := make(map[int32]bool)
		for range 3 {
			v := <-n.in
			if h := v.GetHdr(); h.GetTerm() != n.term || h.GetStep() != n.step {
				continue
			}
			votes[v.From] = v.Yes
		}
		_ = votes
	}
}

// StepOnly forgets the term: a vote of an older term is counted.
func (n *Node) StepOnly() {
	//sync:tag n.term,n.step
	for {
		n.term++
		n.step = StepVote
		votes := make(map[int32]bool)
		for range 3 {
			v := <-n.in
			if v.GetHdr().GetStep() != n.step {
				continue
			}
			votes[v.From] = v.Yes // want `condition 3: Vote stored without checking that its tag is >= \(n.term,n.step\): a message of an earlier round can get in`
		}
		_ = votes
	}
}
