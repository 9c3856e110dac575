package ctconsensus

// Phase is the round of the tag inside one asynchronous round of the
// algorithm.
type Phase int

// The phases of a round, in execution order.
const (
	// PhaseEstimate: every process sends its estimate to the coordinator.
	PhaseEstimate Phase = iota
	// PhasePropose: the coordinator proposes the most recent estimate.
	PhasePropose
	// PhaseReply: processes ack (adopting the proposal) or nack.
	PhaseReply
	// PhaseDecide: the coordinator saw a majority of acks and decides.
	PhaseDecide
)

// Envelope is the header every message travels in; Body is the phase's
// payload.
//
//sync:msg Round,Phase
type Envelope[T any] struct {
	Round int
	Phase Phase
	From  int
	Body  T
}

// Estimate is a process's current estimate and the round it was adopted in
// (-1 for the initial value).
type Estimate struct {
	Value string
	TS    int
}

// Proposal is the coordinator's proposal.
type Proposal struct {
	Value string
}

// Reply is a process's answer to the proposal.
type Reply struct {
	Ack bool
}

// Decide announces the decision.
type Decide struct {
	Value string
}

// Transport moves opaque payloads between processes; it knows nothing of
// the protocol.
type Transport interface {
	// Deliver hands payload to the network for process to.
	Deliver(to int, payload any)
}

// send sends m to process to.
//
//sync:send
func send[T any](t Transport, to int, m Envelope[T]) {
	t.Deliver(to, m)
}
