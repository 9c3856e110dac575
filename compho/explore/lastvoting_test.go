package explore

import (
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/ccvet/ccvet/compho"
)

// lv is LastVoting (Algorithm 2 of Tsuchiya and Schiper, "Model checking
// of consensus algorithms": Paxos in the Heard-Of model), written by hand:
// make-HO's input is Go code with a communication-closed loop, and the
// paper's model has two things no Go loop would write, a coordinator that
// changes arbitrarily from phase to phase and timestamps abstracted to
// their rank among all the processes'.
//
// Four rounds per phase. Values are 0..n-1 (the paper's n symbolic
// values); vote and dec are -1 for "?".
//
//   - The timestamp ts is a rank: 0..k-1 for the distinct past timestamps
//     of the processes, in order, and n (lvNow) for the current phase; at
//     the end of a phase a current timestamp becomes lvPast, larger than
//     every rank, and lvNormalize renumbers the ranks (Model.Normalize).
//   - The coordinator of the next phase is chosen by the environment. The
//     runtime has no choice primitive, so the machine takes it from the
//     HO set of the last round, where every process sends (the
//     coordinator its decision, the others nothing that counts): if the
//     process heard exactly one process other than its coordinator, that
//     one is its next coordinator, otherwise it keeps its coordinator.
//     Whatever it heard from its coordinator (which decides whether it
//     decides), every coordinator remains possible, so every choice is
//     explored and no more: the reachable states are those of an
//     arbitrary choice.
//   - "one ν such that ⟨ν, θ̄⟩ is received" is the smallest such ν.
type lv struct {
	x, vote, dec, coord, ts int8
	commit, ready           bool
	// ignoreTS is a bug: the coordinator votes for the smallest value
	// it received, whatever its timestamp.
	ignoreTS bool
}

// lvN is the number of processes, lvNow the current-phase timestamp,
// lvPast a current timestamp at the end of its phase.
// The exact counts of TestLastVoting's two phases.
const (
	lvBoundedStates      = 34065
	lvBoundedPhaseStates = 28674
)

const (
	lvN    = 3
	lvNow  = lvN
	lvPast = 2 * lvN
)

type lvEstimate struct{ x, ts int8 }
type lvVote struct{ v int8 }
type lvAck struct{}
type lvDecide struct{ v int8 }
type lvBeacon struct{}

func (m *lv) Rounds() []compho.Round {
	return []compho.Round{
		{Name: "Collect", Send: m.sendCollect, Update: m.updateCollect},
		{Name: "Propose", Send: m.sendPropose, Update: m.updatePropose},
		{Name: "Ack", Send: m.sendAck, Update: m.updateAck},
		{Name: "Decide", Send: m.sendDecide, Update: m.updateDecide},
	}
}

func (m *lv) leads(c *compho.Ctx) bool { return compho.PID(m.coord) == c.Self() }

// Round 4φ−3: everybody sends its estimate and timestamp to its
// coordinator, which, with more than n/2 of them, votes for the value of
// the largest timestamp.
func (m *lv) sendCollect(c *compho.Ctx) { c.Send(compho.PID(m.coord), lvEstimate{m.x, m.ts}) }

func (m *lv) updateCollect(c *compho.Ctx, mbox compho.Mailbox) {
	if !m.leads(c) || 2*len(mbox) <= c.N() {
		return
	}
	best := lvEstimate{ts: -1}
	for _, e := range mbox {
		est := e.Msg.(lvEstimate)
		if m.ignoreTS {
			est.ts = 0
		}
		if est.ts > best.ts || est.ts == best.ts && est.x < best.x {
			best = est
		}
	}
	m.vote, m.commit = best.x, true
}

// Round 4φ−2: a committed coordinator sends its vote; who hears it from
// its coordinator adopts it, timestamped with the current phase.
func (m *lv) sendPropose(c *compho.Ctx) {
	if m.leads(c) && m.commit {
		c.Broadcast(lvVote{m.vote})
	}
}

func (m *lv) updatePropose(c *compho.Ctx, mbox compho.Mailbox) {
	for _, e := range mbox {
		if e.From == compho.PID(m.coord) {
			m.x, m.ts = e.Msg.(lvVote).v, lvNow
		}
	}
}

// Round 4φ−1: who adopted the vote in this phase acknowledges it; the
// coordinator with more than n/2 acknowledgements is ready.
func (m *lv) sendAck(c *compho.Ctx) {
	if m.ts == lvNow {
		c.Send(compho.PID(m.coord), lvAck{})
	}
}

func (m *lv) updateAck(c *compho.Ctx, mbox compho.Mailbox) {
	if m.leads(c) && 2*len(mbox) > c.N() {
		m.ready = true
	}
}

// Round 4φ: a ready coordinator sends its vote, which who hears it from
// its coordinator decides; every other process sends a beacon, from which
// the receivers take their next coordinator.
func (m *lv) sendDecide(c *compho.Ctx) {
	if m.leads(c) && m.ready {
		c.Broadcast(lvDecide{m.vote})
	} else {
		c.Broadcast(lvBeacon{})
	}
}

func (m *lv) updateDecide(c *compho.Ctx, mbox compho.Mailbox) {
	next, others := m.coord, 0
	for _, e := range mbox {
		if e.From == compho.PID(m.coord) {
			if d, ok := e.Msg.(lvDecide); ok && m.dec < 0 {
				m.dec = d.v
			}
			continue
		}
		next = int8(e.From)
		others++
	}
	if m.leads(c) {
		m.ready, m.commit = false, false
	}
	if others == 1 {
		m.coord = next
	}
	if m.ts == lvNow {
		m.ts = lvPast
	}
}

func (m *lv) Halted() bool { return false }

func (m *lv) Clone(*compho.Copier) compho.Machine { c := *m; return &c }

func (m *lv) Key(k *compho.Key) {
	k.Int(int64(m.x))
	k.Int(int64(m.vote))
	k.Int(int64(m.dec))
	k.Int(int64(m.coord))
	k.Int(int64(m.ts))
	k.Bool(m.commit)
	k.Bool(m.ready)
	k.Bool(m.ignoreTS)
}

// lvNormalize renumbers the past timestamps by rank (Model.Normalize):
// the state is normal when they are 0..k-1 with no gap.
func lvNormalize(procs []*lv, fix bool) bool {
	var past []int8
	for _, m := range procs {
		if m.ts != lvNow && !slices.Contains(past, m.ts) {
			past = append(past, m.ts)
		}
	}
	slices.Sort(past)
	normal := true
	for i, t := range past {
		normal = normal && t == int8(i)
	}
	if normal || !fix {
		return !normal
	}
	for _, m := range procs {
		if m.ts != lvNow {
			m.ts = int8(slices.Index(past, m.ts))
		}
	}
	return true
}

// lvInitial lists the initial states: every process has one of n values
// and one of n coordinators ((n^n)^2 states), no vote, timestamp 0.
func lvInitial(n int) [][]*lv {
	var out [][]*lv
	digits := make([]int, 2*n)
	for {
		procs := make([]*lv, n)
		for p := range procs {
			procs[p] = &lv{x: int8(digits[p]), coord: int8(digits[n+p]), vote: -1, dec: -1}
		}
		out = append(out, procs)
		i := 0
		for ; i < len(digits); i++ {
			if digits[i]++; digits[i] < n {
				break
			}
			digits[i] = 0
		}
		if i == len(digits) {
			return out
		}
	}
}

// lvAgreement: no two processes decided differently.
func lvAgreement(v View[*lv]) error {
	for p, a := range v.Procs {
		for q, b := range v.Procs[p+1:] {
			if a.dec >= 0 && b.dec >= 0 && a.dec != b.dec {
				return fmt.Errorf("process %d decided %d, process %d decided %d", p, a.dec, p+1+q, b.dec)
			}
		}
	}
	return nil
}

// TestLastVoting explores LastVoting's agreement for n = 3 from its
// (3^3)^2 initial states, under any loss, phase counters abstracted and
// timestamps renumbered by rank: one phase (4 steps) always, every
// reachable state (3,269,772; the paper: 3.28732×10^6) with
// CCVET_EXPLORE_LONG=1, which takes minutes.
func TestLastVoting(t *testing.T) {
	m := Model[*lv]{Initial: lvInitial(lvN), AbstractCounters: true, Normalize: lvNormalize, MaxSteps: 4,
		Invariants: []Invariant[*lv]{{"agreement", lvAgreement}}}
	want := Result{States: lvBoundedStates, PhaseStates: lvBoundedPhaseStates, Depth: 4, Bounded: true}
	if os.Getenv("CCVET_EXPLORE_LONG") != "" {
		m.MaxSteps = 0
		want = Result{States: 3269772, PhaseStates: 641844, Depth: 23}
	}
	res, err := Explore(m)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d states (%d at phase boundaries), %d transitions, depth %d, %v", res.States, res.PhaseStates, res.Transitions, res.Depth, res.Elapsed)
	if res.Violation != nil {
		t.Fatal(res.Violation)
	}
	got := Result{States: res.States, PhaseStates: res.PhaseStates, Depth: res.Depth, Bounded: res.Bounded}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// TestLastVotingIgnoringTimestamps: a coordinator that votes for the
// smallest value it received, whatever its timestamp, breaks agreement;
// from values (1, 1, 0), all coordinated by process 0, the shortest
// execution takes two phases, and its script replays it. (From all the
// initial states the search finds the same trace after 587,427 states.)
func TestLastVotingIgnoringTimestamps(t *testing.T) {
	initial := [][]*lv{{{x: 1, vote: -1, dec: -1}, {x: 1, vote: -1, dec: -1}, {vote: -1, dec: -1}}}
	for _, m := range initial[0] {
		m.ignoreTS = true
	}
	res, err := Explore(Model[*lv]{Initial: initial, AbstractCounters: true, Normalize: lvNormalize,
		Invariants: []Invariant[*lv]{{"agreement", lvAgreement}}})
	if err != nil {
		t.Fatal(err)
	}
	cex := res.Violation
	if cex == nil {
		t.Fatalf("no violation in %d states", res.States)
	}
	t.Logf("%d states, %v", res.States, res.Elapsed)
	if got, want := fmt.Sprintf("%d steps, %d states", len(cex.Steps), res.States), "8 steps, 51600 states"; got != want {
		t.Errorf("%s, want %s", got, want)
	}
	procs := make([]*lv, lvN)
	for p, m := range initial[cex.Initial] {
		c := *m
		procs[p] = &c
	}
	_, err = compho.Run(procs, compho.Config[*lv]{
		Adversary: compho.Scripted(cex.Script(), nil),
		MaxSteps:  len(cex.Steps),
		Observers: []compho.Observer[*lv]{func(_ compho.Step, procs []*lv) error { return lvAgreement(View[*lv]{Procs: procs}) }},
	})
	if want := fmt.Sprintf("compho: step %d: %v", len(cex.Steps)-1, cex.Err); err == nil || err.Error() != want {
		t.Errorf("replay: %v, want %s", err, want)
	}
}
