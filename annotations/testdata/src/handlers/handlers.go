// Package handlers declares a protocol in the process form; the test
// checks what the annotations resolve to and the facts they export.
package handlers

// Role is a server's step inside a term.
type Role int

const (
	Follower Role = iota
	Candidate
	Leader
)

// MsgType is the message's own enum.
type MsgType int

const (
	MsgVote MsgType = iota + 1
	MsgVoteResp
	MsgApp
)

// Hdr is a header nested in the process state.
type Hdr struct{ Term uint64 }

// Node is one server.
//
//sync:tag hdr.Term,role
type Node struct { // want Node:`process\(hdr\.Term,role\)`
	id    int
	hdr   Hdr
	role  Role
	votes map[int]bool
	out   []Message
}

// Message is every message of the protocol; term 0 marks a local one.
//
//sync:msg GetTerm(),Type{MsgVote:Candidate,MsgVoteResp:Candidate,MsgApp:Leader}
//sync:local GetTerm()==0
//sync:local Type==MsgApp
type Message struct { // want Message:`msg\(GetTerm\(\),Type\{MsgVote:Candidate,MsgVoteResp:Candidate,MsgApp:Leader\}\)`
	Type MsgType
	From int
	Term *uint64
}

// GetTerm returns the term, 0 when unset.
func (m *Message) GetTerm() uint64 {
	if m == nil || m.Term == nil {
		return 0
	}
	return *m.Term
}

// Payload is a message read through an interface.
//
//sync:msg Height(),View()
type Payload interface { // want Payload:`msg\(Height\(\),View\(\)\)`
	Height() uint32
	View() byte
}

// send appends m to the outbox.
//
//sync:send stamps
func (n *Node) send(m Message) { n.out = append(n.out, m) } // want send:`send stamps`

// Step handles one received message.
//
//sync:handler
func (n *Node) Step(from int, m *Message) {} // want Step:`handler\(1\)`

// Tick is a timer event.
//
//sync:handler
func (n Node) Tick() {} // want Tick:`handler\(-1\)`

// OnReceive receives through an interface.
//
//sync:handler
func (n *Node) OnReceive(p Payload) {} // want OnReceive:`handler\(0\)`

// OnAny receives any message.
//
//sync:handler
func (n *Node) OnAny(ctx interface{ Done() }, v any) {} // want OnAny:`handler\(1\)`

// Replica is tagged and its handler named by package handleruse.
type Replica struct{ View uint32 }

// OnTimeout is a local event.
func (r *Replica) OnTimeout(v uint32) {}
