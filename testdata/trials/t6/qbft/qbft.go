package qbft

// Network delivers a message to every validator, the sender included.
type Network interface {
	//sync:send
	Broadcast(m Message)
}

// Instance is one validator. A driver calls its handlers one at a time.
//
//sync:tag height,round
type Instance struct {
	id  int
	n   int
	net Network
	// value returns the value this validator proposes for a height.
	value func(height uint64) string

	height uint64
	round  uint64

	// What was received in the current (height, round): emptied by
	// enterRound whenever the tag changes.
	proposal     *PrePrepare
	prepares     map[int]string
	commits      map[int]string
	roundChanges map[int]*RoundChange
	proposed     bool // this validator sent the round's PRE-PREPARE
	commitSent   bool

	// Kept across the rounds of a height: the lock of QBFT.
	prepared      bool
	preparedRound uint64
	preparedValue string

	decided []string // decided[h-1] is the value of height h
}

// NewInstance returns validator id of n, at round 0 of height 1. value gives
// the value it proposes when it leads a round.
func NewInstance(id, n int, net Network, value func(height uint64) string) *Instance {
	i := &Instance{id: id, n: n, net: net, value: value, height: 1}
	i.enterRound(0)
	return i
}

// Decided returns the decided values, one per height, in order.
func (i *Instance) Decided() []string { return append([]string(nil), i.decided...) }

// Tag returns the current height and round, for a driver arming timers.
func (i *Instance) Tag() (height, round uint64) { return i.height, i.round }

func (i *Instance) quorum() int { return (2*i.n + 2) / 3 } // ceil(2n/3)

func (i *Instance) leader(height, round uint64) int { return int((height + round) % uint64(i.n)) }

func (i *Instance) hdr() Header { return Header{Height: i.height, Round: i.round, From: i.id} }

// enterRound moves to round r of the current height and empties the
// mailboxes of the round left behind.
func (i *Instance) enterRound(r uint64) {
	i.round = r
	i.proposal = nil
	i.prepares = map[int]string{}
	i.commits = map[int]string{}
	i.roundChanges = map[int]*RoundChange{}
	i.proposed, i.commitSent = false, false
}

// Start sends the PRE-PREPARE of round 0 if this validator leads it.
//
//sync:handler
func (i *Instance) Start() {
	if i.round == 0 && !i.proposed && i.leader(i.height, i.round) == i.id {
		i.proposed = true
		i.net.Broadcast(&PrePrepare{Hdr: i.hdr(), Value: i.value(i.height)})
	}
}

// OnPrePrepare handles the leader's proposal.
//
//sync:handler
func (i *Instance) OnPrePrepare(m *PrePrepare) {
	if m.Hdr.Height != i.height || m.Hdr.Round < i.round {
		return // another height or an old round
	}
	if m.Hdr.From != i.leader(m.Hdr.Height, m.Hdr.Round) || !i.justified(m) {
		return
	}
	if m.Hdr.Round > i.round {
		// A quorum moved to that round: follow it.
		i.enterRound(m.Hdr.Round)
	}
	if i.proposal != nil {
		return // a leader proposes once per round
	}
	i.proposal = m
	i.net.Broadcast(&Prepare{Hdr: i.hdr(), Digest: m.Value})
	i.checkPrepared()
}

// justified reports whether a PRE-PREPARE may be accepted: in round 0 any
// value may be proposed; above it the proposal needs a quorum of
// ROUND-CHANGEs of its round, and must carry the value prepared in the
// highest round among them.
func (i *Instance) justified(m *PrePrepare) bool {
	if m.Hdr.Round == 0 {
		return true
	}
	senders := map[int]bool{}
	for _, rc := range m.Justification {
		if rc.Hdr.Height != m.Hdr.Height || rc.Hdr.Round != m.Hdr.Round {
			return false
		}
		senders[rc.Hdr.From] = true
	}
	if len(senders) < i.quorum() {
		return false
	}
	if v, ok := highestPrepared(m.Justification); ok {
		return v == m.Value
	}
	return true
}

// highestPrepared returns the value prepared in the highest round among rcs.
func highestPrepared(rcs []*RoundChange) (string, bool) {
	var best *RoundChange
	for _, rc := range rcs {
		if rc.Prepared && (best == nil || rc.PreparedRound > best.PreparedRound) {
			best = rc
		}
	}
	if best == nil {
		return "", false
	}
	return best.PreparedValue, true
}

// OnPrepare counts a PREPARE of the current round.
//
//sync:handler
func (i *Instance) OnPrepare(m *Prepare) {
	if m.Hdr.Height != i.height || m.Hdr.Round != i.round {
		return
	}
	i.prepares[m.Hdr.From] = m.Digest
	i.checkPrepared()
}

// checkPrepared sends the COMMIT once a quorum prepared the proposal.
func (i *Instance) checkPrepared() {
	if i.proposal == nil || i.commitSent || count(i.prepares, i.proposal.Value) < i.quorum() {
		return
	}
	i.commitSent = true
	i.prepared, i.preparedRound, i.preparedValue = true, i.round, i.proposal.Value
	i.net.Broadcast(&Commit{Hdr: i.hdr(), Digest: i.proposal.Value})
}

// OnCommit counts a COMMIT of the current round and decides on a quorum.
//
//sync:handler
func (i *Instance) OnCommit(m *Commit) {
	if m.Hdr.Height != i.height || m.Hdr.Round != i.round {
		return
	}
	i.commits[m.Hdr.From] = m.Digest
	if count(i.commits, m.Digest) < i.quorum() {
		return
	}
	i.decided = append(i.decided, m.Digest)
	i.height++
	i.prepared, i.preparedRound, i.preparedValue = false, 0, ""
	i.enterRound(0)
	if i.leader(i.height, i.round) == i.id {
		i.proposed = true
		i.net.Broadcast(&PrePrepare{Hdr: i.hdr(), Value: i.value(i.height)})
	}
}

// OnRoundChange handles a ROUND-CHANGE; the leader of its round proposes
// once it holds a quorum of them.
//
//sync:handler
func (i *Instance) OnRoundChange(m *RoundChange) {
	if m.Hdr.Height != i.height || m.Hdr.Round < i.round {
		return
	}
	if m.Hdr.Round > i.round {
		i.enterRound(m.Hdr.Round)
		i.net.Broadcast(i.roundChange())
	}
	i.roundChanges[m.Hdr.From] = m
	if i.proposed || i.leader(i.height, i.round) != i.id || len(i.roundChanges) < i.quorum() {
		return
	}
	rcs := make([]*RoundChange, 0, len(i.roundChanges))
	for _, rc := range i.roundChanges {
		rcs = append(rcs, rc)
	}
	v, ok := highestPrepared(rcs)
	if !ok {
		v = i.value(i.height)
	}
	i.proposed = true
	i.net.Broadcast(&PrePrepare{Hdr: i.hdr(), Value: v, Justification: rcs})
}

// OnTimeout is called when the timer armed for (height, round) expires.
//
//sync:handler
func (i *Instance) OnTimeout(height, round uint64) {
	if height != i.height || round != i.round {
		return // the timer of a round already left
	}
	i.enterRound(i.round + 1)
	i.net.Broadcast(i.roundChange())
}

func (i *Instance) roundChange() *RoundChange {
	return &RoundChange{
		Hdr:           i.hdr(),
		Prepared:      i.prepared,
		PreparedRound: i.preparedRound,
		PreparedValue: i.preparedValue,
	}
}

// count returns how many votes are for v.
func count(votes map[int]string, v string) int {
	c := 0
	for _, w := range votes {
		if w == v {
			c++
		}
	}
	return c
}
