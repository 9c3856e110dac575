// Package comms exercises //sync:send and //sync:recv.
package comms

import "ext"

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
	Msg  *Msg
}

// Net is a transport.
type Net struct{ in chan Envelope }

// Valid forms.

// Send sends m to a peer.
//
//sync:send
func (n *Net) Send(to int, m Msg) {}

// Recv receives a message, or reports false on a timeout.
//
//sync:recv
func (n *Net) Recv() (Msg, bool) { return Msg{}, false }

// RecvEnv receives an envelope.
//
//sync:recv
func RecvEnv(n *Net) (Envelope, error) { return <-n.in, nil }

// Transport is a transport interface.
type Transport interface {
	// Broadcast sends m to all peers.
	//
	//sync:send
	Broadcast(m any)
}

//sync:send ext.Broadcast
//sync:send ext.Transport.Send
//sync:recv ext.Transport.Recv
//sync:send ext.(*Conn).Write
//sync:recv ext.Conn.Read
var _ ext.Conn

//sync:send nopkg.Send // want `undefined: nopkg \(no package nopkg is imported in this file\)`

// Invalid forms.

// Close sends nothing.
//
//sync:send // want `//sync:send: Close has no parameter that can carry a message`
func Close(code int) {}

//sync:recv // want `//sync:recv is attached to no function`
var y int

//sync:send ext.Nope // want `undefined: ext\.Nope`
//sync:send ext.Phase // want `ext\.Phase is not a function or method`
//sync:send ext.Conn.Nope // want `ext\.Conn has no method Nope`
//sync:send ext.Close // want `//sync:send: Close has no parameter that can carry a message`
//sync:send (*Net).Send // want `Send is already annotated //sync:send`
//sync:send a b // want `malformed //sync:send`
//sync:recv ext.(Conn).Read // want `"ext\.\(Conn\)\.Read" is not a declaration name`

// Uses in a loop whose tag has the wrong arity.

type Proc struct{ ballot int }

func (p *Proc) run(n *Net, t Transport) {
	//sync:tag p.ballot
	for {
		m, ok := n.Recv() // want `message Msg maps 2 tag component\(s\) but is used in a loop tagged p\.ballot \(1 variables\)`
		if ok {
			t.Broadcast(m)
		}
	}
}
