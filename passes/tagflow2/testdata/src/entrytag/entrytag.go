// Package entrytag is about condition III in handlers that move their own
// tag: a received message must leave the state unchanged when it is of an
// earlier round than the process was in when it got it, not than the
// round the handler itself moved to since.
package entrytag

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
}

//sync:tag epoch,step
type Node struct {
	epoch     uint64
	step      Kind
	promises  map[int]bool
	grantedAt int
	now       int
}

// OnPromise counts a promise of the current epoch; with two it moves on
// to Grant, and what it writes after that is still about a message of
// the round it was in.
//
//sync:handler Kind==Promise
func (n *Node) OnPromise(m Msg) {
	if m.Epoch != n.epoch || n.step != Promise {
		return
	}
	n.promises[m.From] = true
	if len(n.promises) < 2 {
		return
	}
	n.step = Grant
	n.promises = map[int]bool{}
	n.grantedAt = n.now
}

// OnLatePromise moves to Grant on any promise, which may be of an
// earlier epoch, and then writes from it: the comparison after the move
// does not vouch for the message at the entry.
//
//sync:handler Kind==Promise
func (n *Node) OnLatePromise(m Msg) {
	if n.step != Promise {
		return
	}
	n.step = Grant
	n.promises = map[int]bool{} // want `cannot prove 3: the state changes while the received Msg may be of an earlier round than \(epoch,step\) was when the handler was called: such a message must leave the state unchanged`
	if m.Epoch > n.epoch {
		return
	}
	n.grantedAt = m.From // want `cannot prove 3: the state changes while the received Msg may be of an earlier round than \(epoch,step\) was when the handler was called: such a message must leave the state unchanged`
}

// OnPrepare joins a later epoch (a jump) before it writes: the message
// is then of a later round than the entry, and writing is allowed.
//
//sync:handler Kind==Prepare
func (n *Node) OnPrepare(m Msg) {
	if m.Epoch <= n.epoch {
		return
	}
	n.epoch, n.step = m.Epoch, Prepare
	n.promises = map[int]bool{}
	n.step = Promise
	n.grantedAt = m.From
}

// OnLaterPrepare joins a later epoch and empties promises with clear.
//
//sync:handler Kind==Prepare
func (n *Node) OnLaterPrepare(m Msg) {
	if m.Epoch <= n.epoch {
		return
	}
	n.epoch, n.step = m.Epoch, Prepare
	clear(n.promises)
}
