package chubbylease

// Step is the round of the tag inside one epoch.
type Step int

// The steps of an epoch, in execution order.
const (
	// Prepare: the epoch's candidate asks for promises.
	Prepare Step = iota
	// Promise: replicas promise to ignore earlier epochs.
	Promise
	// Grant: the candidate asks a majority to honour its lease.
	Grant
	// Ack: replicas honour the lease; a majority of acks makes a master.
	Ack
)

// Msg is the one message of the election. Kind is the step it belongs to.
//
//sync:msg Epoch,Kind
type Msg struct {
	Kind  Step
	Epoch uint64
	From  int
	Lease int // Grant: the lease length in ticks
}

// Transport delivers messages between cells' replicas.
type Transport interface {
	// Send sends m to replica to.
	//
	//sync:send
	Send(to int, m Msg)
}
