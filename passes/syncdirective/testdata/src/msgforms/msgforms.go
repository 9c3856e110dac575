// Package msgforms exercises the message forms of real code: interfaces,
// method components, enum mappings and //sync:local.
package msgforms

import "ext"

type Step int

const (
	StepPropose Step = iota
	StepPrevote
	StepPrecommit
)

type VoteType byte

const (
	PrevoteType   VoteType = 1
	PrecommitType VoteType = 2
	// FirstType is an alias of PrevoteType: mapping either maps both.
	FirstType = PrevoteType
)

type Kind int

const (
	KA Kind = iota
	KB
)

type MsgType int

const (
	MsgHup MsgType = iota
	MsgVote
)

// Valid forms.

// Payload is read through methods.
//
//sync:msg Height(),ViewNumber()
type Payload interface {
	Height() uint32
	ViewNumber() byte
	Type() int
}

// PbMsg has an optional term read through its getter; term 0 is local.
//
//sync:msg GetTerm(),_
//sync:local GetTerm()==0
type PbMsg struct {
	Term *uint64
	Type MsgType
}

// GetTerm returns 0 for nil.
func (m *PbMsg) GetTerm() uint64 { return 0 }

// Vote carries its step as another enum.
//
//sync:msg Height,Round,Type{PrevoteType:StepPrevote,PrecommitType:StepPrecommit}
type Vote struct {
	Height int64
	Round  int32
	Type   VoteType
}

// Tagged maps an enum read through a method.
//
//sync:msg Height,Round,Kind(){KA:StepPrevote,KB:StepPrecommit}
type Tagged struct {
	Height int64
	Round  int32
	k      Kind
}

// Kind returns the kind.
func (t Tagged) Kind() Kind { return t.k }

// Local messages carry MsgHup.
//
//sync:msg Term,_
//sync:local Type==MsgHup
//sync:local Term==0 // two conditions: either makes a message local
type Local struct {
	Term uint64
	Type MsgType
}

// Round is the process of a three-variable tag.
//
//sync:tag height,round,step
type Round struct {
	height int64
	round  int32
	step   Step
}

// OnVote receives votes.
//
//sync:handler
func (r *Round) OnVote(v *Vote) {}

// Invalid forms.

// NoMethod has no method Nope.
//
//sync:msg Nope() // want `NoMethod has no method Nope: a method component names a method of the message with no arguments and an integer result`
type NoMethod struct{ Term int }

// FieldNotMethod calls a field.
//
//sync:msg Term() // want `FieldNotMethod\.Term is a field, not a method: write Term without parentheses`
type FieldNotMethod struct{ Term int }

// WithArgs has a method with parameters.
//
//sync:msg Get() // want `method WithArgs\.Get has parameters: a method component must take no arguments`
type WithArgs struct{}

func (WithArgs) Get(i int) int { return i }

// StrRes has a method of a string result.
//
//sync:msg Name() // want `method StrRes\.Name returns \(string\): a method component must return one integer`
type StrRes struct{}

func (StrRes) Name() string { return "" }

// Getter forgets the parentheses.
//
//sync:msg Get // want `Get is a method, not a field: write Get\(\) to read the tag through the method`
type Getter struct{}

func (Getter) Get() int { return 0 }

// Opt has an optional field.
//
//sync:msg Term // want `field Opt\.Term has type \*uint64: a tag component must have an integer type \(for a pointer field, name its getter: GetTerm\(\)\)`
type Opt struct{ Term *uint64 }

// Missing leaves a constant out.
//
//sync:msg Height,Round,Type{PrevoteType:StepPrevote} // want `enum mapping of Type misses PrecommitType of VoteType: every constant of the message's enum must be mapped, or its messages declared local \(//sync:local Type==PrecommitType\)`
type Missing Vote

// LocalKind leaves out a constant whose messages are local events: they
// need no round.
//
//sync:msg Height,Round,Type{PrevoteType:StepPrevote}
//sync:local Type==PrecommitType
type LocalKind Vote

// Mixed maps onto two round types.
//
//sync:msg Height,Round,Type{PrevoteType:StepPrevote,PrecommitType:KA} // want `KA has type Kind but Type maps onto Step: every value must be a constant of the round's type`
type Mixed Vote

// Twice maps a constant twice.
//
//sync:msg Height,Round,Type{PrevoteType:StepPrevote,PrevoteType:StepPrecommit,PrecommitType:StepPrecommit} // want `PrevoteType is mapped twice`
type Twice Vote

// Foreign maps a constant of another enum.
//
//sync:msg Height,Round,Type{KA:StepPrevote,PrevoteType:StepPrevote,PrecommitType:StepPrecommit} // want `KA has type Kind, not the message's enum VoteType`
type Foreign Vote

// Undef maps an undefined constant.
//
//sync:msg Height,Round,Type{PrevoteType:StepPrevote,PrecommitType:Nope} // want `undefined: Nope \(a value of the mapping is a constant of the round's enum\)`
type Undef Vote

// NotEnum maps a plain integer.
//
//sync:msg Height,Round{A:B} // want `Round has type int32, which is not an enum \(a defined integer type with constants\): only an enum can be mapped`
type NotEnum Vote

// Other is the process of a tag whose step is of another enum.
//
//sync:tag height,round,kind
type Other struct {
	height int64
	round  int32
	kind   Kind
}

// OnVote receives votes mapped onto Step, not Kind.
//
//sync:handler
func (o *Other) OnVote(v Vote) {} // want `component Type of message Vote maps onto constants of type Step but the variable it maps to, kind, has type Kind: map onto the round's own constants`

// NoMsg has no //sync:msg.
//
//sync:local Term==0 // want `//sync:local on NoMsg, which has no //sync:msg: a local condition qualifies a message type`
type NoMsg struct{ Term uint64 }

// BadLocal has bad conditions.
//
//sync:msg Term,_
//sync:local Bogus==0 // want `unknown field Bogus: BadLocal has no field Bogus`
//sync:local Name==0 // want `field BadLocal\.Name has type string: //sync:local tests an integer`
//sync:local Term==-1 // want `-1 is negative but Term has the unsigned type uint64: the condition never holds`
//sync:local Type==KA // want `constant KA has type Kind but Type has type MsgType`
//sync:local Term==Nope // want `Nope is not an integer constant in scope`
//sync:local Get==0 // want `Get is a method, not a field: write Get\(\) to test the method's result`
//sync:local Term==0
//sync:local Term==0 // want `BadLocal already has //sync:local Term==0`
//sync:local Term // want `malformed //sync:local`
type BadLocal struct {
	Term uint64
	Name string
	Type MsgType
}

func (BadLocal) Get() int { return 0 }

//sync:local ext.Nope Term==0 // want `undefined: ext\.Nope`
//sync:local x Term==0 // want `x is not a type`
//sync:local Local Type==MsgVote // the form that names its type

//sync:local Term==0 // want `//sync:local is attached to no type declaration`
var x int

var _ ext.Conn

// BadMsg has a bad mapping; its local condition is not reported again.
//
//sync:msg Nope // want `unknown field Nope: BadMsg has no field Nope`
//sync:local Term==0
type BadMsg struct{ Term uint64 }

// Alias maps a value under two names.
//
//sync:msg Height,Round,Type{PrevoteType:StepPrevote,FirstType:StepPrevote,PrecommitType:StepPrecommit} // want `FirstType is mapped twice: it has the value of PrevoteType`
type Alias Vote

// ext.Tagged's enum has an unexported constant, which cannot be named and
// need not be mapped.
//
//sync:msg ext.Tagged H,K{ext.KindA:StepPrevote,ext.KindB:StepPrecommit}
