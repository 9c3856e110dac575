// Package chanfields has the channel fields of version 2 of the language.
package chanfields

type Step int

const A Step = 0

//sync:msg Round,Step
type msg struct { // want msg:`msg\(Round,Step\)`
	Round int
	Step  Step
}

type Envelope struct {
	From int
	Msg  any
}

type Inbox struct {
	Msgs  chan msg
	Other chan any
	n     int // not a channel
}

type Proc struct {
	in  <-chan Envelope   //sync:inbox From,Msg
	out []chan<- Envelope //sync:peers From,Msg // by process

	// inbox is a struct of channels.
	//
	//sync:inbox
	inbox *Inbox
	//sync:peers
	byID map[int]*Inbox

	typed chan msg //sync:inbox
	plain chan msg
}
