package raftprevote

import "context"

// MsgType is the kind of a message and the round part of the tag.
type MsgType int

// The rounds of a term, in order.
const (
	MsgPreVote MsgType = iota
	MsgPreVoteResp
	MsgVote
	MsgVoteResp
	MsgHeartbeat
)

// Message is the one message type.
//
//sync:msg Term,Type
type Message struct {
	Type    MsgType
	Term    int
	From    int
	Granted bool // responses

	LastLogTerm, LastLogIndex int // requests: the candidate's log
}

// Config configures a node.
type Config struct {
	ID, Size        int
	ElectionTimeout int // in ticks
	LastLogTerm     int // the node's log, which does not change here
	LastLogIndex    int
}

// Node is one Raft node, election only.
type Node struct {
	cfg Config
	//sync:peers
	peers []chan<- Message
	//sync:inbox
	inbox <-chan Message
	tick  <-chan struct{}

	term  int
	round MsgType

	lead        int // known leader of the term, -1 if none
	elapsed     int // ticks since the leader was last heard of, or since the campaign began
	campaigning bool
	granted     map[int]bool

	led []int // terms in which this node became leader
}

// NewNode returns a follower in term 0 without a leader.
func NewNode(cfg Config, peers []chan<- Message, inbox <-chan Message, tick <-chan struct{}) *Node {
	return &Node{cfg: cfg, peers: peers, inbox: inbox, tick: tick, lead: -1, round: MsgHeartbeat}
}

func (n *Node) send(to int, m Message) {
	select {
	case n.peers[to] <- m:
	default:
	}
}

func (n *Node) broadcast(m Message) {
	for to := range n.peers {
		if to != n.cfg.ID {
			n.send(to, m)
		}
	}
}

func (n *Node) request(t MsgType) Message {
	return Message{Type: t, Term: n.term, From: n.cfg.ID,
		LastLogTerm: n.cfg.LastLogTerm, LastLogIndex: n.cfg.LastLogIndex}
}

// upToDate reports whether the candidate's log is at least as recent as ours.
func (n *Node) upToDate(m Message) bool {
	return m.LastLogTerm > n.cfg.LastLogTerm ||
		m.LastLogTerm == n.cfg.LastLogTerm && m.LastLogIndex >= n.cfg.LastLogIndex
}

// Run runs the node until ctx is done.
func (n *Node) Run(ctx context.Context) {
	quorum := n.cfg.Size/2 + 1

	//sync:tag n.term,n.round
	for {
		select {
		case <-ctx.Done():
			return

		case <-n.tick:
			n.elapsed++
			if n.lead == n.cfg.ID {
				n.elapsed = 0
				n.broadcast(Message{Type: MsgHeartbeat, Term: n.term, From: n.cfg.ID})
				continue
			}
			if n.elapsed < n.cfg.ElectionTimeout {
				continue
			}
			// Start an election attempt, with a pre-vote, in the next term.
			n.elapsed = 0
			n.term++
			n.round = MsgPreVote
			n.lead, n.campaigning = -1, true
			n.granted = map[int]bool{n.cfg.ID: true}
			n.broadcast(n.request(MsgPreVote))
			n.round = MsgPreVoteResp

		case m := <-n.inbox:
			if m.Term < n.term || m.Term == n.term && m.Type < n.round {
				continue // an earlier term's or round's message
			}
			if (m.Type == MsgPreVote || m.Type == MsgVote) && m.Term > n.term &&
				n.lead >= 0 && n.elapsed < n.cfg.ElectionTimeout {
				continue // we have a live leader: ignore the campaign
			}
			if m.Term > n.term {
				n.term, n.round = m.Term, m.Type // a later term: step down
				n.lead, n.campaigning = -1, false
			} else if m.Type > n.round {
				n.round = m.Type // a later round of our term
			}
			n.handle(m, quorum)
		}
	}
}

// handle processes a message of the node's current term and round.
func (n *Node) handle(m Message, quorum int) {
	switch m.Type {
	case MsgPreVote:
		n.round = MsgPreVoteResp
		n.send(m.From, Message{Type: MsgPreVoteResp, Term: n.term, From: n.cfg.ID, Granted: n.upToDate(m)})

	case MsgPreVoteResp:
		if !n.campaigning || !m.Granted {
			return
		}
		n.granted[m.From] = true
		if len(n.granted) < quorum {
			return
		}
		n.round = MsgVote
		n.granted = map[int]bool{n.cfg.ID: true}
		n.broadcast(n.request(MsgVote))
		n.round = MsgVoteResp

	case MsgVote:
		grant := n.upToDate(m)
		if grant {
			n.elapsed = 0
		}
		n.round = MsgVoteResp
		n.send(m.From, Message{Type: MsgVoteResp, Term: n.term, From: n.cfg.ID, Granted: grant})

	case MsgVoteResp:
		if !n.campaigning || !m.Granted {
			return
		}
		n.granted[m.From] = true
		if len(n.granted) < quorum {
			return
		}
		n.round = MsgHeartbeat
		n.lead, n.campaigning = n.cfg.ID, false
		n.led = append(n.led, n.term)
		n.broadcast(Message{Type: MsgHeartbeat, Term: n.term, From: n.cfg.ID})

	case MsgHeartbeat:
		n.lead, n.campaigning = m.From, false
		n.elapsed = 0
	}
}

// Led returns the terms in which the node became leader; call it after Run.
func (n *Node) Led() []int { return n.led }

// Lead returns the leader the node follows; call it after Run.
func (n *Node) Lead() int { return n.lead }
