// Package procs exercises the process form: //sync:tag on a struct type,
// //sync:handler, and //sync:send stamps.
package procs

import "ext"

type Role int

const (
	Follower Role = iota
	Candidate
	Leader
)

// Message is every message of the protocol.
//
//sync:msg Term,_
type Message struct {
	Term uint64
	From int
}

// Short carries one component only.
//
//sync:msg Term
type Short struct{ Term uint64 }

// Hdr nests a replica's tag.
type Hdr struct {
	View  uint32
	Round uint8
}

// Valid forms.

// Node is one server.
//
//sync:tag term,role
type Node struct {
	term  uint64
	role  Role
	votes map[int]bool
	out   []Message
}

// send appends m to the outbox, with the current term.
//
//sync:send stamps
func (n *Node) send(m Message) { n.out = append(n.out, m) }

// Step handles one received message.
//
//sync:handler
func (n *Node) Step(m Message) {
	if m.Term > n.term {
		n.term, n.role = m.Term, Follower
		n.votes = map[int]bool{}
	}
	n.send(Message{From: 1})
}

// Tick is a timer event (a value receiver).
//
//sync:handler
func (n Node) Tick() {}

// Replica has its tag in a nested header, and its handler named at
// package level.
type (
	// Replica is one replica.
	//
	//sync:tag hdr.View,hdr.Round
	Replica struct{ hdr *Hdr }
)

func (r *Replica) OnTimeout(h uint32, v byte) {}

//sync:handler (*Replica).OnTimeout // a local event

// Invalid forms.

// Bad1 names a field it does not have.
//
//sync:tag term,bogus // want `unknown field bogus: Bad1 has no field bogus`
type Bad1 struct{ term int }

// Bad2 has a tag field that is not an integer.
//
//sync:tag term,name // want `field Bad2\.name has type string: a synchronization variable must have an integer type`
type Bad2 struct {
	term int
	name string
}

// Bad3 names a field twice.
//
//sync:tag term,term // want `term appears twice in the tag`
type Bad3 struct{ term int }

// Bad4 names a method.
//
//sync:tag Get // want `Get is a method, not a field: the tag of a process type is a list of its fields`
type Bad4 struct{ n int }

func (Bad4) Get() int { return 0 }

// NotStruct is not a struct.
//
//sync:tag n // want `process type NotStruct is not a struct type`
type NotStruct int

//sync:tag Node term // want `process type Node already has a //sync:tag`
//sync:tag Nope term // want `undefined: Nope`
//sync:tag Role.String term // want `Role has no method String`
//sync:tag Short2 X // want `Short2 is not a type`

var Short2 int

// Lonely has a tag and no handler.
//
//sync:tag n // want `process type Lonely has no //sync:handler: nothing is checked`
type Lonely struct{ n int }

//sync:tag ext.Header Height,Round // want `process type Header has no //sync:handler`

// Untagged has no tag.
type Untagged struct{}

// Step is a handler of an untagged type.
//
//sync:handler // want `//sync:handler on method Step of type Untagged, which has no //sync:tag: put //sync:tag F1,F2 in the doc comment of the process type`
func (u *Untagged) Step(m Message) {}

// free is no method.
//
//sync:handler // want `//sync:handler on function free, which is not a method`
func free(m Message) {}

//sync:handler // want `//sync:handler is attached to no method`
var v int

// Iface declares a handler.
type Iface interface {
	// Step is not a method declaration.
	//
	//sync:handler // want `//sync:handler on interface method Step: a handler is a method declaration of a process type`
	Step(m Message)
}

//sync:handler (*Node).Step // want `Step is already annotated //sync:handler`
//sync:handler (*Node).Nope // want `\*Node has no method Nope`
//sync:handler Role // want `Role is not a method`
//sync:handler ext.(*Conn).Write // want `//sync:handler on method Write of type ext\.Conn, which has no //sync:tag`
//sync:handler a b // want `malformed //sync:handler`

// Both takes two messages.
//
//sync:handler // want `handler Both has two parameters that can carry a message, a and b: a handler receives at most one message`
func (n *Node) Both(a Message, b *Message) {}

// OnShort receives a message with too few components.
//
//sync:handler
func (n *Node) OnShort(s Short) {} // want `message Short maps 1 tag component\(s\) but is used in process Node, tagged term,role \(2 variables\)`

// sendAll is no method.
//
//sync:send stamps // want `//sync:send stamps: sendAll is not a method of a process type \(a struct type with //sync:tag\): ccvet cannot tell whose tag it stamps`
func sendAll(m Message) {}

// recv receives.
//
//sync:recv stamps // want `stamps on //sync:recv: only a send stamps the messages it sends`
func recv() Message { return Message{} }

var _ ext.Conn

// Step of Bad1 is not reported: the tag of Bad1 is.
//
//sync:handler
func (b *Bad1) Step(m Message) {}

// Handlers per message kind say which kind the driver hands them.

//sync:handler From==1
func (n *Node) OnVote(m Message) {}

//sync:handler Type==2 // want `//sync:handler Type==2 on Ping, which receives no message: a condition qualifies the message a handler receives`
func (n *Node) Ping() {}

//sync:handler Bogus==1 // want `unknown field Bogus: Message has no field Bogus`
func (n *Node) OnBogus(m Message) {}

//sync:handler Type== // want `malformed //sync:handler: expected //sync:handler F==C in a method's doc comment, with F a field path or method Name\(\) of the message the handler receives and C a constant or an integer literal`
func (n *Node) OnEmpty(m Message) {}
