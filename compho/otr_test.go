package compho

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// otr is the OneThirdRule consensus algorithm of Charron-Bost and Schiper
// (Algorithm 1 of Tsuchiya and Schiper, "Using bounded model checking to
// verify consensus algorithms"): one round per phase, in which every
// process broadcasts its estimate x.
type otr struct {
	x        int
	decided  bool
	decision int

	haltOnDecide bool // leave the loop after deciding
	maxPhases    int  // leave the loop after this many phases (0: no bound)
	broken       bool // use n/3 instead of 2n/3 as the threshold (wrong)

	phases int // completed phases
}

func (m *otr) Rounds() []Round {
	return []Round{{
		Name:   "OTR",
		Send:   func(c *Ctx) { c.Broadcast(m.x) },
		Update: m.update,
	}}
}

func (m *otr) update(c *Ctx, mbox Mailbox) {
	n := c.N()
	more := func(k int) bool { return 3*k > 2*n } // k > 2n/3
	if m.broken {
		more = func(k int) bool { return 3*k > n }
	}
	m.phases = c.Phase() + 1
	if !more(len(mbox)) {
		return
	}
	count := func(v int) int { // n is small: no map
		k := 0
		for _, e := range mbox {
			if e.Msg.(int) == v {
				k++
			}
		}
		return k
	}
	smallest := mbox[0].Msg.(int)
	for _, e := range mbox {
		smallest = min(smallest, e.Msg.(int))
	}
	x := smallest
	for _, e := range mbox { // in sender order: deterministic
		if v := e.Msg.(int); count(v) >= len(mbox)-(n-1)/3 {
			x = v
			break
		}
	}
	for _, e := range mbox {
		if v := e.Msg.(int); more(count(v)) && !m.decided {
			m.decided, m.decision = true, v
		}
	}
	m.x = x
}

func (m *otr) Halted() bool {
	return (m.haltOnDecide && m.decided) || (m.maxPhases > 0 && m.phases >= m.maxPhases)
}

func newOTR(xs ...int) []*otr {
	ps := make([]*otr, len(xs))
	for i, x := range xs {
		ps[i] = &otr{x: x, haltOnDecide: true}
	}
	return ps
}

var errAgreement = errors.New("agreement violated")

// agreement is an observer checking that no two processes decided
// differently.
func agreement(s Step, ps []*otr) error {
	first := -1
	for i, m := range ps {
		if !m.decided {
			continue
		}
		if first < 0 {
			first = i
		} else if m.decision != ps[first].decision {
			return fmt.Errorf("%w: process %d decided %d, process %d decided %d",
				errAgreement, first, ps[first].decision, i, m.decision)
		}
	}
	return nil
}

// state renders x and the decision of every process.
func state(ps []*otr) string {
	var b strings.Builder
	for i, m := range ps {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d", m.x)
		if m.decided {
			fmt.Fprintf(&b, "!%d", m.decision)
		}
	}
	return b.String()
}

func TestOTRNoLossDecidesInPhase0(t *testing.T) {
	ps := newOTR(5, 3, 5, 5)
	var decidedAt []int
	res, err := Run(ps, Config[*otr]{Observers: []Observer[*otr]{
		agreement,
		func(s Step, ps []*otr) error {
			for _, m := range ps {
				if m.decided && len(decidedAt) < len(ps) {
					decidedAt = append(decidedAt, s.Index)
				}
			}
			return nil
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := state(ps), "5!5 5!5 5!5 5!5"; got != want {
		t.Errorf("state = %q, want %q", got, want)
	}
	if !slices.Equal(decidedAt, []int{0, 0, 0, 0}) {
		t.Errorf("decided at steps %v, want all at 0", decidedAt)
	}
	if want := (Result{Steps: 1, Sent: 16, Delivered: 16}); res != want {
		t.Errorf("Result = %+v, want %+v", res, want)
	}
}

func TestOTRNoLossDistinctValues(t *testing.T) {
	// No value has a 2/3 majority: phase 0 adopts the smallest value,
	// phase 1 decides it.
	ps := newOTR(4, 3, 9, 7, 5)
	res, err := Run(ps, Config[*otr]{Observers: []Observer[*otr]{agreement}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := state(ps), "3!3 3!3 3!3 3!3 3!3"; got != want {
		t.Errorf("state = %q, want %q", got, want)
	}
	if res.Steps != 2 {
		t.Errorf("Steps = %d, want 2", res.Steps)
	}
}

func TestOTRScripted(t *testing.T) {
	ps := newOTR(1, 3, 2, 2)
	script := []map[PID][]PID{
		// Step 0. Receiver 3 is absent: NoLoss.
		{0: {0, 1, 2, 3}, 1: {1, 2, 3}, 2: {0, 1}},
		// Step 1. 9 is not a process: ignored.
		{0: {1, 2, 3}, 1: {0, 1, 2, 3}, 2: {1, 2, 9}, 3: {0, 2, 3}},
		// Then NoLoss.
	}
	var got []string
	res, err := Run(ps, Config[*otr]{
		Adversary: Scripted(script, nil),
		Observers: []Observer[*otr]{agreement, func(s Step, ps []*otr) error {
			got = append(got, fmt.Sprintf("%d: %s", s.Index, state(ps)))
			return nil
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		// p0 hears 1 3 2 2: no 3 equal values: smallest, 1.
		// p1 hears 3 2 2: all but one equal 2.
		// p2 hears 2 values only: unchanged.
		// p3 hears all, like p0.
		"0: 1 2 2 1",
		// p0 hears 2 2 1, p1 hears 1 2 2 1, p2 only 2 values, p3 1 2 1.
		"1: 2 1 2 1",
		// All hear 2 1 2 1: smallest.
		"2: 1 1 1 1",
		// All hear 1 1 1 1: decide.
		"3: 1!1 1!1 1!1 1!1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("trace:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// 16 messages per step; lost: 3 in step 0 (to p1: 0; to p2: 2, 3) and
	// 1+0+2+1 in step 1.
	if want := (Result{Steps: 4, Sent: 64, Delivered: 64 - 3 - 4}); res != want {
		t.Errorf("Result = %+v, want %+v", res, want)
	}
}

func TestAgreementObserverCatchesBrokenMachine(t *testing.T) {
	// Two halves that hear only themselves in step 0.
	script := []map[PID][]PID{{0: {0, 1}, 1: {0, 1}, 2: {2, 3}, 3: {2, 3}}}

	// The correct algorithm does not decide with 2 of 4 and is safe.
	ps := newOTR(1, 1, 2, 2)
	if _, err := Run(ps, Config[*otr]{Adversary: Scripted(script, nil), Observers: []Observer[*otr]{agreement}}); err != nil {
		t.Fatalf("correct OneThirdRule: %v", err)
	}
	if got, want := state(ps), "1!1 1!1 1!1 1!1"; got != want {
		t.Errorf("state = %q, want %q", got, want)
	}

	// The broken one decides with more than n/3.
	ps = newOTR(1, 1, 2, 2)
	for _, m := range ps {
		m.broken = true
	}
	res, err := Run(ps, Config[*otr]{Adversary: Scripted(script, nil), Observers: []Observer[*otr]{agreement}})
	if !errors.Is(err, errAgreement) {
		t.Fatalf("err = %v, want agreement violation", err)
	}
	if got, want := err.Error(), "compho: step 0: agreement violated: process 0 decided 1, process 2 decided 2"; got != want {
		t.Errorf("err = %q, want %q", got, want)
	}
	if res.Steps != 1 {
		t.Errorf("Steps = %d, want 1", res.Steps)
	}
}

func TestOTRSafeUnderRandomLoss(t *testing.T) {
	for seed := range int64(40) {
		ps := newOTR(1, 2, 3, 1, 2, 3, 1)
		for _, m := range ps {
			m.maxPhases = 30
		}
		_, err := Run(ps, Config[*otr]{Adversary: RandomLoss(seed, 0.4), Observers: []Observer[*otr]{agreement}})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}

// recorder is an adversary that logs the HO sets chosen by another.
type recorder struct {
	Adversary
	log []string
}

func (r *recorder) HeardOf(s Step, p PID, senders []PID) []PID {
	in := fmt.Sprint(senders)
	ho := r.Adversary.HeardOf(s, p, senders)
	r.log = append(r.log, fmt.Sprintf("%d %d %s->%v", s.Index, p, in, ho))
	return ho
}

func randomTrace(t *testing.T, seed int64) []string {
	t.Helper()
	ps := newOTR(1, 2, 3, 4, 5, 6, 7)
	for _, m := range ps {
		m.maxPhases = 20
	}
	rec := &recorder{Adversary: RandomLoss(seed, 0.3)}
	_, err := Run(ps, Config[*otr]{Adversary: rec, Observers: []Observer[*otr]{func(s Step, ps []*otr) error {
		rec.log = append(rec.log, state(ps))
		return nil
	}}})
	if err != nil {
		t.Fatal(err)
	}
	return rec.log
}

func TestRandomLossDeterministic(t *testing.T) {
	a, b := randomTrace(t, 42), randomTrace(t, 42)
	if !slices.Equal(a, b) {
		t.Errorf("same seed, different traces")
	}
	for _, seed := range []int64{0, 1, 43, -42} {
		if c := randomTrace(t, seed); slices.Equal(a, c) {
			t.Errorf("seeds 42 and %d give the same trace", seed)
		}
	}
	// Stateless: the decision for a message does not depend on the order
	// of queries.
	adv := RandomLoss(7, 0.5)
	all := []PID{0, 1, 2, 3, 4, 5, 6, 7}
	var fwd, bwd [][]PID
	for i := range 20 {
		fwd = append(fwd, adv.HeardOf(Step{Index: i}, PID(i%8), slices.Clone(all)))
	}
	for i := 19; i >= 0; i-- {
		bwd = append(bwd, adv.HeardOf(Step{Index: i}, PID(i%8), slices.Clone(all)))
	}
	slices.Reverse(bwd)
	if !reflect.DeepEqual(fwd, bwd) {
		t.Errorf("RandomLoss depends on query order")
	}
}

func TestRandomLossRate(t *testing.T) {
	for _, p := range []float64{0, 0.1, 0.3, 0.9, 1} {
		ps := newOTR(1, 2, 3, 4, 5, 6, 7)
		for _, m := range ps {
			m.haltOnDecide = false
			m.maxPhases = 2000
		}
		res, err := Run(ps, Config[*otr]{Adversary: RandomLoss(2024, p)})
		if err != nil {
			t.Fatal(err)
		}
		if res.Sent != 7*7*2000 {
			t.Fatalf("Sent = %d", res.Sent)
		}
		// 98000 messages: the standard deviation of the rate is at most
		// 0.0016; allow 5 of them.
		rate := 1 - float64(res.Delivered)/float64(res.Sent)
		if d := rate - p; d < -0.008 || d > 0.008 {
			t.Errorf("p = %v: loss rate %.4f", p, rate)
		}
		if (p == 0 || p == 1) && rate != p {
			t.Errorf("p = %v: loss rate %v, want exactly p", p, rate)
		}
	}
}
