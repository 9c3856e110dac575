// Package msgs exercises //sync:msg.
package msgs

import "ext"

type Step int

const (
	Prepare Step = iota
	Ack
)

type Other int

const Elsewhere Other = 3

// Valid forms.

// Ballot is a message whose tag is two fields.
//
//sync:msg Ballot,Step
type Ballot struct {
	Ballot int
	Step   Step
}

// PrepareMsg belongs to round Prepare.
//
//sync:msg Ballot,Prepare
type PrepareMsg struct{ Ballot int }

// Late carries only the ballot.
//
//sync:msg Ballot,_
type Late struct{ Ballot int }

type (
	// Grouped is declared in a group.
	//
	//sync:msg N,Ack
	Grouped struct{ N int }
)

type Named struct{ B int }

//sync:msg Named B,Prepare // the local form that names its type

//sync:msg ext.VoteMsg Height,Round,Phase // a field path through an embedded pointer
//sync:msg ext.Proposal Height,_,ext.Propose

// Invalid forms.

// Unknown names a field it does not have.
//
//sync:msg Balot,Step // want `unknown field Balot: Unknown has no field Balot, and no constant Balot is in scope`
type Unknown struct{ Ballot int }

// Text has a tag field of a non-integer type.
//
//sync:msg Text,Step // want `field Text\.Text has type string: a tag component must have an integer type`
type Text struct {
	Text string
	Step Step
}

// NotStruct is not a struct.
//
//sync:msg _ // want `message type NotStruct is not a struct or interface type`
type NotStruct int

//sync:msg Ballot Ballot,Step // want `message type Ballot already has a //sync:msg mapping`

//sync:msg Ballot // want `//sync:msg is attached to no type declaration`
var x int

//sync:msg Nope Ballot // want `undefined: Nope`
//sync:msg ext.Nope Ballot // want `undefined: ext\.Nope`
//sync:msg x Ballot // want `x is not a type`
//sync:msg ext.Raw Payload // want `field ext\.Raw\.Payload has type \*ext\.Header: a tag component must have an integer type`
//sync:msg // want `malformed //sync:msg`
//sync:msg a.b.c.d.e X // want `"a\.b\.c\.d\.e" is not a declaration name`

// Method names a method.
//
//sync:msg Get // want `Get is a method, not a field`
type Method struct{ n int }

func (Method) Get() int { return 0 }

// Proc uses the messages in tagged loops.
type Proc struct {
	ballot int
	step   Step
	height int64
	round  int32
	phase  ext.Phase
}

func (p *Proc) run(in chan Ballot, out chan<- *PrepareMsg, late chan Late, any chan any) {
	//sync:tag p.ballot,p.step
	for {
		m := <-in
		out <- &PrepareMsg{Ballot: m.Ballot}
		l := <-late
		_ = l
		switch v := (<-any).(type) {
		case Grouped, *Named:
			_ = v
		}
	}
}

func (p *Proc) votes(in <-chan *ext.VoteMsg, props chan ext.Proposal) {
	//sync:tag p.height,p.round,p.phase
	for v := range in {
		_ = v
		props <- ext.Proposal{}
	}
}

func (p *Proc) wrongArity(in chan Ballot) {
	//sync:tag p.ballot
	for {
		m := <-in // want `message Ballot maps 2 tag component\(s\) but is used in a loop tagged p\.ballot \(1 variables\)`
		_ = m
		p.helper()
	}
}

// helper is called from a tagged loop: its messages count as the loop's.
func (p *Proc) helper() {
	var ch chan *ext.VoteMsg
	<-ch // want `message ext\.VoteMsg maps 3 tag component\(s\) but is used in a loop tagged p\.ballot \(1 variables\)`
}

// WrongConst maps its round to a constant of another type.
//
//sync:msg Ballot,Elsewhere
type WrongConst struct{ Ballot int }

func (p *Proc) wrongType(out chan WrongConst) {
	//sync:tag p.ballot,p.step
	for {
		out <- WrongConst{} // want `component Elsewhere of message WrongConst has type Other but the variable it maps to, p\.step, has type Step`
	}
}
