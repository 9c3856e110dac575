package dagrider

import (
	"fmt"
	"slices"
	"sync"
)

// Steps is the number of rounds of a wave.
const Steps = 4

// Header says which round a vertex belongs to: step Step (0..Steps-1) of
// wave Wave (from 1).
type Header struct {
	Wave int
	Step int
}

// Vertex is a vertex of the DAG: Author's block of its round, with strong
// edges to the vertices of the previous round by the authors in Parents.
//
//sync:msg Hdr.Wave,Hdr.Step
type Vertex struct {
	Hdr     Header
	Author  int
	Parents []int
	Block   string
}

// Broadcaster sends vertices to every process, the sender included.
type Broadcaster interface {
	//sync:send
	Broadcast(v Vertex)
}

// Network is an in-memory Broadcaster with one FIFO inbox per process; a
// broadcast enqueues all its copies under one lock, so delivery is causal.
type Network struct {
	mu      sync.Mutex
	inboxes []chan Vertex
}

// NewNetwork returns a network of n processes.
func NewNetwork(n int) *Network {
	nw := &Network{inboxes: make([]chan Vertex, n)}
	for i := range nw.inboxes {
		nw.inboxes[i] = make(chan Vertex, 64*n)
	}
	return nw
}

// Broadcast implements Broadcaster.
func (nw *Network) Broadcast(v Vertex) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	for _, in := range nw.inboxes {
		select {
		case in <- v:
		default: // full inbox: lost
		}
	}
}

// Process is one participant; its fields belong to Run while it executes.
type Process struct {
	id, n, f int
	net      Broadcaster
	//sync:inbox
	in <-chan Vertex

	// The tag (wave, step) of the loop in Run.
	wave int
	step int

	dag       map[int]map[int]Vertex // absolute round -> author -> vertex
	committed int                    // last wave whose leader was ordered
	delivered map[[2]int]bool        // (absolute round, author) already delivered
	output    []string               // delivered blocks, in order
}

// NewProcess returns process id of nw, tolerating f faults.
func NewProcess(id, f int, nw *Network) (*Process, error) {
	n := len(nw.inboxes)
	if id < 0 || id >= n || n <= 3*f {
		return nil, fmt.Errorf("dagrider: need 0 <= id < n and n > 3f, got id=%d n=%d f=%d", id, n, f)
	}
	return &Process{
		id: id, n: n, f: f, net: nw, in: nw.inboxes[id],
		dag: make(map[int]map[int]Vertex), delivered: make(map[[2]int]bool),
	}, nil
}

// abs returns the absolute number of a round, from 0.
func abs(wave, step int) int { return (wave-1)*Steps + step }

// leaderOf returns the author of the leader vertex of a wave.
func (p *Process) leaderOf(wave int) int { return wave % p.n }

// Output returns the delivered blocks, in delivery order.
func (p *Process) Output() []string { return slices.Clone(p.output) }
