package raftlease

import (
	"context"
	"time"
)

// Step is the last component of the tag: where a node is within a beat.
type Step int

// The steps of a beat, in order.
const (
	// Ping: the leader sends the heartbeat.
	Ping Step = iota
	// Pong: the followers acknowledge it.
	Pong
)

// Message is implemented by the two message types.
type Message interface{ sender() int }

// Heartbeat is sent by the leader of Term; Beat numbers the heartbeats of
// a term.
//
//sync:msg Term,Beat,Ping
type Heartbeat struct {
	Term   int
	Beat   int
	Leader int
}

// HeartbeatAck acknowledges heartbeat Beat of Term.
//
//sync:msg Term,Beat,Pong
type HeartbeatAck struct {
	Term int
	Beat int
	From int
}

func (m *Heartbeat) sender() int    { return m.Leader }
func (m *HeartbeatAck) sender() int { return m.From }

// Sender delivers messages to other nodes.
type Sender interface {
	// Send delivers m to node to, or loses it.
	//
	//sync:send
	Send(to int, m Message)
}

// Config configures a node.
type Config struct {
	ID, Size          int
	HeartbeatInterval time.Duration
	ElectionTimeout   time.Duration
	// Lease must be shorter than ElectionTimeout minus the clock drift.
	Lease time.Duration
}

// Grant records a lease the node obtained as leader.
type Grant struct {
	Term, Beat int
	Until      time.Time
}

// Node is one Raft server, heartbeats only.
type Node struct {
	cfg Config
	net Sender
	//sync:inbox
	inbox <-chan Message

	term int
	beat int
	step Step

	leaseUntil time.Time
	grants     []Grant
}

// NewNode returns a node in term 0, whose leader is node 0.
func NewNode(cfg Config, net Sender, inbox <-chan Message) *Node {
	return &Node{cfg: cfg, net: net, inbox: inbox}
}

func (n *Node) leader() bool { return n.term%n.cfg.Size == n.cfg.ID }

func (n *Node) broadcast(m Message) {
	for to := range n.cfg.Size {
		if to != n.cfg.ID {
			n.net.Send(to, m)
		}
	}
}

// Run runs the node until ctx is done.
func (n *Node) Run(ctx context.Context) error {
	election := time.NewTimer(n.cfg.ElectionTimeout)
	defer election.Stop()
	ticker := time.NewTicker(n.cfg.HeartbeatInterval)
	defer ticker.Stop()

	var sentAt time.Time       // when the current beat's heartbeat left
	acks := make(map[int]bool) // acknowledgements of the current beat
	quorum := n.cfg.Size/2 + 1

	//sync:tag n.term,n.beat,n.step
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()

		case <-election.C:
			election.Reset(n.cfg.ElectionTimeout)
			if n.leader() {
				continue
			}
			// The leader is silent: try the next term, led by its node.
			n.term++
			n.beat, n.step = 0, Ping
			n.leaseUntil = time.Time{}

		case <-ticker.C:
			if !n.leader() {
				continue
			}
			n.beat++
			n.step = Ping
			clear(acks)
			sentAt = time.Now()
			n.broadcast(&Heartbeat{Term: n.term, Beat: n.beat, Leader: n.cfg.ID})
			n.step = Pong

		case m := <-n.inbox:
			switch m := m.(type) {
			case *Heartbeat:
				if m.Term < n.term || m.Term == n.term && m.Beat <= n.beat {
					continue // a heartbeat we already answered, or an old leader's
				}
				// A later heartbeat: follow it. Somebody else leads its
				// term, so we hold no lease (we step down if we led an
				// earlier term).
				n.term, n.beat, n.step = m.Term, m.Beat, Ping
				n.leaseUntil = time.Time{}
				election.Reset(n.cfg.ElectionTimeout)
				n.step = Pong
				n.net.Send(m.Leader, &HeartbeatAck{Term: n.term, Beat: n.beat, From: n.cfg.ID})

			case *HeartbeatAck:
				if m.Term != n.term || m.Beat != n.beat || n.step != Pong {
					continue // not an answer to our current heartbeat
				}
				acks[m.From] = true
				if len(acks)+1 == quorum {
					n.leaseUntil = sentAt.Add(n.cfg.Lease)
					n.grants = append(n.grants, Grant{Term: n.term, Beat: n.beat, Until: n.leaseUntil})
				}
			}
		}
	}
}

// Grants returns the leases the node obtained; call it after Run returned.
func (n *Node) Grants() []Grant { return n.grants }

// Term returns the node's term; call it after Run returned.
func (n *Node) Term() int { return n.term }
