package fab

// Phase is the round inside a view, in execution order.
type Phase int

// The phases of a view. View 0 starts in PhasePropose: it needs no recovery.
const (
	PhaseRecover Phase = iota // reports go to the new leader
	PhasePropose              // the leader's proposal goes to the acceptors
	PhaseAccept               // acceptances go to the learners
)

// Report is what a process tells the leader of the view it enters: the
// value it accepted last, if any.
//
//sync:msg View,PhaseRecover
type Report struct {
	View         uint64
	From         int
	Accepted     bool
	Value        string
	AcceptedView uint64
}

// Propose is the leader's proposal. In a view above 0 Cert holds the n-f
// reports the value was chosen from. Written like generated protobuf code.
//
//sync:msg GetView(),PhasePropose
type Propose struct {
	View  uint64
	From  int32
	Value string
	Cert  []*Report
}

// GetView returns the view, or 0 for a nil message.
func (m *Propose) GetView() uint64 {
	if m != nil {
		return m.View
	}
	return 0
}

// GetFrom returns the sender, or 0 for a nil message.
func (m *Propose) GetFrom() int32 {
	if m != nil {
		return m.From
	}
	return 0
}

// GetValue returns the proposed value, or "" for a nil message.
func (m *Propose) GetValue() string {
	if m != nil {
		return m.Value
	}
	return ""
}

// GetCert returns the progress certificate, or nil for a nil message.
func (m *Propose) GetCert() []*Report {
	if m != nil {
		return m.Cert
	}
	return nil
}

// Accepted tells the learners that From accepted Value in View.
//
//sync:msg View,PhaseAccept
type Accepted struct {
	View  uint64
	From  int
	Value string
}
