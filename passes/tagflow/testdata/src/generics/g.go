// Package generics checks receptions and sends in generic helpers: each
// instance is interpreted for its type arguments (a receive of a T that is
// a message is a reception), and a filter handed to the helper as a
// function literal is followed with its free variables bound in the
// caller. A receiver that a closure captures lives in a heap cell; what is
// written through it is still the process state (captured.go).
package generics

type Step int

const CastVote Step = 0

//sync:msg Term,CastVote
type VoteResp struct {
	Term    int
	Granted bool
}

func collect[T any](ch chan T, keep func(T) bool) []T {
	var out []T
	for range 3 {
		m := <-ch
		if keep(m) {
			out = append(out, m)
		}
	}
	return out
}

func collectStale[T any](ch chan T, keep func(T) bool) []T {
	var out []T
	for range 3 {
		m := <-ch
		if keep(m) {
			out = append(out, m) // want `condition 3: VoteResp stored without checking that its tag is >= \(n.term,n.step\): a message of an earlier round can get in`
		}
	}
	return out
}

func collectLater[T any](ch chan T, keep func(T) bool) []T {
	var out []T
	for range 3 {
		m := <-ch
		if keep(m) {
			out = append(out, m)
		}
	}
	return out
}

type Node struct {
	term   int
	step   Step
	leader bool
	in     chan VoteResp
}

// The filter keeps the responses of the current term.
func (n *Node) Current() {
	//sync:tag n.term,n.step
	for {
		n.term++
		n.step = CastVote
		resps := collect(n.in, func(m VoteResp) bool { return m.Term == n.term })
		if len(resps) > 2 {
			n.leader = true
		}
	}
}

// The filter keeps responses of earlier terms.
func (n *Node) Stale() {
	//sync:tag n.term,n.step
	for {
		n.term++
		n.step = CastVote
		resps := collectStale(n.in, func(m VoteResp) bool { return m.Term <= n.term })
		if len(resps) > 2 {
			n.leader = true
		}
	}
}

// The filter keeps responses of later terms, and the node becomes leader
// without moving to their term.
func (n *Node) Later() {
	//sync:tag n.term,n.step
	for {
		n.term++
		n.step = CastVote
		resps := collectLater(n.in, func(m VoteResp) bool { return m.Term >= n.term })
		if len(resps) > 2 {
			n.leader = true // want `condition 4: this update of n.leader is reached while the mailbox may hold a VoteResp of a later round \(stored at line 46\) and the tag has not jumped to it`
		}
	}
}
