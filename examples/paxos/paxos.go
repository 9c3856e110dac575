package paxos

import (
	"slices"
	"time"
)

// Config configures one Process.
type Config struct {
	ID  int      // id of the process, in 0..Net.Size()-1
	Net *Network // network shared by all the processes

	// NewCommand returns the next client command (Fig. 1's new_command). It
	// is called by Run, when the process leads a ballot.
	NewCommand func() string

	// Timeout is how long a process waits in a round for the message(s) it
	// needs before it gives up and moves on to the next ballot.
	Timeout time.Duration
}

// Process is one replica of the protocol.
//
// Its fields are accessed by Run only; the accessors must not be called while
// Run is executing.
type Process struct {
	id         int
	n          int
	net        *Network
	newCommand func() string
	timeout    time.Duration

	// Synchronization variables: the tag (ballot, step) of the loop in Run.
	ballot int  // phase: Fig. 1's phase
	step   Step // round: Fig. 1's step

	// Algorithm variables (Fig. 1, lines 2-5).
	last   int      // the ballot that dates log (but see the bug in Run)
	leader int      // the leader of the ballot this process joined
	log    []string // the sequence of commands

	// Observable outputs (line 42).
	outputs [][]string
}

// NewProcess returns a process in ballot 0 with an empty log, configured by
// cfg.
func NewProcess(cfg Config) *Process {
	return &Process{
		id:         cfg.ID,
		n:          cfg.Net.Size(),
		net:        cfg.Net,
		newCommand: cfg.NewCommand,
		timeout:    cfg.Timeout,
	}
}

// leaderOf is the deterministic getLeader function of Fig. 1: the leader of a
// ballot among n processes.
func leaderOf(ballot, n int) int { return ballot % n }

// Run executes at most maxPhases phases of the protocol and returns. Every
// round that waits for messages waits for a bounded time, so Run always
// terminates.
//
// # The bug of line 15
//
// In round Prepare, a process that joins a ballot sets last to its current
// ballot (Fig. 1, line 15, marked "@bugfix remove"). But last is sent along
// with log in round Ack to date it, and the leader adopts the log with the
// largest last: last must be the ballot in which the process last adopted a
// log from a leader, not the one in which it last joined a leader. A process
// whose log is stale can thus pass it off as recent, and the leader can drop
// commands that were already output. With three processes, in lockstep (the
// code is communication-closed, so every execution is equivalent to a lossy
// lockstep one):
//
//  1. ballot 1, led by process 1: the Propose to process 0 is lost; processes
//     1 and 2 adopt and output [c1], process 0 keeps the empty log;
//  2. ballot 2, led by process 2: everybody joins, so everybody sends last = 2;
//     the leader hears from processes 0 and 2, both logs look equally recent,
//     it picks the one of the smallest id, the empty log of process 0, and
//     processes end up outputting [c2], which is not an extension of [c1].
//
// The fix deletes line 15 and sets last to the ballot when the log of the
// leader is adopted in round Propose (line 34, "@bugfix add last = phase"):
// process 0 would then send last = 0, process 2 last = 1, and [c1 c2] would be
// chosen.
//
// This is a bug of the algorithm, not of its round structure: the assignment
// neither sends nor stores a message nor changes the tag (ballot, step), so
// the loop is still communication-closed and ccvet must stay silent about it.
func (p *Process) Run(maxPhases int) {
	majority := p.n/2 + 1
	var deadline time.Time

	//sync:tag p.ballot,p.step
	for phase := 0; phase < maxPhases; phase++ {
		// Every phase starts in a new ballot, in round Prepare. In Fig. 1 the
		// leader sends phase+1 and only the processes that receive it move
		// to that ballot. Sending a ballot other than the current one would
		// stamp the message with the wrong tag, so here every process first
		// moves to the next ballot, which also keeps the tag increasing when
		// a round gives up with continue.
		p.ballot++
		p.step = Prepare

		// Round Prepare (lines 7-18). Send: the leader invites everybody.
		if leaderOf(p.ballot, p.n) == p.id {
			p.net.Broadcast(Message{Step: p.step, Ballot: p.ballot, From: p.id})
		}
		// Receive: one Prepare of this ballot or of a later one (line 14);
		// the reception loop writes nothing but its mailbox.
		var prepares []Message
		deadline = time.Now().Add(p.timeout)
		for len(prepares) == 0 {
			m, ok := p.net.Recv(p.id, deadline)
			if !ok {
				break
			}
			if m.Step != p.step || m.Ballot < p.ballot {
				continue // another round, or an older ballot: drop
			}
			prepares = append(prepares, m)
		}
		if len(prepares) == 0 {
			continue // no leader in this ballot
		}
		// Update: join the leader.
		p.last = p.ballot             // line 15: THE BUG, see the doc comment of Run
		p.ballot = prepares[0].Ballot // line 16: jump to the leader's ballot
		p.leader = prepares[0].From
		p.step = Ack

		// Round Ack (lines 20-30). Send our dated log to the leader.
		p.net.Send(p.leader, Message{
			Step:   p.step,
			Ballot: p.ballot,
			From:   p.id,
			Last:   p.last,
			Log:    slices.Clone(p.log),
		})
		if p.leader == p.id {
			// The leader waits for the Acks of a majority, of exactly its
			// current round.
			acks := make(map[int]Message)
			deadline = time.Now().Add(p.timeout)
			for len(acks) < majority {
				m, ok := p.net.Recv(p.id, deadline)
				if !ok {
					break
				}
				if m.Step != p.step || m.Ballot != p.ballot {
					continue
				}
				acks[m.From] = m
			}
			if len(acks) < majority {
				continue // no quorum: nothing is proposed in this ballot
			}
			p.log = mostRecentLog(acks)           // line 27
			p.log = append(p.log, p.newCommand()) // line 28
		}
		p.step = Propose // lines 29-30

		// Round Propose (lines 25-34 of the second column).
		if p.leader == p.id {
			p.net.Broadcast(Message{
				Step:   p.step,
				Ballot: p.ballot,
				From:   p.id,
				Log:    slices.Clone(p.log),
			})
		}
		var proposals []Message
		deadline = time.Now().Add(p.timeout)
		for len(proposals) == 0 {
			m, ok := p.net.Recv(p.id, deadline)
			if !ok {
				break
			}
			if m.Step != p.step || m.Ballot != p.ballot || m.From != p.leader {
				continue
			}
			proposals = append(proposals, m)
		}
		if len(proposals) == 0 {
			continue
		}
		p.log = slices.Clone(proposals[0].Log) // line 32
		p.step = Promise                       // line 33
		// Line 34: the fix of the bug would set p.last = p.ballot here.

		// Round Promise (lines 36-42). Everybody who adopted the log
		// promises it to everybody.
		p.net.Broadcast(Message{
			Step:   p.step,
			Ballot: p.ballot,
			From:   p.id,
			Log:    slices.Clone(p.log),
		})
		promises := make(map[int]Message)
		deadline = time.Now().Add(p.timeout)
		for !agreed(promises, majority) {
			m, ok := p.net.Recv(p.id, deadline)
			if !ok {
				break
			}
			if m.Step != p.step || m.Ballot != p.ballot {
				continue
			}
			promises[m.From] = m
		}
		if log, ok := majorityLog(promises, majority); ok {
			p.outputs = append(p.outputs, log) // line 42: output log
		}
	}
}

// mostRecentLog returns the log of an Ack mailbox with the largest last,
// breaking ties in favour of the smallest process id
// (select_log_from_received_messages, Fig. 1, line 27).
func mostRecentLog(acks map[int]Message) []string {
	best := -1
	for q, m := range acks {
		if best < 0 || m.Last > acks[best].Last || m.Last == acks[best].Last && q < best {
			best = q
		}
	}
	return slices.Clone(acks[best].Log)
}

// majorityLog returns the log that at least majority messages of a Promise
// mailbox carry, if any.
func majorityLog(promises map[int]Message, majority int) ([]string, bool) {
	for _, m := range promises {
		count := 0
		for _, o := range promises {
			if slices.Equal(m.Log, o.Log) {
				count++
			}
		}
		if count >= majority {
			return slices.Clone(m.Log), true
		}
	}
	return nil, false
}

// agreed reports whether a majority of a Promise mailbox carries the same log.
func agreed(promises map[int]Message, majority int) bool {
	_, ok := majorityLog(promises, majority)
	return ok
}

// ID returns the id of the process.
func (p *Process) ID() int { return p.id }

// Ballot returns the current ballot of the process.
func (p *Process) Ballot() int { return p.ballot }

// Log returns a copy of the current log of the process.
func (p *Process) Log() []string { return slices.Clone(p.log) }

// Outputs returns the logs the process output, in order.
func (p *Process) Outputs() [][]string {
	out := make([][]string, len(p.outputs))
	for i, o := range p.outputs {
		out[i] = slices.Clone(o)
	}
	return out
}
