// Package chans exercises //sync:peers and //sync:inbox (version 2 of the
// language).
package chans

type Step int

const (
	Prepare Step = iota
	Ack
)

// Msg is a message.
//
//sync:msg Ballot,Step
type Msg struct {
	Ballot int
	Step   Step
}

// Envelope carries a message and its sender.
type Envelope struct {
	From int
	Msg  any
}

// Routed has two integer fields: which is the sender must be said.
type Routed struct {
	From, To int
	Msg      any
}

// BadEnvelope has a sender that is not an integer and a payload that
// cannot be a message.
type BadEnvelope struct {
	From string
	Msg  int
}

// Inbox is a struct of typed channels.
type Inbox struct {
	Msgs chan Msg
	Anys chan any
}

// Valid forms.

type Proc struct {
	//sync:inbox
	in <-chan Msg
	//sync:peers
	peers []chan<- Msg

	envIn    <-chan Envelope   //sync:inbox From,Msg
	envPeers []chan<- Envelope //sync:peers From,Msg // the inboxes, by process

	// byStruct is this process's inbox.
	//
	//sync:inbox
	byStruct *Inbox
	//sync:peers
	structs map[int]*Inbox
	//sync:peers
	array [3]chan Msg
}

// Invalid forms.

type Bad struct {
	//sync:peers // want `//sync:peers: field notTable has type chan<- Msg: want a slice, array or map, indexed by process, of inboxes \(channels, or structs of channels\)`
	notTable chan<- Msg
	//sync:peers // want `//sync:peers: field strKey is a map with key type string: the key must be a process identity, of an integer type`
	strKey map[string]chan Msg
	//sync:inbox // want `//sync:inbox: field notChan has type int: want the process's inbox, a channel, or a struct \(or pointer to a struct\) with channel fields`
	notChan int
	//sync:inbox // want `//sync:inbox: field sendOnly reaches the channel type chan<- Msg, on which the process cannot receive`
	sendOnly chan<- Msg
	//sync:peers // want `//sync:peers: field recvOnly reaches the channel type <-chan Msg, on which the process cannot send`
	recvOnly []<-chan Msg
	// An envelope with one integer field and one message field names
	// neither: they are inferred.
	//sync:inbox
	envNoFields chan Envelope
	//sync:inbox // want `//sync:inbox: field envAmbiguous carries Routed, which is neither a //sync:msg type nor an interface: if it is an envelope, name its sender and message fields \(//sync:inbox From,Msg\)`
	envAmbiguous chan Routed
	//sync:inbox Sender,Msg // want `//sync:inbox: Envelope has no field Sender`
	noSuchField chan Envelope
	//sync:inbox From,Msg // want `//sync:inbox: the sender field From has type string: want an integer type \(a process identity\)`
	badFrom chan BadEnvelope
	//sync:inbox Ballot,Step // want `//sync:inbox: the message field Step has type Step: want a //sync:msg type or an interface`
	badMsg chan Msg
	//sync:inbox From,Msg // want `//sync:inbox: field notEnv carries int, which is not an envelope struct`
	notEnv chan int
	//sync:inbox From // want `malformed //sync:inbox: expected //sync:inbox on a struct field, or //sync:inbox From,Msg naming the sender and message fields of the envelope its channels carry`
	oneName chan Envelope
	//sync:peers // want `//sync:peers must annotate a field with exactly one name`
	a, b []chan Msg
	//sync:inbox
	//sync:inbox // want `field twice is already annotated //sync:inbox`
	twice chan Msg
}

//sync:inbox // want `//sync:inbox is attached to no struct field: put it in the doc comment of the field, or at the end of its line`
var loose chan Msg
