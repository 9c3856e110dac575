package hrsvote

import (
	"fmt"
	"time"
)

// The generated message types cannot be annotated where they are declared.
//
//sync:msg Proposal Height,Round,Step_PROPOSE
//sync:msg Vote Height,Round,Type

// Message is implemented by *Proposal and *Vote.
type Message interface{}

// Gossip publishes messages to every process, the sender included.
type Gossip interface {
	// Publish sends m to everybody.
	//
	//sync:send
	Publish(m Message)
}

// Config configures a process.
type Config struct {
	ID, N, F int
	Heights  int64         // decide heights 1..Heights
	Timeout  time.Duration // per step
}

type state struct {
	cfg    Config
	gossip Gossip
	//sync:inbox
	inbox <-chan Message

	height int64
	round  int32
	step   Step

	lockedValue string
	lockedRound int32
	validValue  string
	decisions   []string // decisions[h-1] is the value decided at height h
}

func (s *state) proposer() int { return int((s.height + int64(s.round)) % int64(s.cfg.N)) }

// Run decides cfg.Heights values and returns them.
func Run(cfg Config, gossip Gossip, inbox <-chan Message) []string {
	s := &state{cfg: cfg, gossip: gossip, inbox: inbox, height: 1, round: 0, step: Step_PROPOSE, lockedRound: -1}
	quorum := 2*cfg.F + 1
	timer := time.NewTimer(cfg.Timeout)
	defer timer.Stop()

	//sync:tag s.height,s.round,s.step
	for s.height <= cfg.Heights {
		if s.proposer() == cfg.ID {
			value := s.validValue
			if value == "" {
				value = fmt.Sprintf("h%d/p%d", s.height, cfg.ID)
			}
			s.gossip.Publish(&Proposal{Height: s.height, Round: s.round, Proposer: int32(cfg.ID),
				Value: value, LastCommit: s.last()})
		}
		var props []*Proposal
		timer.Reset(cfg.Timeout)
	propose:
		for len(props) == 0 {
			select {
			case m := <-s.inbox:
				p, ok := m.(*Proposal)
				if !ok || p.Height < s.height || p.Height == s.height && p.Round < s.round || p.Height > s.height+1 {
					continue
				}
				props = append(props, p)
			case <-timer.C:
				break propose
			}
		}
		proposal := ""
		if len(props) > 0 {
			p := props[0]
			if p.Height > s.height {
				// We missed the decision of our height: catch up with the
				// proposer and adopt the decision it reports.
				s.height, s.round = p.Height, p.Round
				s.decisions = append(s.decisions, p.GetLastCommit())
				s.lockedValue, s.lockedRound, s.validValue = "", -1, ""
			} else if p.Round > s.round {
				s.round = p.Round
			}
			if s.height > cfg.Heights {
				break
			}
			proposal = p.GetValue()
		}
		drain(timer)

		s.step = Step_PREVOTE
		prevote := proposal
		if s.lockedValue != "" && s.lockedValue != proposal {
			prevote = ""
		}
		s.gossip.Publish(&Vote{Height: s.height, Round: s.round, Type: Step_PREVOTE, Voter: int32(cfg.ID), Value: prevote})
		prevotes := make(map[int32]string)
		timer.Reset(cfg.Timeout)
	prevoting:
		for !decisive(prevotes, quorum, cfg.N) {
			select {
			case m := <-s.inbox:
				v, ok := m.(*Vote)
				if !ok || v.Height != s.height || v.Round != s.round || v.Type != Step_PREVOTE {
					continue
				}
				prevotes[v.GetVoter()] = v.GetValue()
			case <-timer.C:
				break prevoting
			}
		}
		drain(timer)

		s.step = Step_PRECOMMIT
		precommit := ""
		if v, ok := majority(prevotes, quorum); ok && v != "" {
			s.lockedValue, s.lockedRound, s.validValue = v, s.round, v
			precommit = v
		}
		s.gossip.Publish(&Vote{Height: s.height, Round: s.round, Type: Step_PRECOMMIT, Voter: int32(cfg.ID), Value: precommit})
		precommits := make(map[int32]string)
		timer.Reset(cfg.Timeout)
	precommitting:
		for !decisive(precommits, quorum, cfg.N) {
			select {
			case m := <-s.inbox:
				v, ok := m.(*Vote)
				if !ok || v.Height != s.height || v.Round != s.round || v.Type != Step_PRECOMMIT {
					continue
				}
				precommits[v.GetVoter()] = v.GetValue()
			case <-timer.C:
				break precommitting
			}
		}
		drain(timer)

		if v, ok := majority(precommits, quorum); ok && v != "" {
			s.decisions = append(s.decisions, v)
			s.height++
			s.round = 0
			s.step = Step_PROPOSE
			s.lockedValue, s.lockedRound, s.validValue = "", -1, ""
		} else {
			s.round++
			s.step = Step_PROPOSE
		}
	}
	return s.decisions
}

// last returns the value decided at the height before the current one.
func (s *state) last() string {
	if len(s.decisions) == 0 {
		return ""
	}
	return s.decisions[len(s.decisions)-1]
}

// majority returns a value with at least quorum votes.
func majority(votes map[int32]string, quorum int) (string, bool) {
	count := make(map[string]int)
	for _, v := range votes {
		count[v]++
		if count[v] >= quorum {
			return v, true
		}
	}
	return "", false
}

// decisive reports whether more votes cannot change the outcome: a value
// has a quorum, or everybody voted.
func decisive(votes map[int32]string, quorum, n int) bool {
	_, ok := majority(votes, quorum)
	return ok || len(votes) == n
}

// drain stops t and empties its channel, so that it can be Reset.
func drain(t *time.Timer) {
	if !t.Stop() {
		select {
		case <-t.C:
		default:
		}
	}
}
