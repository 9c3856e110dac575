// Package paxoslike is the Paxos-like state machine replication of Fig. 1 of
// Drăgoi, Enea, Ozkan, Majumdar and Niksic, "Testing consensus
// implementations using communication closure" (OOPSLA 2020), over plain Go
// channels of transport.Envelope.
//
// One iteration of Proc.Run is one phase (ballot) of the rounds Prepare,
// Ack, Propose and Promise; a process that waits too long in a round moves
// on to the next ballot. The package keeps the bug of line 15 of the paper
// (last = phase): it is a bug of the algorithm, not of its round structure,
// so the loop is communication-closed.
package paxoslike

import (
	"slices"
	"time"

	"transport"
)

// Config configures a Proc.
type Config struct {
	ID    int
	In    <-chan transport.Envelope   // this process's inbox
	Peers []chan<- transport.Envelope // the inboxes of all processes, by id

	// NewCommand returns the next client command (Fig. 1's new_command).
	NewCommand func() string

	// Timeout bounds how long a process waits in one round.
	Timeout time.Duration
}

// Proc is one replica.
type Proc struct {
	id         int
	n          int
	in         <-chan transport.Envelope   //sync:inbox From,Msg
	peers      []chan<- transport.Envelope //sync:peers From,Msg // by process id
	newCommand func() string
	timeout    time.Duration

	// The synchronization tag (ballot, step): Fig. 1's phase and step.
	ballot int
	step   Step

	// Algorithm variables (Fig. 1, lines 2-5).
	last   int
	leader int
	log    []string

	outputs [][]string // line 42
}

// New returns a process in ballot 0 with an empty log.
func New(cfg Config) *Proc {
	return &Proc{
		id:         cfg.ID,
		n:          len(cfg.Peers),
		in:         cfg.In,
		peers:      cfg.Peers,
		newCommand: cfg.NewCommand,
		timeout:    cfg.Timeout,
	}
}

// leaderOf is Fig. 1's getLeader.
func leaderOf(ballot, n int) int { return ballot % n }

// Run runs at most maxBallots phases.
func (p *Proc) Run(maxBallots int) {
	majority := p.n/2 + 1
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()

	//sync:tag p.ballot,p.step
	for range maxBallots {
		// Fig. 1's leader sends phase+1; here every process moves to the
		// next ballot first, so that the Prepare carries the sender's
		// ballot and a retry never goes back to Prepare in the same one.
		p.ballot++
		p.step = Prepare

		// Round Prepare (lines 7-18).
		if leaderOf(p.ballot, p.n) == p.id {
			p.broadcast(p.newMsg()) // line 10
		}
		var prepares []Message
		timer.Reset(p.timeout)
	waitPrepare:
		for len(prepares) == 0 {
			select {
			case e := <-p.in:
				m, ok := e.Msg.(Message)
				if !ok || !p.joinable(m) {
					continue
				}
				prepares = append(prepares, m)
			case <-timer.C:
				break waitPrepare
			}
		}
		if len(prepares) == 0 {
			continue // no leader in this ballot
		}
		prep := prepares[0]
		p.last = p.ballot      // line 15: THE BUG (@bugfix remove)
		p.ballot = prep.Ballot // line 16: join the leader's ballot
		p.leader = prep.From   // line 17
		p.step = Ack           // line 18

		// Round Ack (lines 20-30): our log, dated by last, to the leader.
		ack := p.newMsg()
		ack.Last = p.last
		ack.Log = slices.Clone(p.log)
		select {
		case p.peers[p.leader] <- transport.Envelope{From: p.id, Msg: ack}:
		default: // the leader's inbox is full: the Ack is lost
		}
		if p.leader == p.id {
			acks := make(map[int]Message)
			timer.Reset(p.timeout)
		waitAcks:
			for len(acks) < majority {
				select {
				case e := <-p.in:
					m, ok := e.Msg.(Message)
					if !ok || m.Ballot != p.ballot || m.Step != p.step {
						continue
					}
					acks[m.From] = m
				case <-timer.C:
					break waitAcks
				}
			}
			if len(acks) < majority {
				continue // line 26: no quorum
			}
			p.log = mostRecentLog(acks)           // line 27
			p.log = append(p.log, p.newCommand()) // line 28
		}
		p.step = Propose // lines 29-30

		// Round Propose (lines 25-34, second column).
		if p.leader == p.id {
			prop := p.newMsg()
			prop.Log = slices.Clone(p.log)
			p.broadcast(prop)
		}
		var proposals []Message
		timer.Reset(p.timeout)
	waitPropose:
		for len(proposals) == 0 {
			select {
			case e := <-p.in:
				m, ok := e.Msg.(Message)
				if !ok || m.Ballot != p.ballot || m.Step != p.step || m.From != p.leader {
					continue
				}
				proposals = append(proposals, m)
			case <-timer.C:
				break waitPropose
			}
		}
		if len(proposals) == 0 {
			continue
		}
		p.log = slices.Clone(proposals[0].Log) // line 32
		p.step = Promise                       // line 33
		// Line 34, @bugfix add: the fix sets p.last = p.ballot here.

		// Round Promise (lines 36-42).
		promise := p.newMsg()
		promise.Log = slices.Clone(p.log)
		p.broadcast(promise)
		promises := make(map[int]Message)
		timer.Reset(p.timeout)
	waitPromises:
		for !promised(promises, majority) {
			select {
			case e := <-p.in:
				m, ok := e.Msg.(Message)
				if !ok || m.Ballot != p.ballot || m.Step != p.step {
					continue
				}
				promises[m.From] = m
			case <-timer.C:
				break waitPromises
			}
		}
		if log, ok := majorityLog(promises, majority); ok {
			p.outputs = append(p.outputs, log) // line 42
		}
	}
}

// joinable reports whether m is a Prepare this process may join: one of its
// current ballot or of a later one (Fig. 1, lines 13-14).
func (p *Proc) joinable(m Message) bool {
	return m.Step == p.step && m.Ballot >= p.ballot
}

// newMsg returns a message stamped with the current tag.
func (p *Proc) newMsg() Message {
	return Message{Ballot: p.ballot, Step: p.step, From: p.id}
}

// broadcast sends m to every process, this one included. A full inbox
// loses its copy, as a lossy link would.
//
//sync:send
func (p *Proc) broadcast(m Message) {
	for _, peer := range p.peers {
		select {
		case peer <- transport.Envelope{From: p.id, Msg: m}:
		default:
		}
	}
}

// mostRecentLog returns the log of the Ack with the largest last, the one of
// the smallest sender among those (line 27's
// select_log_from_received_messages).
func mostRecentLog(acks map[int]Message) []string {
	best := -1
	for q, m := range acks {
		if best < 0 || m.Last > acks[best].Last || m.Last == acks[best].Last && q < best {
			best = q
		}
	}
	return slices.Clone(acks[best].Log)
}

// majorityLog returns the log that at least majority Promises carry.
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

// promised reports whether a majority of the Promises agree on a log.
func promised(promises map[int]Message, majority int) bool {
	_, ok := majorityLog(promises, majority)
	return ok
}

// Outputs returns the logs the process output, in order.
func (p *Proc) Outputs() [][]string {
	out := make([][]string, len(p.outputs))
	for i, o := range p.outputs {
		out[i] = slices.Clone(o)
	}
	return out
}
