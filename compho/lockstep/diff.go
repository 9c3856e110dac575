package lockstep

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ccvet/ccvet/compho"
)

// Differential runs of channel-based code. A Diff runs the asynchronous
// code of a package (goroutines exchanging envelopes of type E over
// channels) and its generated machines (type M) side by side, on the same
// heard-of sets, and compares what every process goes through: the
// asynchronous code is delivered by position in a testing/synctest
// bubble (RunNested, a process's position computed from its tag
// variables), and the machines run on compho.Run, replaying the heard-of
// sets the asynchronous run had at each position. Both record a
// process's state each time its position changes (and at the end): the
// asynchronous code where it blocks in a reception, the machine after
// every round. A round in which the code does not receive (a replica that
// only answers) is thus seen in the machine alone, so the records agree
// when, up to stuttering, the asynchronous one is a subsequence of the
// machine's with the same last state (Theorem 3 of the paper:
// the same states, up to stuttering, seen where the code can be seen).
// ccvet makeho -difftest writes the Diff of a loop; see docs/makeho.md.

// A Diff describes a differential run of N processes.
type Diff[P any, E any, M compho.Machine] struct {
	N int
	// Timeout is the longest reception timeout of the asynchronous code:
	// the fake clock advances by it when every process waits.
	Timeout time.Duration
	// Async returns asynchronous process i, its inbox in and its peers
	// table out (out[q] reaches process q) set, and the function that runs
	// its loop.
	Async func(i int, in chan E, out []chan<- E) (P, func(ctx context.Context))
	// Machine returns the generated machine of process i, with the same
	// inputs as Async's.
	Machine func(i int) M
	// Where and MachineWhere return the position of a process from its
	// tag variables (TagWhere of its tag). Where and State read an
	// asynchronous process while every process is blocked, which the race
	// detector does not see as synchronization: declare them as functions
	// marked //go:norace, as ccvet makeho -difftest does.
	Where        func(p P) Where
	MachineWhere func(m M) Where
	// Message returns the sender of an envelope and the position of the
	// tag of its message.
	Message func(e E) (compho.PID, Where)
	// State and MachineState render the algorithm variables of a process.
	State        func(p P) string
	MachineState func(m M) string
	// MaxSteps bounds the machines' run; 0 means compho.DefaultMaxSteps.
	MaxSteps int
	// ByIteration runs the machines with compho.Config.ByIteration, for
	// a Where that is the iteration rather than the tag (where messages
	// of a later tag reach a process behind, in the same iteration).
	ByIteration bool
}

// A DiffAdversary is an adversary of a differential run, named.
type DiffAdversary struct {
	Name string
	Adv  compho.Adversary
}

// DiffAdversaries returns the adversaries of a differential run of n
// processes: no loss, seeds random-loss seeds (probability 0.25), and 3
// lossy-synchronous ones (n isolations in the first 64 positions, in
// periods of 4). A Diff numbers the positions in the order the run first
// reaches them, the step index these adversaries see.
func DiffAdversaries(n, seeds int) ([]DiffAdversary, error) {
	advs := []DiffAdversary{{"noloss", compho.NoLoss()}}
	for s := range int64(seeds) {
		advs = append(advs, DiffAdversary{fmt.Sprintf("random%d", s), compho.RandomLoss(s, 0.25)})
	}
	for s := range int64(3) {
		adv, err := compho.LossySync(s, n, 64, n, 4)
		if err != nil {
			return nil, err
		}
		advs = append(advs, DiffAdversary{fmt.Sprintf("lossysync%d", s), adv})
	}
	return advs, nil
}

// A DiffResult sums up differential runs.
type DiffResult struct {
	Runs    int    // process runs compared
	Differ  int    // process runs whose records do not agree
	Exact   int    // process runs whose records are equal, up to stuttering
	First   string // the first difference, rendered
	Changed int    // process runs whose state changed
	// Partial counts the receptions of the asynchronous runs that heard
	// from fewer than N processes (messages lost, or not sent).
	Partial int
	Errors  []string // runs that could not be completed, with the reason
}

// Run runs the asynchronous code and the machines under each adversary
// and compares them. It must be called from a test (the asynchronous
// code runs in synctest bubbles, one per adversary).
func (d *Diff[P, E, M]) Run(t *testing.T, advs []DiffAdversary) DiffResult {
	var res DiffResult
	for _, a := range advs {
		async, script, err := d.runAsync(t, a.Adv)
		if err != nil {
			res.Errors = append(res.Errors, fmt.Sprintf("%s: asynchronous run: %v", a.Name, err))
			continue
		}
		for _, byPos := range script {
			for _, from := range byPos {
				if len(from) < d.N {
					res.Partial++
				}
			}
		}
		machine, err := d.runMachines(script)
		if err != nil {
			res.Errors = append(res.Errors, fmt.Sprintf("%s: machines: %v", a.Name, err))
			continue
		}
		for p := range d.N {
			res.Runs++
			got, want := destutter(machine[p]), destutter(async[p])
			if len(want) > 1 {
				res.Changed++
			}
			if slices.Equal(got, want) {
				res.Exact++
			}
			if !Agrees(want, got) {
				res.Differ++
				if res.First == "" {
					res.First = fmt.Sprintf("%s, process %d:\nmachine      %q\nasynchronous %q", a.Name, p, got, want)
				}
			}
		}
	}
	return res
}

// Agrees reports whether the asynchronous record async is a subsequence
// of the machine's with the same last state. (The code may first block
// after rounds in which it does not receive, after the machine's first
// record.)
func Agrees(async, machine []string) bool {
	if len(async) == 0 || len(machine) == 0 {
		return len(async) == len(machine)
	}
	if async[len(async)-1] != machine[len(machine)-1] {
		return false
	}
	i := 0
	for _, s := range machine {
		if i < len(async) && async[i] == s {
			i++
		}
	}
	return i == len(async)
}

func destutter(ss []string) []string {
	var out []string
	for _, s := range ss {
		if len(out) == 0 || out[len(out)-1] != s {
			out = append(out, s)
		}
	}
	return out
}

func (d *Diff[P, E, M]) runAsync(t *testing.T, adv compho.Adversary) (traces [][]string, script NestedScript, err error) {
	n := d.N
	traces = make([][]string, n)
	synctest.Test(t, func(t *testing.T) {
		inboxes := make([]chan E, n)
		sinks := make([]chan E, n)
		out := make([]chan<- E, n)
		for q := range n {
			inboxes[q] = make(chan E, 1<<12)
			sinks[q] = make(chan E, 1<<12)
			out[q] = sinks[q]
		}
		procs := make([]P, n)
		done := make([]chan struct{}, n)
		last := make([]string, n)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		for i := range n {
			p, run := d.Async(i, inboxes[i], out)
			procs[i] = p
			done[i] = make(chan struct{})
			go func() {
				defer close(done[i])
				run(ctx)
			}()
		}
		isDone := func(p compho.PID) bool {
			select {
			case <-done[p]:
				return true
			default:
				return false
			}
		}
		final := make([]bool, n)
		// The positions, numbered as the run reaches them: dense step
		// indices for the adversaries (LossySync isolates processes in
		// the steps it draws among the first few).
		index := make(map[string]int)
		script, err = RunNested(NestedConfig{
			N: n, Adversary: adv, Timeout: d.Timeout,
			Index: func(w Where) int {
				k := w.String()
				if _, ok := index[k]; !ok {
					index[k] = len(index)
				}
				return index[k]
			},
			Drain: func() []NestedPacket {
				var pk []NestedPacket
				for q := range n {
					for len(sinks[q]) > 0 {
						e := <-sinks[q]
						from, at := d.Message(e)
						pk = append(pk, NestedPacket{From: from, To: compho.PID(q), At: at, Deliver: func() { inboxes[q] <- e }})
					}
				}
				return pk
			},
			Where: func(p compho.PID) Where { return d.Where(procs[p]) },
			Done:  isDone,
			Quiet: func() {
				for i, p := range procs {
					dn := isDone(compho.PID(i))
					if final[i] {
						continue
					}
					if w := d.Where(p).String(); w != last[i] || dn {
						last[i] = w
						traces[i] = append(traces[i], d.State(p))
					}
					final[i] = dn
				}
			},
		})
		if err != nil {
			cancel()
		}
	})
	return traces, script, err
}

// byWhere replays a NestedScript keyed by the positions of the machines'
// tag variables.
type byWhere[M compho.Machine] struct {
	script NestedScript
	ms     []M
	where  func(M) Where
}

func (r *byWhere[M]) HeardOf(_ compho.Step, p compho.PID, senders []compho.PID) []compho.PID {
	ho, ok := r.script[p][r.where(r.ms[p]).String()]
	if !ok {
		return nil // the asynchronous process did not receive there
	}
	return slices.DeleteFunc(senders, func(q compho.PID) bool { return !slices.Contains(ho, q) })
}

func (d *Diff[P, E, M]) runMachines(script NestedScript) ([][]string, error) {
	n := d.N
	ms := make([]M, n)
	traces := make([][]string, n)
	last := make([]string, n)
	for i := range n {
		ms[i] = d.Machine(i)
	}
	final := make([]bool, n)
	record := func(_ compho.Step, ms []M) error {
		for i, m := range ms {
			if final[i] {
				continue
			}
			if w := d.MachineWhere(m).String(); w != last[i] || m.Halted() {
				last[i] = w
				traces[i] = append(traces[i], d.MachineState(m))
			}
			final[i] = m.Halted()
		}
		return nil
	}
	_, err := compho.Run(ms, compho.Config[M]{
		Adversary:   &byWhere[M]{script: script, ms: ms, where: d.MachineWhere},
		MaxSteps:    d.MaxSteps,
		ByIteration: d.ByIteration,
		// The state after Init is where the asynchronous code first
		// blocks.
		Start:     record,
		Observers: []compho.Observer[M]{record},
	})
	return traces, err
}
