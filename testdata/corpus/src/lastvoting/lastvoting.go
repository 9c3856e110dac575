// Package lastvoting is LastVoting, the Heard-Of version of Paxos
// (Charron-Bost and Schiper; Algorithm 2 of Tsuchiya and Schiper, "Model
// checking of consensus algorithms"), with a rotating coordinator, written
// asynchronously over typed Go channels.
//
// Every process runs the same loop (Proc.Run). One iteration is one phase φ
// of four rounds, Collect, Propose, Accept and Decide (see Step). Sends
// never block: a message for a full inbox is lost, which the algorithm
// tolerates. Every round waits for its messages at most for the timeout.
//
// A process that receives the vote of the coordinator of a later phase fell
// behind: it jumps to that phase, in round Propose, and goes on from there.
// All other rounds only use messages of exactly their phase.
package lastvoting

import (
	"context"
	"time"
)

// Proc is one LastVoting process.
type Proc struct {
	id      int
	n       int
	inbox   *Inbox   //sync:inbox
	peers   []*Inbox //sync:peers // peers[q] is the inbox of process q, this one included
	timeout time.Duration

	// Synchronization variables: the tag (phase, step) of the loop in Run.
	phase int
	step  Step

	// Algorithm variables (Algorithm 2, lines 2-6).
	x        int
	ts       int  // the phase in which x was last adopted from a coordinator
	vote     int  // coordinator only: the value it proposes in this phase
	commit   bool // coordinator only: vote is set
	ready    bool // coordinator only: a majority acked vote
	decided  bool
	decision int
}

// New returns process id proposing v, receiving on peers[id].
func New(id int, peers []*Inbox, v int, timeout time.Duration) *Proc {
	return &Proc{id: id, n: len(peers), inbox: peers[id], peers: peers, timeout: timeout, x: v}
}

// coordOf is the rotating coordinator of phase φ (LastVoting^rc).
func coordOf(phase, n int) int { return (phase - 1) % n }

// Decision returns the decided value, if any.
func (p *Proc) Decision() (int, bool) { return p.decision, p.decided }

// Run executes phases until phase maxPhases, or until ctx is done. A process
// that decided keeps going: as a coordinator it helps the others decide.
func (p *Proc) Run(ctx context.Context, maxPhases int) {
	majority := p.n/2 + 1
	var expired <-chan time.Time

	//sync:tag p.phase,p.step
	for p.phase < maxPhases {
		p.phase++
		p.step = Collect
		p.commit, p.ready = false, false // lines 36-38, for the new phase
		coord := coordOf(p.phase, p.n)

		// Round Collect (lines 7-14): send ⟨x, ts⟩ to the coordinator,
		// which picks the x with the largest ts among a majority.
		select {
		case p.peers[coord].Estimates <- Estimate{Phase: p.phase, From: p.id, X: p.x, TS: p.ts}:
		default: // inbox full: the estimate is lost
		}
		if p.id == coord {
			estimates := make(map[int]Estimate)
			expired = time.After(p.timeout)
		collect:
			for len(estimates) < majority {
				select {
				case e := <-p.inbox.Estimates:
					if e.Phase != p.phase {
						continue // sent to us as the coordinator of another phase
					}
					estimates[e.From] = e
				case <-expired:
					break collect
				case <-ctx.Done():
					return
				}
			}
			if len(estimates) >= majority {
				p.vote = freshest(estimates)
				p.commit = true
			}
		}

		// Round Propose (lines 15-21): the coordinator sends its vote;
		// everybody adopts the vote of a coordinator, of this phase or of
		// a later one.
		p.step = Propose
		if p.id == coord && p.commit {
			v := Vote{Phase: p.phase, From: p.id, V: p.vote}
			for _, q := range p.peers {
				select {
				case q.Votes <- v:
				default:
				}
			}
		}
		var votes []Vote
		expired = time.After(p.timeout)
	propose:
		for len(votes) == 0 {
			select {
			case v := <-p.inbox.Votes:
				if v.Phase < p.phase || v.From != coordOf(v.Phase, p.n) {
					continue // stale, or not from the coordinator of its phase
				}
				votes = append(votes, v)
			case <-expired:
				break propose
			case <-ctx.Done():
				return
			}
		}
		if len(votes) == 0 {
			continue // no vote in this phase: try the next one
		}
		if votes[0].Phase > p.phase {
			p.phase = votes[0].Phase // we fell behind: jump to the phase of the vote
		}
		p.x = votes[0].V
		p.ts = p.phase
		coord = coordOf(p.phase, p.n)

		// Round Accept (lines 22-28): ts = φ now, so ack the vote; the
		// coordinator is ready once a majority acked.
		p.step = Accept
		select {
		case p.peers[coord].Acks <- Ack{Phase: p.phase, From: p.id}:
		default:
		}
		if p.id == coord {
			acks := make(map[int]bool)
			expired = time.After(p.timeout)
		accept:
			for len(acks) < majority {
				select {
				case a := <-p.inbox.Acks:
					if a.Phase != p.phase {
						continue
					}
					acks[a.From] = true
				case <-expired:
					break accept
				case <-ctx.Done():
					return
				}
			}
			p.ready = len(acks) >= majority
		}

		// Round Decide (lines 29-35): a ready coordinator sends the
		// decision; whoever receives it decides.
		p.step = Decide
		if p.id == coord && p.ready {
			d := Decision{Phase: p.phase, From: p.id, V: p.vote}
			for _, q := range p.peers {
				select {
				case q.Decisions <- d:
				default:
				}
			}
		}
		var decisions []Decision
		expired = time.After(p.timeout)
	decide:
		for len(decisions) == 0 {
			select {
			case d := <-p.inbox.Decisions:
				if d.Phase != p.phase || d.From != coord {
					continue
				}
				decisions = append(decisions, d)
			case <-expired:
				break decide
			case <-ctx.Done():
				return
			}
		}
		if len(decisions) > 0 && !p.decided {
			p.decided, p.decision = true, decisions[0].V
		}
	}
}

// freshest returns the x of an estimate with the largest ts (line 12-13),
// the one of the smallest sender on a tie.
func freshest(estimates map[int]Estimate) int {
	best := -1
	for q, e := range estimates {
		if best < 0 || e.TS > estimates[best].TS || e.TS == estimates[best].TS && q < best {
			best = q
		}
	}
	return estimates[best].X
}
