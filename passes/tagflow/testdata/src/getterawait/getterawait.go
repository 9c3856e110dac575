// Package getterawait: a generic receive helper handed a filter literal
// that reads the tag through a nil-safe getter (protoc-gen-go's): the paths
// where the message is nil and those where it is not are not joined.
package getterawait

import "context"

// Step is a step of a term.
type Step int

const (
	StepPrepare Step = iota
	StepVote
	StepCommit
)

// Prepare opens a term.
//
//sync:msg Term,StepPrepare
type Prepare struct{ Term int64 }

// GetTerm is the getter protoc-gen-go generates.
func (x *Prepare) GetTerm() int64 {
	if x != nil {
		return x.Term
	}
	return 0
}

// Commit closes a term.
//
//sync:msg Term,StepCommit
type Commit struct {
	Term int64
	Ok   bool
}

// GetTerm is the getter protoc-gen-go generates.
func (x *Commit) GetTerm() int64 {
	if x != nil {
		return x.Term
	}
	return 0
}

// Transport carries messages.
type Transport interface {
	//sync:recv
	Recv(ctx context.Context) (m any, err error)
}

// Node is a participant.
type Node struct {
	term     int64
	step     Step
	tr       Transport
	Outcomes map[int64]bool
}

func await[T any](ctx context.Context, n *Node, keep func(T) bool) (T, bool) {
	for {
		raw, err := n.tr.Recv(ctx)
		if err != nil {
			var zero T
			return zero, false
		}
		m, ok := raw.(T)
		if !ok || !keep(m) {
			continue
		}
		return m, true
	}
}

// Run keeps the Commit of its term only.
func (n *Node) Run(ctx context.Context) {
	//sync:tag n.term,n.step
	for {
		n.term++
		n.step = StepPrepare
		_, got := await(ctx, n, func(m *Prepare) bool { return m.GetTerm() == n.term })
		n.step = StepCommit
		c, gotC := await(ctx, n, func(m *Commit) bool { return m.GetTerm() == n.term })
		if got && gotC {
			n.Outcomes[n.term] = c.Ok
		}
	}
}

// Stale keeps Commits of earlier terms too.
func (n *Node) Stale(ctx context.Context) {
	//sync:tag n.term,n.step
	for {
		n.term++
		n.step = StepCommit
		c, gotC := await(ctx, n, func(m *Commit) bool { return m.GetTerm() <= n.term })
		if gotC {
			n.Outcomes[n.term] = c.Ok // want `condition 3: Commit stored without checking that its tag is >= \(n.term,n.step\): a message of an earlier round can get in`
		}
	}
}
