package vrviewchange

// Step is the round part of the synchronization tag: the step of the view
// change a replica is in. The constants are declared in protocol order, so
// that comparing tags (view, step) lexicographically compares positions in
// an execution.
type Step int

// The three rounds of a view change (Liskov and Cowling, "Viewstamped
// Replication Revisited", section 4.2).
const (
	// StartViewChange: a replica that suspects the primary moves to the
	// next view and tells every other replica.
	StartViewChange Step = iota
	// DoViewChange: a replica that heard f other replicas start the view
	// change sends its log to the primary of the new view.
	DoViewChange
	// StartView: the new primary, having f+1 DoViewChange messages, sends
	// the log of the view to everybody.
	StartView
)

// String returns the name of the step as the VR paper spells the message.
func (s Step) String() string {
	switch s {
	case StartViewChange:
		return "STARTVIEWCHANGE"
	case DoViewChange:
		return "DOVIEWCHANGE"
	case StartView:
		return "STARTVIEW"
	}
	return "Step(?)"
}

// Status is the status of a replica (VR's status field; the recovering
// status is not modelled).
type Status int

// The statuses.
const (
	Normal Status = iota
	ViewChanging
)

// Message is the single wire record of the view change, as in most VR
// implementations: Step says which of the three messages it is and View the
// view it belongs to. The annotation maps these two fields onto the tag
// (view, step) of Replica.ChangeView.
//
//sync:msg View,Step
type Message struct {
	Step    Step
	View    int
	Replica int // sender, VR's i

	// DoViewChange and StartView only.
	Log          []string // VR's l
	OpNumber     int      // VR's n: the number of the last op in Log
	CommitNumber int      // VR's k: the number of the last committed op

	// DoViewChange only: VR's v', the latest view in which the sender's
	// status was normal. It dates Log.
	LastNormal int
}
