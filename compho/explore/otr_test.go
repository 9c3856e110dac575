package explore

import (
	"fmt"

	"github.com/ccvet/ccvet/compho"
)

// otr is OneThirdRule as Tsuchiya and Schiper model it (Fig. 1 of "Model
// checking of consensus algorithms"): one round per phase, in which every
// process broadcasts its estimate x; hearing of more than 2n/3 processes,
// it adopts the value all of them but at most ⌊(n−1)/3⌋ hold (the
// smallest value otherwise), and decides a value more than 2n/3 hold.
type otr struct {
	x        int
	decided  bool
	decision int
}

func (m *otr) Rounds() []compho.Round {
	return []compho.Round{{Name: "OTR", Send: m.send, Update: m.update}}
}

func (m *otr) send(c *compho.Ctx) { c.Broadcast(m.x) }

func (m *otr) update(c *compho.Ctx, mbox compho.Mailbox) {
	n := c.N()
	if 3*len(mbox) <= 2*n {
		return
	}
	var count [64]int
	smallest := mbox[0].Msg.(int)
	for _, e := range mbox {
		v := e.Msg.(int)
		count[v]++
		smallest = min(smallest, v)
	}
	x := smallest
	for _, e := range mbox {
		if v := e.Msg.(int); count[v] >= len(mbox)-(n-1)/3 {
			x = v
			break
		}
	}
	for _, e := range mbox {
		if v := e.Msg.(int); 3*count[v] > 2*n && !m.decided {
			m.decided, m.decision = true, v
		}
	}
	m.x = x
}

func (m *otr) Halted() bool { return false }

func (m *otr) Clone(cp *compho.Copier) compho.Machine { c := *m; return &c }

func (m *otr) Key(k *compho.Key) {
	k.Int(int64(m.x))
	k.Bool(m.decided)
	k.Int(int64(m.decision))
}

// otrInitial lists the n^n initial states: every process proposes one of
// n values.
func otrInitial(n int) [][]*otr {
	var out [][]*otr
	xs := make([]int, n)
	for {
		procs := make([]*otr, n)
		for p := range procs {
			procs[p] = &otr{x: xs[p]}
		}
		out = append(out, procs)
		i := 0
		for ; i < n; i++ {
			if xs[i]++; xs[i] < n {
				break
			}
			xs[i] = 0
		}
		if i == n {
			return out
		}
	}
}

// otrSorted lists one initial state per orbit of permutations: the
// non-decreasing vectors of n values.
func otrSorted(n int) [][]*otr {
	var out [][]*otr
	xs := make([]int, n)
	var rec func(p, from int)
	rec = func(p, from int) {
		if p == n {
			procs := make([]*otr, n)
			for q := range procs {
				procs[q] = &otr{x: xs[q]}
			}
			out = append(out, procs)
			return
		}
		for v := from; v < n; v++ {
			xs[p] = v
			rec(p+1, v)
		}
	}
	rec(0, 0)
	return out
}

// agreement: no two processes decided differently.
func agreement(v View[*otr]) error {
	for p, a := range v.Procs {
		for q, b := range v.Procs[p+1:] {
			if a.decided && b.decided && a.decision != b.decision {
				return fmt.Errorf("process %d decided %d, process %d decided %d", p, a.decision, p+1+q, b.decision)
			}
		}
	}
	return nil
}

// termination: once the communication predicate held, all decided.
func termination(v View[*otr]) error {
	if !Good(v.Monitor, len(v.Procs)) {
		return nil
	}
	for p, m := range v.Procs {
		if !m.decided {
			return fmt.Errorf("process %d has not decided after the good rounds", p)
		}
	}
	return nil
}

func moreThanTwoThirds(k, n int) bool { return 3*k > 2*n }

// brokenOTR decides a value more than n/3 of the heard processes hold,
// instead of more than 2n/3 of all: two values can be decided.
type brokenOTR struct{ otr }

func (m *brokenOTR) Rounds() []compho.Round {
	return []compho.Round{{Name: "OTR", Send: m.send, Update: func(c *compho.Ctx, mbox compho.Mailbox) {
		n := c.N()
		var count [64]int
		for _, e := range mbox {
			count[e.Msg.(int)]++
		}
		for _, e := range mbox {
			if v := e.Msg.(int); 3*count[v] > n && !m.decided {
				m.decided, m.decision, m.x = true, v, v
			}
		}
	}}}
}

func (m *brokenOTR) Clone(*compho.Copier) compho.Machine { c := *m; return &c }

func brokenInitial(n int) [][]*brokenOTR {
	var out [][]*brokenOTR
	for _, procs := range otrInitial(n) {
		b := make([]*brokenOTR, n)
		for p, m := range procs {
			b[p] = &brokenOTR{*m}
		}
		out = append(out, b)
	}
	return out
}

func brokenAgreement(v View[*brokenOTR]) error {
	procs := make([]*otr, len(v.Procs))
	for p, m := range v.Procs {
		procs[p] = &m.otr
	}
	return agreement(View[*otr]{Procs: procs})
}

// symOTR is otr declaring what holds of it, so that a search computes
// its outcomes faster: it is compho.Anonymous (its Send and Update do not
// read the process's identity) and compho.Symmetric (its Update counts
// the values heard: the value it adopts is the only one held by all but
// ⌊(n−1)/3⌋ of more than 2n/3 messages, and the value it decides the only
// one of more than 2n/3, whatever their order).
type symOTR struct{ otr }

func (m *symOTR) Clone(*compho.Copier) compho.Machine { c := *m; return &c }

func (m *symOTR) Anonymous() {}

func (m *symOTR) Symmetric() {}

// symInitial is otrInitial for symOTR.
func symInitial(n int) [][]*symOTR { return asSym(otrInitial(n)) }

func asSym(states [][]*otr) [][]*symOTR {
	out := make([][]*symOTR, len(states))
	for i, procs := range states {
		out[i] = make([]*symOTR, len(procs))
		for p, m := range procs {
			out[i][p] = &symOTR{*m}
		}
	}
	return out
}

func symAgreement(v View[*symOTR]) error {
	procs := make([]*otr, len(v.Procs))
	for p, m := range v.Procs {
		procs[p] = &m.otr
	}
	return agreement(View[*otr]{Procs: procs})
}
