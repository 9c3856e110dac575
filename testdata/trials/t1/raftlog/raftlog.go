package raftlog

import (
	"slices"
	"sync"
	"time"
)

// Step is the round inside a term.
type Step int

// The rounds of a term.
const (
	Status Step = iota // everyone reports its log to the term's leader
	Append             // the leader sends AppendEntries
	Ack                // followers acknowledge what they store
	Commit             // the leader announces its commit index
)

// Entry is one log entry.
type Entry struct {
	Term int
	Cmd  string
}

// StatusMsg reports a log to the leader of a term.
//
//sync:msg Term,Status
type StatusMsg struct {
	Term int
	From int
	Log  []Entry
}

// AppendEntries carries the leader's log and commit index.
//
//sync:msg Term,Append
type AppendEntries struct {
	Term    int
	From    int
	Entries []Entry
	Commit  int
}

// AckMsg acknowledges an AppendEntries: the sender stores Match entries.
//
//sync:msg Term,Ack
type AckMsg struct {
	Term  int
	From  int
	Match int
}

// CommitMsg announces the leader's commit index.
//
//sync:msg Term,Commit
type CommitMsg struct {
	Term  int
	From  int
	Index int
}

func (m StatusMsg) sender() int { return m.From }
func (m AckMsg) sender() int    { return m.From }

// Replica is one Raft server replicating a log.
type Replica struct {
	id      int
	n       int
	in      <-chan any   //sync:inbox
	peers   []chan<- any //sync:peers
	wire    *sync.Mutex  // shared by the cluster: a broadcast is enqueued at once
	timeout time.Duration
	drop    func(to int, m any) bool // loss model for tests; nil loses nothing
	queue   []string                 // client commands, one appended per term led

	term int
	step Step

	log    []Entry
	commit int // log[:commit] is committed
}

// Committed returns the committed prefix of the log.
func (r *Replica) Committed() []Entry { return slices.Clone(r.log[:r.commit]) }

func (r *Replica) leaderOf(term int) int { return term % r.n }

func (r *Replica) lastTerm() int {
	if len(r.log) == 0 {
		return 0
	}
	return r.log[len(r.log)-1].Term
}

func (r *Replica) send(to int, m any) {
	if r.drop != nil && r.drop(to, m) {
		return
	}
	select {
	case r.peers[to] <- m:
	default: // inbox full: lost
	}
}

func (r *Replica) broadcast(m any) {
	r.wire.Lock()
	defer r.wire.Unlock()
	for to := range r.peers {
		r.send(to, m)
	}
}

// Run runs maxTerms terms.
func (r *Replica) Run(maxTerms int) {
	majority := r.n/2 + 1
	//sync:tag r.term,r.step
	for i := 0; i < maxTerms; i++ {
		r.term++
		r.step = Status
		leader := r.leaderOf(r.term)
		r.send(leader, StatusMsg{Term: r.term, From: r.id, Log: slices.Clone(r.log)})
		if leader == r.id {
			sts := collect(r, majority, func(s StatusMsg) bool { return s.Term == r.term })
			if len(sts) < majority {
				continue
			}
			// Raft elects only a candidate whose log is at least as up
			// to date as a majority's; the fixed leader takes that log.
			r.log = mostUpToDate(sts)
			if len(r.queue) > 0 {
				r.log = append(r.log, Entry{Term: r.term, Cmd: r.queue[0]})
				r.queue = r.queue[1:]
			}
		}

		r.step = Append
		if leader == r.id {
			r.broadcast(AppendEntries{Term: r.term, From: r.id, Entries: slices.Clone(r.log), Commit: r.commit})
		}
		ae, ok := r.awaitAppend()
		if !ok {
			continue
		}
		if ae.Term > r.term {
			r.term = ae.Term // a leader of a later term: follow it
			leader = ae.From
		}
		r.log = slices.Clone(ae.Entries)
		r.commit = max(r.commit, min(ae.Commit, len(r.log)))

		r.step = Ack
		r.send(leader, AckMsg{Term: r.term, From: r.id, Match: len(r.log)})
		if leader == r.id {
			acks := collect(r, r.n, func(a AckMsg) bool { return a.Term == r.term })
			if len(acks) < majority {
				continue
			}
			// Commit the highest index a majority stores, if it is of
			// this term (Raft, Sec. 5.4.2).
			matches := make([]int, 0, len(acks))
			for _, a := range acks {
				matches = append(matches, a.Match)
			}
			slices.Sort(matches)
			idx := matches[len(matches)-majority]
			if idx > r.commit && r.log[idx-1].Term == r.term {
				r.commit = idx
			}
		}

		r.step = Commit
		if leader == r.id {
			r.broadcast(CommitMsg{Term: r.term, From: r.id, Index: r.commit})
		}
		if cm, ok := r.awaitCommit(leader); ok {
			r.commit = max(r.commit, min(cm.Index, len(r.log)))
		}
	}
}

// mostUpToDate returns the log of the statuses whose last entry has the
// highest term, the longest among those.
func mostUpToDate(sts map[int]StatusMsg) []Entry {
	var best []Entry
	for _, s := range sts {
		lt, bt := lastTermOf(s.Log), lastTermOf(best)
		if best == nil || lt > bt || lt == bt && len(s.Log) > len(best) {
			best = s.Log
		}
	}
	return slices.Clone(best)
}

func lastTermOf(log []Entry) int {
	if len(log) == 0 {
		return 0
	}
	return log[len(log)-1].Term
}

// collect receives messages of type M until it holds need of them, one per
// sender, that keep accepts, or until the timeout.
func collect[M interface{ sender() int }](r *Replica, need int, keep func(M) bool) map[int]M {
	got := make(map[int]M)
	timer := time.NewTimer(r.timeout)
	defer timer.Stop()
	for len(got) < need {
		select {
		case raw := <-r.in:
			m, ok := raw.(M)
			if !ok || !keep(m) {
				continue
			}
			got[m.sender()] = m
		case <-timer.C:
			return got
		}
	}
	return got
}

// awaitAppend waits for the AppendEntries of the leader of this term or of
// a later one.
func (r *Replica) awaitAppend() (AppendEntries, bool) {
	timer := time.NewTimer(r.timeout)
	defer timer.Stop()
	for {
		select {
		case raw := <-r.in:
			ae, ok := raw.(AppendEntries)
			if !ok || ae.Term < r.term || ae.From != r.leaderOf(ae.Term) {
				continue
			}
			return ae, true
		case <-timer.C:
			return AppendEntries{}, false
		}
	}
}

// awaitCommit waits for the commit index of this term's leader.
func (r *Replica) awaitCommit(leader int) (CommitMsg, bool) {
	timer := time.NewTimer(r.timeout)
	defer timer.Stop()
	for {
		select {
		case raw := <-r.in:
			cm, ok := raw.(CommitMsg)
			if !ok || cm.Term != r.term || cm.From != leader {
				continue
			}
			return cm, true
		case <-timer.C:
			return CommitMsg{}, false
		}
	}
}
