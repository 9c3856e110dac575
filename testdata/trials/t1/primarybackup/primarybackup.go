package primarybackup

import (
	"errors"
	"slices"
	"time"
)

// Step is the round inside an epoch or an operation.
type Step int

// The rounds, in order: Join and Start open an epoch (operation number 0),
// Prepare, Ack and Commit replicate one operation.
const (
	StepJoin Step = iota
	StepStart
	StepPrepare
	StepAck
	StepCommit
)

// Hdr is the header every message embeds.
type Hdr struct {
	Epoch int
	Op    int
	Step  Step
	From  int
}

// Header returns the header; every message has it through Hdr.
func (h Hdr) Header() Hdr { return h }

// Message is implemented by every message.
type Message interface {
	Header() Hdr
}

// Join sends a replica's state to the primary of a new epoch.
//
//sync:msg Epoch,Op,Step
type Join struct {
	Hdr
	Log      []string
	LogEpoch int // the epoch in which Log was last installed
	Commit   int // the number of committed entries of Log
}

// Start installs the new epoch's log.
//
//sync:msg Epoch,Op,Step
type Start struct {
	Hdr
	Log    []string
	Commit int
}

// Prepare replicates the command at position Index of the log.
//
//sync:msg Epoch,Op,Step
type Prepare struct {
	Hdr
	Index int
	Cmd   string
}

// Ack acknowledges a Prepare.
//
//sync:msg Epoch,Op,Step
type Ack struct {
	Hdr
}

// Commit says that the first Commit entries of the log are committed. Last
// is set when the primary has nothing more to replicate: it steps down, and
// everybody moves on to the next epoch.
//
//sync:msg Epoch,Op,Step
type Commit struct {
	Hdr
	Commit int
	Last   bool
}

// ErrTimeout is returned by Transport.Recv when nothing arrived in time.
var ErrTimeout = errors.New("primarybackup: timeout")

// Transport connects a replica to the others.
type Transport interface {
	// Send sends m to replica to. An error means that the message was not
	// sent, which the protocol treats as a lost message.
	//
	//sync:send
	Send(to int, m Message) error

	// Recv returns the next message, or ErrTimeout after timeout.
	//
	//sync:recv
	Recv(timeout time.Duration) (Message, error)
}

// Replica is one replica.
type Replica struct {
	id, n    int
	tr       Transport
	timeout  time.Duration
	requests func(epoch int) []string // what this replica proposes as primary

	epoch int // synchronization variables: epoch, operation, step
	op    int
	step  Step

	log      []string
	logEpoch int
	commit   int
	queue    []string // primary: requests not yet prepared
}

// NewReplica returns replica id of n.
func NewReplica(id, n int, tr Transport, timeout time.Duration, requests func(epoch int) []string) *Replica {
	return &Replica{id: id, n: n, tr: tr, timeout: timeout, requests: requests}
}

// Committed returns the committed prefix of the log.
func (r *Replica) Committed() []string { return slices.Clone(r.log[:r.commit]) }

func (r *Replica) primaryOf(epoch int) int { return epoch % r.n }

func (r *Replica) hdr() Hdr { return Hdr{Epoch: r.epoch, Op: r.op, Step: r.step, From: r.id} }

// current reports whether h is the header of a message of the current round.
func (r *Replica) current(h Hdr) bool {
	return h.Epoch == r.epoch && h.Op == r.op && h.Step == r.step
}

// Run goes through epochs 1..last. Within an epoch the primary replicates
// its requests one operation at a time; a replica that waits too long for
// the primary moves to the next epoch.
func (r *Replica) Run(last int) {
	quorum := r.n/2 + 1
	//sync:tag r.epoch,r.op,r.step
	for r.epoch < last {
		r.epoch++
		r.op, r.step = 0, StepJoin
		primary := r.primaryOf(r.epoch)
		r.tr.Send(primary, Join{Hdr: r.hdr(), Log: slices.Clone(r.log), LogEpoch: r.logEpoch, Commit: r.commit})
		if r.id == primary {
			joins := r.joins(quorum)
			if len(joins) < quorum {
				continue
			}
			best := joins[0]
			for _, j := range joins[1:] {
				if j.LogEpoch > best.LogEpoch || j.LogEpoch == best.LogEpoch && len(j.Log) > len(best.Log) {
					best = j
				}
			}
			r.log, r.logEpoch = slices.Clone(best.Log), r.epoch
			for _, j := range joins {
				r.commit = max(r.commit, min(j.Commit, len(r.log)))
			}
			r.queue = r.requests(r.epoch)
		}

		r.step = StepStart
		if r.id == primary {
			r.broadcast(Start{Hdr: r.hdr(), Log: slices.Clone(r.log), Commit: r.commit})
		}
		st, ok := r.start()
		if !ok {
			continue
		}
		if st.Epoch > r.epoch {
			r.epoch = st.Epoch // an epoch started without us: join it
			primary = r.primaryOf(r.epoch)
		}
		r.log, r.logEpoch, r.commit = slices.Clone(st.Log), st.Epoch, st.Commit

		for {
			r.op++
			r.step = StepPrepare
			if r.id == primary {
				if len(r.queue) == 0 {
					break // nothing to do in this epoch (the backups time out)
				}
				r.log = append(r.log, r.queue[0])
				r.queue = r.queue[1:]
				r.broadcast(Prepare{Hdr: r.hdr(), Index: len(r.log), Cmd: r.log[len(r.log)-1]})
			} else {
				m, ok := r.await(primary)
				p, isPrepare := m.(Prepare)
				if !ok || !isPrepare || p.Index > len(r.log)+1 {
					break
				}
				r.log = append(r.log[:p.Index-1], p.Cmd)
			}

			r.step = StepAck
			r.tr.Send(primary, Ack{Hdr: r.hdr()})
			if r.id == primary {
				if r.acks(quorum) < quorum {
					break
				}
				r.commit = len(r.log)
			}

			r.step = StepCommit
			if r.id == primary {
				last := len(r.queue) == 0
				r.broadcast(Commit{Hdr: r.hdr(), Commit: r.commit, Last: last})
				if last {
					break // step down
				}
				continue
			}
			m, ok := r.await(primary)
			c, isCommit := m.(Commit)
			if !ok || !isCommit {
				break
			}
			r.commit = max(r.commit, min(c.Commit, len(r.log)))
			if c.Last {
				break // the primary stepped down
			}
		}
	}
}

// joins collects the Join messages of the current round from distinct
// replicas until need of them or a time-out.
func (r *Replica) joins(need int) []Join {
	var got []Join
	from := make(map[int]bool)
	deadline := time.Now().Add(r.timeout)
	for len(got) < need {
		m, err := r.tr.Recv(time.Until(deadline))
		if err != nil {
			break
		}
		j, ok := m.(Join)
		if !ok || !r.current(j.Header()) || from[j.From] {
			continue
		}
		from[j.From] = true
		got = append(got, j)
	}
	return got
}

// acks counts the Acks of the current round from distinct replicas until
// need of them or a time-out.
func (r *Replica) acks(need int) int {
	from := make(map[int]bool)
	deadline := time.Now().Add(r.timeout)
	for len(from) < need {
		m, err := r.tr.Recv(time.Until(deadline))
		if err != nil {
			break
		}
		if a, ok := m.(Ack); ok && r.current(a.Header()) {
			from[a.From] = true
		}
	}
	return len(from)
}

// start waits for the Start of the current epoch or of a later one, from
// that epoch's primary. The primary may first wait a whole time-out for the
// Joins (a primary that stepped down joins at once, and its Join can be
// dropped by a successor still busy in the old epoch), so start waits twice
// as long.
func (r *Replica) start() (Start, bool) {
	deadline := time.Now().Add(2 * r.timeout)
	for {
		m, err := r.tr.Recv(time.Until(deadline))
		if err != nil {
			return Start{}, false
		}
		st, ok := m.(Start)
		h := st.Header()
		if ok && h.Epoch >= r.epoch && h.Op == 0 && h.Step == StepStart && h.From == r.primaryOf(h.Epoch) {
			return st, true
		}
	}
}

// await waits for the primary's message of the current round.
func (r *Replica) await(primary int) (Message, bool) {
	deadline := time.Now().Add(r.timeout)
	for {
		m, err := r.tr.Recv(time.Until(deadline))
		if err != nil {
			return nil, false
		}
		if h := m.Header(); r.current(h) && h.From == primary {
			return m, true
		}
	}
}

// broadcast sends m to every replica, this one included.
func (r *Replica) broadcast(m Message) {
	for q := range r.n {
		r.tr.Send(q, m)
	}
}
