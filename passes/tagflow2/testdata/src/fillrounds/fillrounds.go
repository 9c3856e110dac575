// Package fillrounds is about mailbox fields filled in one round only:
// promises is filled only while the step is Promise, so it is empty in
// Prepare, and moving from Prepare to Promise carries nothing over;
// leaving Promise without emptying it does. seen, data of messages that is
// only looked up (never counted), is state, not a mailbox.
package fillrounds

type Kind int

const (
	Prepare Kind = iota
	Promise
	Grant
)

//sync:msg Epoch,Kind
type Msg struct {
	Epoch uint64
	Kind  Kind
	From  int
	Value string
}

//sync:tag epoch,step
type Node struct {
	epoch    uint64
	step     Kind
	promises map[int]bool
	quorum   bool
	seen     map[string]bool
}

// OnPrepare promises the current epoch: from Prepare to Promise, with
// promises empty in Prepare.
//
//sync:handler Kind==Prepare
func (n *Node) OnPrepare(m Msg) {
	if m.Epoch != n.epoch || n.step != Prepare {
		return
	}
	n.step = Promise
}

// OnPromise counts promises while in Promise.
//
//sync:handler Kind==Promise
func (n *Node) OnPromise(m Msg) {
	if m.Epoch != n.epoch || n.step != Promise {
		return
	}
	n.promises[m.From] = true
	if len(n.promises) >= 2 {
		n.quorum = true
	}
	n.seen[m.Value] = true
}

// Seen reports whether a promise carried v.
func (n *Node) Seen(v string) bool { return n.seen[v] }

// OnGrant moves on to Grant and forgets to empty promises, which may hold
// the promises of the epoch.
//
//sync:handler Kind==Grant
func (n *Node) OnGrant(m Msg) {
	if m.Epoch != n.epoch || n.step != Promise {
		return
	}
	n.step = Grant
} // want `cannot prove 3: the tag changes while promises, filled from received messages, is not emptied: if it counts what the round received \(a mailbox\), empty it when the tag changes`

// Seeded is Node with a constructor that puts its own promise in at the
// start: promises may hold something in Prepare, whatever the handlers
// do, so moving to Promise without emptying it is "cannot prove".
//
//sync:tag epoch,step
type Seeded struct {
	id       int
	epoch    uint64
	step     Kind
	promises map[int]bool
}

// NewSeeded promises itself.
func NewSeeded(id int) *Seeded {
	s := &Seeded{id: id, promises: map[int]bool{}}
	s.promises[id] = true
	return s
}

// OnPrepare is Node's.
//
//sync:handler Kind==Prepare
func (n *Seeded) OnPrepare(m Msg) {
	if m.Epoch != n.epoch || n.step != Prepare {
		return
	}
	n.step = Promise
} // want `cannot prove 3: the tag changes while promises, filled from received messages, is not emptied: if it counts what the round received \(a mailbox\), empty it when the tag changes`

// OnPromise is Node's.
//
//sync:handler Kind==Promise
func (n *Seeded) OnPromise(m Msg) {
	if m.Epoch != n.epoch || n.step != Promise {
		return
	}
	n.promises[m.From] = true
	if len(n.promises) >= 2 {
		n.step = Grant
		n.promises = map[int]bool{}
	}
}
