// Package facts declares annotated messages and functions; the test checks
// the facts they export.
package facts

type Step int

const (
	Prepare Step = iota - 1
	Ack
)

// Msg is a message.
//
//sync:msg Ballot,Step
type Msg struct { // want Msg:`msg\(Ballot,Step\)`
	Ballot int
	Step   Step
}

// Neg maps its round to a negative constant.
//
//sync:msg Ballot,Prepare
type Neg struct{ Ballot int } // want Neg:`msg\(Ballot,Prepare\)`

// Send sends.
//
//sync:send
func Send(m Msg) {} // want Send:`send`

// Transport receives.
type Transport interface {
	// Recv receives, false on timeout.
	//
	//sync:recv
	Recv() (any, bool) // want Recv:`recv`
}
