// Package ext stands for code the user cannot edit, such as generated
// protobuf messages and a transport library.
package ext

type Phase int

const (
	Propose Phase = iota
	Vote
)

type Header struct {
	Height int64
	Round  int32
}

// Vote is a message whose tag lives in an embedded header.
type VoteMsg struct {
	*Header
	Phase Phase
	Value string
}

// Raw has no integer tag.
type Raw struct{ Payload *Header }

type Proposal struct {
	Height int64
	Block  []byte
}

// Transport sends and receives raw messages.
type Transport interface {
	Send(to int, m any) error
	Recv() (any, bool)
}

type Conn struct{}

func (c *Conn) Write(m any) error { return nil }

func (c Conn) Read() (any, error) { return nil, nil }

func Broadcast(m any) {}

func Close() {}

// Kind is an enum with an unexported constant.
type Kind int

const (
	KindA Kind = iota
	KindB
	kindInternal
)

// Tagged carries a Kind.
type Tagged struct {
	H int
	K Kind
}
