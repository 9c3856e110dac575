package fab

// Outbox is how a node sends; messages are *Report, *Propose or *Accepted.
type Outbox interface {
	//sync:send
	Send(to int, m any)
	//sync:send
	Broadcast(m any)
}

// Node is one process: proposer, acceptor and learner.
//
//sync:tag view,phase
type Node struct {
	id, n, f int
	out      Outbox
	input    string // the value this node proposes when it leads

	view  uint64
	phase Phase

	// Mailboxes of the current (view, phase), emptied by enter.
	reports  map[int]*Report // leader, PhaseRecover
	proposed bool            // leader, PhaseRecover: proposal sent
	acks     map[int]string  // learner, PhaseAccept

	// Acceptor state, kept across views.
	accepted     bool
	value        string
	acceptedView uint64

	// Learner output.
	learned bool
	result  string
}

// NewNode returns process id of n = 5f+1, in view 0, which proposes input
// when it leads.
func NewNode(id, n, f int, out Outbox, input string) *Node {
	nd := &Node{id: id, n: n, f: f, out: out, input: input}
	nd.enter(0, PhasePropose)
	return nd
}

// Learned returns the learned value, if any.
func (nd *Node) Learned() (string, bool) { return nd.result, nd.learned }

// View returns the current view, for a driver arming timers.
func (nd *Node) View() uint64 { return nd.view }

func (nd *Node) leader(view uint64) int { return int(view % uint64(nd.n)) }

func (nd *Node) learnQuorum() int { return (nd.n + 3*nd.f + 2) / 2 } // ceil((n+3f+1)/2)

// enter moves to (view, phase) and empties the mailboxes of the tag left.
func (nd *Node) enter(view uint64, phase Phase) {
	nd.view, nd.phase = view, phase
	nd.reports = map[int]*Report{}
	nd.proposed = false
	nd.acks = map[int]string{}
}

func (nd *Node) report() *Report {
	return &Report{View: nd.view, From: nd.id, Accepted: nd.accepted, Value: nd.value, AcceptedView: nd.acceptedView}
}

// Start makes the leader of view 0 propose its input.
//
//sync:handler
func (nd *Node) Start() {
	if nd.view == 0 && nd.leader(0) == nd.id {
		nd.out.Broadcast(&Propose{View: nd.view, From: int32(nd.id), Value: nd.input})
	}
}

// OnTimeout is called when the timer of view expires: the leader is
// suspected and the node moves to the next view.
//
//sync:handler
func (nd *Node) OnTimeout(view uint64) {
	if view != nd.view {
		return // stale timer
	}
	nd.enter(nd.view+1, PhaseRecover)
	nd.out.Send(nd.leader(nd.view), nd.report())
}

// OnReport is the new leader collecting the progress certificate.
//
//sync:handler
func (nd *Node) OnReport(m *Report) {
	if m.View < nd.view || m.View == nd.view && nd.phase > PhaseRecover {
		return // too late for this recovery
	}
	if nd.leader(m.View) != nd.id {
		return
	}
	if m.View > nd.view {
		// Others suspect the leader before us: join them, and report to
		// ourselves like everybody else.
		nd.enter(m.View, PhaseRecover)
		nd.out.Send(nd.id, nd.report())
	}
	nd.reports[m.From] = m
	if nd.proposed || len(nd.reports) < nd.n-nd.f {
		return
	}
	cert := make([]*Report, 0, len(nd.reports))
	for _, r := range nd.reports {
		cert = append(cert, r)
	}
	v, ok := nd.vouched(cert)
	if !ok {
		v = nd.input
	}
	nd.proposed = true
	nd.out.Broadcast(&Propose{View: nd.view, From: int32(nd.id), Value: v, Cert: cert})
}

// vouched returns the value at least 2f+1 reports of cert accepted.
func (nd *Node) vouched(cert []*Report) (string, bool) {
	count := map[string]int{}
	for _, r := range cert {
		if r.Accepted {
			count[r.Value]++
			if count[r.Value] >= 2*nd.f+1 {
				return r.Value, true
			}
		}
	}
	return "", false
}

// certified reports whether the proposal of a view above 0 comes with n-f
// reports of its view and proposes the vouched-for value, if any.
func (nd *Node) certified(m *Propose) bool {
	if m.GetView() == 0 {
		return true
	}
	from := map[int]bool{}
	for _, r := range m.GetCert() {
		if r.View != m.GetView() {
			return false
		}
		from[r.From] = true
	}
	if len(from) < nd.n-nd.f {
		return false
	}
	v, ok := nd.vouched(m.GetCert())
	return !ok || v == m.GetValue()
}

// OnPropose is the acceptor: it accepts the first certified proposal of the
// view's leader.
//
//sync:handler
func (nd *Node) OnPropose(m *Propose) {
	if m.GetView() < nd.view || m.GetView() == nd.view && nd.phase > PhasePropose {
		return // older view, or this view's proposal was already accepted
	}
	if int(m.GetFrom()) != nd.leader(m.GetView()) || !nd.certified(m) {
		return
	}
	if m.GetView() > nd.view {
		// The leader of a later view completed its recovery: join it.
		nd.enter(m.GetView(), PhasePropose)
	} else if nd.phase < PhasePropose {
		nd.enter(nd.view, PhasePropose)
	}
	nd.accepted, nd.value, nd.acceptedView = true, m.GetValue(), nd.view
	nd.enter(nd.view, PhaseAccept)
	nd.out.Broadcast(&Accepted{View: nd.view, From: nd.id, Value: nd.value})
}

// OnAccepted is the learner.
//
//sync:handler
func (nd *Node) OnAccepted(m *Accepted) {
	if m.View < nd.view {
		return // an acceptance of an older view
	}
	if m.View > nd.view {
		nd.enter(m.View, PhaseAccept)
	} else if nd.phase < PhaseAccept {
		nd.enter(nd.view, PhaseAccept)
	}
	nd.acks[m.From] = m.Value
	n := 0
	for _, v := range nd.acks {
		if v == m.Value {
			n++
		}
	}
	if n >= nd.learnQuorum() && !nd.learned {
		nd.learned, nd.result = true, m.Value
	}
}
