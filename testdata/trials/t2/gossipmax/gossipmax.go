package gossipmax

import (
	"sync"
	"time"
)

// Report is the one message of the protocol: the largest value its sender
// knows in round Round of epoch Epoch.
//
//sync:msg Epoch,Round
type Report struct {
	Epoch int
	Round int
	From  int
	Max   int
}

// Config configures a node.
type Config struct {
	ID      int
	Rounds  int           // most rounds per epoch
	Timeout time.Duration // how long a round waits for the reports of all peers
	// Reading returns the node's local value at the start of an epoch.
	Reading func(epoch int) int
}

// Node is one gossip participant.
type Node struct {
	cfg Config

	//sync:peers
	peers []chan<- Report // peers[i] is the inbox of node i, this node's included
	//sync:inbox
	inbox <-chan Report
	// wire is shared by the group and held for a whole broadcast, so that a
	// broadcast reaches every inbox before any answer to it can: delivery
	// respects causality, like a totally ordered multicast.
	wire *sync.Mutex
}

// NewNode returns node cfg.ID of a group whose inboxes are peers; inbox must
// be peers[cfg.ID] and wire the lock shared by the group.
func NewNode(cfg Config, wire *sync.Mutex, peers []chan<- Report, inbox <-chan Report) *Node {
	return &Node{cfg: cfg, peers: peers, inbox: inbox, wire: wire}
}

// broadcast sends r to every node; a full inbox loses its copy, as a
// congested UDP socket would.
func (n *Node) broadcast(r Report) {
	n.wire.Lock()
	defer n.wire.Unlock()
	for _, p := range n.peers {
		select {
		case p <- r:
		default:
		}
	}
}

// Run executes epochs epochs and returns the maximum each of them agreed on,
// as far as this node could tell.
func (n *Node) Run(epochs int) []int {
	results := make([]int, 0, epochs)
	all := len(n.peers)
	timer := time.NewTimer(n.cfg.Timeout)
	defer timer.Stop()

	epoch, round := 0, 0
	//sync:tag epoch,round
	for e := 0; e < epochs; e++ {
		epoch++
		round = 0
		best := n.cfg.Reading(epoch)
		out := Report{Epoch: epoch, From: n.id()}
		for ; round < n.cfg.Rounds; round++ {
			out.Round, out.Max = round, best
			n.broadcast(out)

			heard := make(map[int]Report)
			timer.Reset(n.cfg.Timeout)
		recv:
			for len(heard) < all {
				select {
				case m := <-n.inbox:
					if m.Epoch != epoch || m.Round < round {
						continue // another epoch, or an earlier round: drop
					}
					heard[m.From] = m
				case <-timer.C:
					break recv
				}
			}
			// A peer may be ahead of us in this epoch: catch up with it
			// before using what it said.
			for _, m := range heard {
				if m.Round > round {
					round = m.Round
				}
			}
			if !timer.Stop() {
				select {
				case <-timer.C:
				default:
				}
			}
			agreed := len(heard) == all
			for _, m := range heard {
				if m.Max > best {
					best = m.Max
					agreed = false
				} else if m.Max < best {
					agreed = false
				}
			}
			if agreed {
				break // everybody holds our value: nothing left to learn
			}
		}
		results = append(results, best)
	}
	return results
}

func (n *Node) id() int { return n.cfg.ID }
