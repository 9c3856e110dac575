package tendermintev

import "sync"

// Network connects the nodes. Broadcast hands every copy of a message to
// the receivers' gossip layers under one lock, so delivery is causal.
type Network struct {
	mu    sync.Mutex
	nodes []*Gossip
	drop  func(to int, m *Msg) bool
}

// NewNetwork returns a network of n nodes tolerating f faults.
func NewNetwork(n, f int) *Network {
	nw := &Network{nodes: make([]*Gossip, n)}
	for i := range nw.nodes {
		nw.nodes[i] = newGossip(f)
	}
	return nw
}

// SetDrop installs a loss model, called under the network lock.
func (nw *Network) SetDrop(drop func(to int, m *Msg) bool) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	nw.drop = drop
}

// Close stops the gossip layers' goroutines.
func (nw *Network) Close() {
	for _, g := range nw.nodes {
		close(g.stop)
	}
}

// Gossip returns node id's gossip layer.
func (nw *Network) Gossip(id int) *Gossip { return nw.nodes[id] }

// Broadcast sends m to every node, the sender included.
//
//sync:send
func (nw *Network) Broadcast(m *Msg) {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	for to, g := range nw.nodes {
		if nw.drop == nil || !nw.drop(to, m) {
			g.deliver(m)
		}
	}
}

// Gossip is a node's receiving side. Like the peer-state tracking of
// Tendermint's consensus reactor, it holds back what the node cannot use
// yet: messages of later heights until the node reaches the height, and
// messages of a later round of the node's height until f+1 distinct
// validators sent messages of that round (a single faulty validator cannot
// make the node skip rounds). The node tells it where it is with Advance.
type Gossip struct {
	f       int
	mu      sync.Mutex
	height  int
	round   int
	held    []*Msg
	senders map[[2]int]map[int]bool // (height, round) -> senders seen
	kick    chan struct{}
	out     chan *Msg
	stop    chan struct{}
	once    sync.Once
}

func newGossip(f int) *Gossip {
	return &Gossip{
		f:       f,
		senders: make(map[[2]int]map[int]bool),
		kick:    make(chan struct{}, 1),
		out:     make(chan *Msg),
		stop:    make(chan struct{}),
	}
}

// C returns the channel on which released messages arrive, in the order
// they were received. The first call starts the releasing goroutine, which
// runs until the network is closed.
func (g *Gossip) C() <-chan *Msg {
	g.once.Do(func() { go g.pump() })
	return g.out
}

// Advance tells the gossip layer that the node is in round (height, round).
func (g *Gossip) Advance(height, round int) {
	g.mu.Lock()
	g.height, g.round = height, round
	g.mu.Unlock()
	g.poke()
}

func (g *Gossip) deliver(m *Msg) {
	g.mu.Lock()
	k := [2]int{m.Height, m.Round}
	if g.senders[k] == nil {
		g.senders[k] = make(map[int]bool)
	}
	g.senders[k][m.From] = true
	g.held = append(g.held, m)
	g.mu.Unlock()
	g.poke()
}

func (g *Gossip) poke() {
	select {
	case g.kick <- struct{}{}:
	default:
	}
}

// next removes and returns the first held message that may be released.
func (g *Gossip) next() *Msg {
	g.mu.Lock()
	defer g.mu.Unlock()
	for i, m := range g.held {
		release := m.Height < g.height ||
			m.Height == g.height && (m.Round <= g.round || len(g.senders[[2]int{m.Height, m.Round}]) > g.f)
		if release {
			g.held = append(g.held[:i], g.held[i+1:]...)
			return m
		}
	}
	return nil
}

func (g *Gossip) pump() {
	for {
		m := g.next()
		if m == nil {
			select {
			case <-g.kick:
			case <-g.stop:
				return
			}
			continue
		}
		select {
		case g.out <- m:
		case <-g.stop:
			return
		}
	}
}
