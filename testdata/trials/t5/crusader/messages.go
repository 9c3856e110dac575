package crusader

// Round is the round part of the tag: the position of a process inside one
// instance. The constants are in execution order.
type Round int

// The three rounds of an instance.
const (
	// Input: every process broadcasts its input.
	Input Round = iota
	// Echo: every process echoes the value it saw from n-t processes.
	Echo
	// Vote: every process broadcasts its crusader value.
	Vote
)

// Bottom is the value ⊥: no value.
const Bottom = ""

// Msg is a message of the protocol, as carried by a Transport.
type Msg interface {
	// Sender is the id of the process that sent the message.
	Sender() int
	// Inst is the instance the message belongs to.
	Inst() uint64
}

// InputMsg carries a process's input in round Input.
//
//sync:msg Instance,Input
type InputMsg struct {
	Instance uint64
	From     int
	Value    string
}

// EchoMsg carries the value a process saw from n-t processes in round
// Input, or Bottom.
//
//sync:msg Instance,Echo
type EchoMsg struct {
	Instance uint64
	From     int
	Value    string
}

// VoteMsg carries a process's crusader value, possibly Bottom.
//
//sync:msg Instance,Vote
type VoteMsg struct {
	Instance uint64
	From     int
	Value    string
}

// Sender implements Msg.
func (m InputMsg) Sender() int { return m.From }

// Inst implements Msg.
func (m InputMsg) Inst() uint64 { return m.Instance }

// Sender implements Msg.
func (m EchoMsg) Sender() int { return m.From }

// Inst implements Msg.
func (m EchoMsg) Inst() uint64 { return m.Instance }

// Sender implements Msg.
func (m VoteMsg) Sender() int { return m.From }

// Inst implements Msg.
func (m VoteMsg) Inst() uint64 { return m.Instance }

// payload returns the value a message carries.
func payload(m Msg) string {
	switch m := m.(type) {
	case InputMsg:
		return m.Value
	case EchoMsg:
		return m.Value
	case VoteMsg:
		return m.Value
	}
	return Bottom
}
