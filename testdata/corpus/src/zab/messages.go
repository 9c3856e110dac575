package zab

// Label is the round part of the synchronization tag (Fig. 4's lab): where a
// process is inside the current epoch. The constants are declared in the
// order in which the rounds run, so comparing tags (epoch, lab)
// lexicographically compares positions in an execution.
type Label int

// The rounds of one discovery attempt (Fig. 4 of "Reducing asynchrony to
// synchronized rounds"; NewL is completed after Zab-HO, Fig. 1).
const (
	// CurrE: every process sends its epoch to the leader its oracle
	// suggests; the leader collects a majority (Zab's CEPOCH).
	CurrE Label = iota
	// NewE: the leader announces the epoch it picked to its quorum
	// (NEWEPOCH).
	NewE
	// AckE: the processes that accepted the epoch send the leader their
	// history (ACKEPOCH).
	AckE
	// NewL: the leader sends the freshest history to the processes that
	// acknowledged, which adopt it (NEWLEADER).
	NewL
)

// CurrentEpoch is sent in round CurrE to the suggested leader (Fig. 4,
// line 5). The sender is known from the transport, so the message only
// carries the epoch. Every message type of this protocol belongs to one
// round, which the annotation gives as a constant.
//
//sync:msg Epoch,CurrE
type CurrentEpoch struct {
	Epoch int
}

// NewEpoch is sent in round NewE by a leader to its quorum (line 14).
//
//sync:msg Epoch,NewE
type NewEpoch struct {
	Epoch int
}

// AckEpoch is sent in round AckE to the leader (line 21). Accepted dates
// History: it is the epoch in which the sender last adopted a leader's
// history (Fig. 4's a).
//
//sync:msg Epoch,AckE
type AckEpoch struct {
	Epoch    int
	Accepted int
	History  []string
}

// NewLeader is sent in round NewL by the leader to the processes that
// acknowledged its epoch (line 30).
//
//sync:msg Epoch,NewL
type NewLeader struct {
	Epoch   int
	History []string
}
