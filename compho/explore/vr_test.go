package explore

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ccvet/ccvet/compho"
)

// vr is Viewstamped Replication's view change followed by one operation
// of the new view, written by hand (the corpus's VR view change has no
// normal operation, so nothing is committed in it that a view change
// could lose), n = 2f+1 replicas. Four rounds per view:
//
//	StartViewChange  everybody broadcasts; who hears f others joins the view change
//	DoViewChange     who joined sends its log and the last view in which it was
//	                 normal to the primary of the view; a primary that hears q of
//	                 them takes the log of the largest such view (the longest among
//	                 them) and appends the view's operation (the view number)
//	StartView        the primary sends its log; who hears it from the primary it
//	                 believes in adopts it and is normal in the view
//	PrepareOK        who adopted it acknowledges to the primary; with q, the
//	                 primary commits the log (outputs it)
//
// q is f+1; the sub-majority bug makes it 1. The primary of a view is the
// view modulo n for every replica; the nondeterministic-leader bug gives
// each replica its own primary for every view, drawn in advance in
// leaders (two bits per view) and listed over the initial states.
type vr struct {
	n, f, q, view, views int
	leaders              uint16 // the nondeterministic-leader bug: the primary the replica believes in, per view
	nondet               bool
	joined, primary      bool
	lastNormal           int
	log                  []int8
	committed            [][]int8
}

type vrDVC struct {
	lastNormal int
	log        []int8
}
type vrSV struct{ log []int8 }
type vrOK struct{}
type vrSVC struct{}

func (m *vr) Rounds() []compho.Round {
	return []compho.Round{
		{Name: "StartViewChange", Send: func(c *compho.Ctx) { c.Broadcast(vrSVC{}) }, Update: m.startViewChange},
		{Name: "DoViewChange", Send: m.sendDVC, Update: m.doViewChange},
		{Name: "StartView", Send: m.sendSV, Update: m.startView},
		{Name: "PrepareOK", Send: m.sendOK, Update: m.prepareOK},
	}
}

// primaryOf is the primary of the current view as m believes it.
func (m *vr) primaryOf() compho.PID {
	if m.nondet {
		return compho.PID(m.leaders >> (2 * m.view) & 3)
	}
	return compho.PID(m.view % m.n)
}

func (m *vr) startViewChange(c *compho.Ctx, mbox compho.Mailbox) {
	others := 0
	for _, e := range mbox {
		if e.From != c.Self() {
			others++
		}
	}
	m.joined, m.primary = others >= m.f, false
}

func (m *vr) sendDVC(c *compho.Ctx) {
	if m.joined {
		c.Send(m.primaryOf(), vrDVC{m.lastNormal, m.log})
	}
}

func (m *vr) doViewChange(c *compho.Ctx, mbox compho.Mailbox) {
	if len(mbox) < m.q {
		return
	}
	best := mbox[0].Msg.(vrDVC)
	for _, e := range mbox[1:] {
		d := e.Msg.(vrDVC)
		if d.lastNormal > best.lastNormal || d.lastNormal == best.lastNormal && len(d.log) > len(best.log) {
			best = d
		}
	}
	m.log = append(slices.Clone(best.log), int8(m.view))
	m.primary = true
}

func (m *vr) sendSV(c *compho.Ctx) {
	if m.primary {
		c.Broadcast(vrSV{slices.Clone(m.log)})
	}
}

func (m *vr) startView(c *compho.Ctx, mbox compho.Mailbox) {
	for _, e := range mbox {
		if e.From == m.primaryOf() {
			m.log, m.lastNormal = e.Msg.(vrSV).log, m.view
			m.joined = true
			return
		}
	}
	m.joined = false
}

func (m *vr) sendOK(c *compho.Ctx) {
	if m.joined && m.lastNormal == m.view {
		c.Send(m.primaryOf(), vrOK{})
	}
}

func (m *vr) prepareOK(_ *compho.Ctx, mbox compho.Mailbox) {
	if m.primary && len(mbox) >= m.q {
		m.committed = append(m.committed, slices.Clone(m.log))
	}
	m.view++
}

func (m *vr) Halted() bool { return m.view >= m.views }

func (m *vr) Clone(*compho.Copier) compho.Machine {
	c := *m
	c.log = slices.Clone(m.log)
	c.committed = slices.Clone(m.committed)
	return &c
}

func (m *vr) Key(k *compho.Key) {
	k.Int(int64(m.view))
	k.Uint(uint64(m.leaders >> (2 * m.view)))
	k.Bool(m.joined)
	k.Bool(m.primary)
	k.Int(int64(m.lastNormal))
	k.Value(m.log)
	k.Value(m.committed)
	// n, f, q, views and nondet are constant.
}

// vrInitial lists the initial states of n replicas that run views views
// (1 to views) with quorum q; with nondet, one for every primary each
// replica may believe in for each view.
func vrInitial(n, q, views int, nondet bool) [][]*vr {
	draws := 1
	if nondet {
		for range n * views {
			draws *= n
		}
	}
	var out [][]*vr
	for d := range draws {
		procs := make([]*vr, n)
		for p := range procs {
			m := &vr{n: n, f: (n - 1) / 2, q: q, view: 1, views: views + 1, nondet: nondet}
			for v := 1; v <= views; v++ {
				m.leaders |= uint16(d%n) << (2 * v)
				d /= n
			}
			procs[p] = m
		}
		out = append(out, procs)
	}
	return out
}

// vrSafety: every two logs committed are prefixes of one another.
func vrSafety(v View[*vr]) error {
	for p, a := range v.Procs {
		for q, b := range v.Procs {
			for _, x := range a.committed {
				for _, y := range b.committed {
					k := min(len(x), len(y))
					if !slices.Equal(x[:k], y[:k]) {
						return fmt.Errorf("replica %d committed %v, replica %d committed %v", p, x, q, y)
					}
				}
			}
		}
	}
	return nil
}

// TestVRViewChange runs the VR view change of the sequentialization
// paper's Table 1 with n = 3 under any loss (VR's safety needs no network
// assumption), for two view changes: correct, clean; with a quorum of 1
// (less than n/2), broken in 8 steps; with every replica believing in
// its own primary of each view, clean to the same bound (a primary needs
// f+1 DoViewChange messages and each replica sends one, so a view still
// has at most one primary); with both bugs, broken in 8 steps. Exact
// state counts and shortest traces, replayed by their scripts.
func TestVRViewChange(t *testing.T) {
	const n, views = 3, 2
	for _, tc := range []struct {
		name   string
		q      int
		nondet bool
		want   string
	}{
		{"VR", 2, false, "clean, 477 states"},
		{"VR, quorum 1", 1, false, "violation after 8 steps, 767 states"},
		{"VR, nondeterministic leader", 2, true, "clean, 36458 states"},
		{"VR, both", 1, true, "violation after 8 steps, 138515 states"},
	} {
		initial := vrInitial(n, tc.q, views, tc.nondet)
		res, err := Explore(Model[*vr]{Initial: initial, Network: AnyLoss(),
			Invariants: []Invariant[*vr]{{"safety", vrSafety}}})
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprintf("clean, %d states", res.States)
		if res.Violation != nil {
			got = fmt.Sprintf("violation after %d steps, %d states", len(res.Violation.Steps), res.States)
			replayCex(t, initial[res.Violation.Initial], res.Violation, vrSafety)
		}
		t.Logf("%s: %s, %d transitions, %v", tc.name, got, res.Transitions, res.Elapsed)
		if got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
