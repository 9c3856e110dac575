package chubbylease

// Timing, in ticks of the replicas' (rate-synchronized) clocks.
const (
	// LeaseTicks is how long a replica honours a master's lease after
	// receiving its grant.
	LeaseTicks = 10
	// Drift is how much earlier than the replicas the master considers its
	// own lease over, to cover clock drift.
	Drift = 1
	// RenewBefore is how long before its lease ends the master renews it.
	RenewBefore = 3
	// CampaignEvery spaces the replicas' candidacies: replica i campaigns
	// only at ticks t with t mod (n*CampaignEvery) == i*CampaignEvery.
	CampaignEvery = 2
)

// Node is one replica of a Chubby-style cell electing a master by leases.
// Epoch numbers are owned by replicas (epoch mod n names the candidate), as
// Paxos ballots are. A replica honours at most one master's lease at a time
// and promises a new epoch only when that lease expired or for a renewal by
// the same master; the master counts its lease from before it sent the
// grant, so it ends before the lease of any replica that honours it.
//
//sync:tag epoch,step
type Node struct {
	id, n int
	epoch uint64
	step  Step
	net   Transport

	now         int
	holder      int // the master whose lease this replica honours, or -1
	leaseExpiry int

	promises, acks map[int]bool // the candidate's mailboxes for its epoch
	grantSent      int
	masterUntil    int
}

// NewNode returns replica id of a cell of n replicas.
func NewNode(id, n int, net Transport) *Node {
	return &Node{id: id, n: n, net: net, epoch: 0, step: Prepare, holder: -1,
		promises: map[int]bool{}, acks: map[int]bool{}}
}

// IsMaster reports whether this replica holds the master lease now.
func (n *Node) IsMaster() bool { return n.now < n.masterUntil }

func (n *Node) majority() int { return n.n/2 + 1 }

// send stamps m with this replica's epoch and id and sends it.
//
//sync:send stamps
func (n *Node) send(to int, m Msg) {
	m.Epoch, m.From = n.epoch, n.id
	n.net.Send(to, m)
}

func (n *Node) broadcast(m Msg) {
	for to := 0; to < n.n; to++ {
		n.send(to, m)
	}
}

// enter moves to step of epoch e, emptying the candidate's mailboxes.
func (n *Node) enter(e uint64, step Step) {
	n.epoch, n.step = e, step
	n.promises = map[int]bool{}
	n.acks = map[int]bool{}
}

// Tick advances the clock by one tick: leases expire, the master renews its
// lease ahead of time, and a replica that honours no lease campaigns in its
// turn.
//
//sync:handler
func (n *Node) Tick() {
	n.now++
	if n.holder >= 0 && n.leaseExpiry <= n.now {
		n.holder = -1
	}
	renew := n.IsMaster() && n.now >= n.masterUntil-RenewBefore
	turn := n.now%(n.n*CampaignEvery) == n.id*CampaignEvery
	if !renew && (n.holder >= 0 || !turn) {
		return
	}
	next := n.epoch + 1
	for next%uint64(n.n) != uint64(n.id) {
		next++
	}
	n.enter(next, Prepare)
	n.broadcast(Msg{Kind: Prepare})
}

// OnPrepare promises the candidate's epoch unless a lease of another master
// is still honoured.
//
//sync:handler
func (n *Node) OnPrepare(m Msg) {
	if m.Epoch < n.epoch || (m.Epoch == n.epoch && n.step > Prepare) {
		return
	}
	if n.holder >= 0 && n.holder != m.From {
		return
	}
	if m.Epoch > n.epoch {
		n.enter(m.Epoch, Prepare)
	}
	n.step = Promise
	n.send(m.From, Msg{Kind: Promise})
}

// OnPromise counts promises at the candidate; with a majority it grants
// itself the lease.
//
//sync:handler
func (n *Node) OnPromise(m Msg) {
	if m.Epoch != n.epoch || n.step != Promise || n.epoch%uint64(n.n) != uint64(n.id) {
		return
	}
	n.promises[m.From] = true
	if len(n.promises) < n.majority() {
		return
	}
	n.step = Grant
	n.promises = map[int]bool{}
	n.grantSent = n.now
	n.broadcast(Msg{Kind: Grant, Lease: LeaseTicks})
}

// OnGrant honours the lease of the epoch's candidate.
//
//sync:handler
func (n *Node) OnGrant(m Msg) {
	if m.Epoch < n.epoch || (m.Epoch == n.epoch && n.step > Grant) {
		return
	}
	if n.holder >= 0 && n.holder != m.From {
		return
	}
	if m.Epoch > n.epoch || n.step < Grant {
		n.enter(m.Epoch, Grant)
	}
	n.step = Ack
	n.holder, n.leaseExpiry = m.From, n.now+m.Lease
	n.send(m.From, Msg{Kind: Ack})
}

// OnAck counts acks at the candidate; a majority makes it master until its
// own, shorter, view of the lease ends.
//
//sync:handler
func (n *Node) OnAck(m Msg) {
	if m.Epoch != n.epoch || n.step != Ack || n.epoch%uint64(n.n) != uint64(n.id) {
		return
	}
	n.acks[m.From] = true
	if len(n.acks) == n.majority() {
		n.masterUntil = n.grantSent + LeaseTicks - Drift
	}
}
