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
