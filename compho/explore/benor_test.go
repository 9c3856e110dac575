package explore

import (
	"fmt"
	"testing"

	"github.com/ccvet/ccvet/compho"
)

// benor is Ben-Or's binary consensus for n processes tolerating f
// crashes, as the sequentialization paper runs it (its Table 1), written
// by hand (the corpus's Ben-Or draws its coin from a random generator in
// the environment, which make-HO keeps as environment, not as a choice).
//
// Two rounds per phase. Report: everybody broadcasts its estimate x; who
// hears more than n/2 copies of one value votes for it, otherwise for "?"
// (-1). Vote: everybody broadcasts its vote; who hears more than f votes
// for v decides v (and adopts it), who hears at least one adopts it, the
// others flip a coin. The coins are drawn in advance: coins holds the
// coin of every phase (bit i for phase i), and the initial states list
// every draw, so that every outcome of every flip is explored.
type benor struct {
	n, f, phase, phases int
	x, vote             int8
	coins               uint8
	// dec is the first value decided (-1: none), again a later one that
	// differs (-1: none): a process must never decide twice differently.
	dec, again int8
	// keepEstimate is the bug of Ben-Or*: a process that decides does not
	// overwrite its estimate with the decided value.
	keepEstimate bool
}

func (m *benor) Rounds() []compho.Round {
	return []compho.Round{
		{Name: "Report", Send: func(c *compho.Ctx) { c.Broadcast(m.x) }, Update: m.report},
		{Name: "Vote", Send: func(c *compho.Ctx) { c.Broadcast(m.vote) }, Update: m.decide},
	}
}

func (m *benor) report(_ *compho.Ctx, mbox compho.Mailbox) {
	var count [2]int
	for _, e := range mbox {
		count[e.Msg.(int8)]++
	}
	m.vote = -1
	for v := range count {
		if 2*count[v] > m.n {
			m.vote = int8(v)
		}
	}
}

func (m *benor) decide(_ *compho.Ctx, mbox compho.Mailbox) {
	var count [2]int
	for _, e := range mbox {
		if v := e.Msg.(int8); v >= 0 {
			count[v]++
		}
	}
	switch {
	case count[0] > m.f || count[1] > m.f:
		v := int8(0)
		if count[1] > m.f {
			v = 1
		}
		if m.dec < 0 {
			m.dec = v
		} else if v != m.dec {
			m.again = v
		}
		if !m.keepEstimate {
			m.x = v
		}
	case count[0] > 0:
		m.x = 0
	case count[1] > 0:
		m.x = 1
	default:
		m.x = int8(m.coins >> m.phase & 1)
	}
	m.phase++
}

func (m *benor) Halted() bool { return m.phase >= m.phases }

func (m *benor) Clone(*compho.Copier) compho.Machine { c := *m; return &c }

func (m *benor) Key(k *compho.Key) {
	k.Int(int64(m.phase))
	k.Int(int64(m.x))
	k.Int(int64(m.vote))
	k.Uint(uint64(m.coins >> m.phase)) // the coins already flipped are no longer state
	k.Int(int64(m.dec))
	k.Int(int64(m.again))
	k.Bool(m.keepEstimate)
}

// benorInitial lists the initial states of n processes running phases
// phases: every estimate and every draw of the coins but the last phase's
// (a coin flipped in the last phase decides nothing: it is 0),
// 2^n · 2^(n·(phases−1)).
func benorInitial(n, f, phases int, keepEstimate bool) [][]*benor {
	var out [][]*benor
	flips := phases - 1
	for v := range 1 << (n * (1 + flips)) {
		procs := make([]*benor, n)
		for p := range procs {
			coins := uint8(v >> (n + p*flips) & (1<<flips - 1))
			procs[p] = &benor{n: n, f: f, phases: phases, x: int8(v >> p & 1), vote: -1, coins: coins, dec: -1, again: -1, keepEstimate: keepEstimate}
		}
		out = append(out, procs)
	}
	return out
}

// benorAgreement: all the values decided are one.
func benorAgreement(v View[*benor]) error {
	dec := int8(-1)
	for p, m := range v.Procs {
		if m.again >= 0 {
			return fmt.Errorf("process %d decided %d, then %d", p, m.dec, m.again)
		}
		if m.dec >= 0 && dec >= 0 && m.dec != dec {
			return fmt.Errorf("process %d decided %d, another process %d", p, m.dec, dec)
		}
		if m.dec >= 0 {
			dec = m.dec
		}
	}
	return nil
}

// TestBenOr runs the Table 1 experiments of the sequentialization paper
// on Ben-Or with n = 3, f = 1, 3 phases: the correct protocol is clean
// under DELIVER n−f (every receiver hears at least 2 of the 3 messages of
// every round) and breaks under any loss (the weakened network: a process
// moves on with fewer); Ben-Or* (a decided process keeps its estimate)
// breaks under DELIVER n−f. Exact state counts and shortest traces.
func TestBenOr(t *testing.T) {
	const n, f, phases = 3, 1, 3
	for _, tc := range []struct {
		name         string
		keepEstimate bool
		net          Network
		want         string
	}{
		{"Ben-Or, DELIVER n-f", false, Deliver(n - f), "clean, 5320 states"},
		{"Ben-Or, any loss", false, AnyLoss(), "violation after 4 steps, 11536 states"},
		{"Ben-Or*, DELIVER n-f", true, Deliver(n - f), "violation after 6 steps, 9968 states"},
	} {
		res, err := Explore(Model[*benor]{Initial: benorInitial(n, f, phases, tc.keepEstimate), Network: tc.net,
			Invariants: []Invariant[*benor]{{"agreement", benorAgreement}}})
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprintf("clean, %d states", res.States)
		if res.Violation != nil {
			got = fmt.Sprintf("violation after %d steps, %d states", len(res.Violation.Steps), res.States)
			replayCex(t, benorInitial(n, f, phases, tc.keepEstimate)[res.Violation.Initial], res.Violation, benorAgreement)
		}
		t.Logf("%s: %s, %d transitions, %v", tc.name, got, res.Transitions, res.Elapsed)
		if got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// replayCex runs the script of cex on copies of procs, its initial state,
// and checks that inv fails at its last step with its error.
func replayCex[M compho.Machine](t *testing.T, procs []M, cex *Counterexample, inv func(View[M]) error) {
	t.Helper()
	ms := make([]M, len(procs))
	for p, m := range procs {
		ms[p] = compho.Machine(m).(compho.Cloner).Clone(compho.NewCopier()).(M)
	}
	_, err := compho.Run(ms, compho.Config[M]{
		Adversary: compho.Scripted(cex.Script(), nil),
		MaxSteps:  len(cex.Steps),
		Observers: []compho.Observer[M]{func(_ compho.Step, procs []M) error { return inv(View[M]{Procs: procs}) }},
	})
	if want := fmt.Sprintf("compho: step %d: %v", len(cex.Steps)-1, cex.Err); err == nil || err.Error() != want {
		t.Errorf("replay: %v, want %s", err, want)
	}
}
