// Package underlock checks tag writes made in function literals that a
// helper of the package runs (the "run under the lock" helper), and
// filters through nil-safe getters as protoc-gen-go writes them.
package underlock

import "sync"

//sync:msg View
type Forward struct{ View int }

type state struct{ view, n int }

type Backup struct {
	mu  sync.Mutex
	st  *state
	in  chan Forward
	out chan Forward
}

// with runs f under the lock.
func (b *Backup) with(f func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	f()
}

// The increment and the jump are made under the lock.
func (b *Backup) Jumps() {
	//sync:tag b.st.view
	for {
		b.with(func() { b.st.view++ })
		b.out <- Forward{View: b.st.view}
		var fwd *Forward
		for fwd == nil {
			f := <-b.in
			if f.View < b.st.view {
				continue
			}
			fwd = &f
		}
		b.with(func() { b.st.view = fwd.View })
		b.out <- Forward{View: b.st.view}
	}
}

// The literal run under the lock counts instead of jumping.
func (b *Backup) Counts() {
	//sync:tag b.st.view
	for {
		b.with(func() { b.st.view++ })
		b.out <- Forward{View: b.st.view}
		var fwd *Forward
		for fwd == nil {
			f := <-b.in
			if f.View < b.st.view {
				continue
			}
			fwd = &f
		}
		b.with(func() { b.st.n++ })
		b.out <- Forward{View: b.st.view} // want `condition 4: this send is reached while the mailbox may hold a Forward of a later round \(stored at line 58\)`
	}
}

//sync:msg Term
type Vote struct {
	Term int64
	From int32
	Yes  bool
}

// GetTerm is the getter protoc-gen-go generates.
func (x *Vote) GetTerm() int64 {
	if x != nil {
		return x.Term
	}
	return 0
}

type Node struct {
	term int64
	in   chan *Vote
}

// The getter's nil branch returns 0; a nil vote is not one of the term's
// (and reading its From would panic).
func (n *Node) Getter() {
	//sync:tag n.term
	for {
		n.term++
		votes := make(map[int32]bool)
		for range 3 {
			v := <-n.in
			if v.GetTerm() != n.term {
				continue
			}
			votes[v.From] = v.Yes
		}
		_ = votes
	}
}

// A getter compared the wrong way lets older votes in.
func (n *Node) GetterStale() {
	//sync:tag n.term
	for {
		n.term++
		votes := make(map[int32]bool)
		for range 3 {
			v := <-n.in
			if v.GetTerm() > n.term {
				continue
			}
			votes[v.From] = v.Yes // want `condition 3: Vote stored without checking that its tag is >= \(n.term\)`
		}
		_ = votes
	}
}
