// Package msgdef declares messages and a send function that other packages
// use; its annotations reach them as facts.
package msgdef

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

// Vote is a message with three components.
//
//sync:msg Height,Round,Prepare
type Vote struct{ Height, Round int }

// Broadcast sends m to all.
//
//sync:send
func Broadcast(m any) {}
