// Package perkind is about handlers per message kind: the driver calls
// OnPromise only with promises, which the code does not say unless the
// handler's directive does (//sync:handler Kind==Promise).
package perkind

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
	epoch    uint64
	step     Kind
	promises map[int]bool
	out      []Msg
}

// stamp sends m with the process's epoch; the kind is the caller's.
//
//sync:send stamps
func (n *Node) stamp(m Msg) {
	m.Epoch = n.epoch
	n.out = append(n.out, m)
}

// stampUnset puts the epoch on a message built without one only: a
// message built with an epoch keeps it.
//
//sync:send stamps
func (n *Node) stampUnset(m Msg) {
	if m.Epoch == 0 {
		m.Epoch = n.epoch
	}
	n.out = append(n.out, m)
}

// RenewOld sends a promise of the epoch before its own through it.
//
//sync:handler
func (n *Node) RenewOld() {
	if n.step != Promise || n.epoch == 0 {
		return
	}
	n.stampUnset(Msg{Epoch: n.epoch - 1, Kind: Promise}) // want `^cannot prove 2: Msg may be sent with a tag other than the current one \(epoch,step\)$`
}

// Renew sends a promise of its epoch while promising.
//
//sync:handler
func (n *Node) Renew() {
	if n.step != Promise {
		return
	}
	n.stamp(Msg{Kind: Promise})
}

// RenewPrepare sends a prepare while promising: the stamping send puts
// the epoch on, not the kind.
//
//sync:handler
func (n *Node) RenewPrepare() {
	if n.step != Promise {
		return
	}
	n.stamp(Msg{Kind: Prepare}) // want `cannot prove 2: Msg may be sent with a tag other than the current one \(epoch,step\)`
}

// OnPromise counts a promise of the current epoch.
//
//sync:handler Kind==Promise
func (n *Node) OnPromise(m Msg) {
	if m.Epoch != n.epoch || n.step != Promise {
		return
	}
	n.promises[m.From] = true
}

// OnAnyPromise is OnPromise without the condition: a message of another
// kind of the epoch, earlier or later, may count, for all the code says.
//
//sync:handler
func (n *Node) OnAnyPromise(m Msg) {
	if m.Epoch != n.epoch || n.step != Promise {
		return
	}
	n.promises[m.From] = true // want `cannot prove 3: the state changes while the received Msg may be of an earlier round than \(epoch,step\) was when the handler was called: such a message must leave the state unchanged \(if the driver hands this handler one kind of Msg only, say which: //sync:handler Kind==\.\.\.\)$`
} // want `cannot prove 4: the process returns while a Msg that may be of a later round is kept, without a jump to its round first`
