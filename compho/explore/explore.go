package explore

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ccvet/ccvet/compho"
)

// A Model is what Explore explores: the initial states, the network
// assumption, the invariants, and the bounds.
type Model[M compho.Machine] struct {
	// Initial lists the initial states: Initial[i][p] is the root
	// machine of process p in the i-th. The machines must implement
	// compho.Cloner and compho.Keyer; they are cloned, not run, so
	// that a counterexample can be replayed on them.
	Initial [][]M
	// Network is the assumption on the HO sets; nil means AnyLoss.
	Network Network
	// Invariants are checked on every reachable state.
	Invariants []Invariant[M]
	// MaxSteps bounds the depth (global steps) of the search; 0 means
	// no bound: the search ends when no new state is found.
	MaxSteps int
	// AbstractCounters leaves the phase counters out of the state (see
	// compho.Key.Counter): sound only for a protocol whose transitions do
	// not read its phase, such as OneThirdRule; it makes their state
	// space finite.
	AbstractCounters bool
	// Workers is the number of goroutines expanding states; 0 means
	// GOMAXPROCS.
	Workers int
	// MaxStates stops the search when that many states (orbits, with
	// Symmetric) were found; 0 means no bound.
	MaxStates int
	// Symmetric explores the states up to a permutation of the processes
	// (symmetry reduction): one state per orbit, its canonical form the
	// sorted process states. It is sound when the processes are
	// interchangeable: their states do not hold process identities,
	// their sends and updates do not read it, and their updates depend
	// on the multiset of messages they hear, not on who sent them; the
	// search then takes the machines as compho.Symmetric, declared or
	// not. It needs a symmetric network (AnyLoss, NoLoss,
	// Deliver) and machines that call no nested machine; a counterexample
	// is then searched again without the reduction, to the depth at
	// which the violation was found, for its trace.
	Symmetric bool
	// Normalize, if set, maps every state reached to the representative
	// of its class under an abstraction of the model's (LastVoting's
	// timestamps replaced by their rank among the processes', for
	// instance), which a per-process Key cannot express. Called with the
	// root machines of a state and fix false, it reports whether the
	// state is not its class's representative, and must not modify
	// them; called with fix true, on copies, it rewrites them into the
	// representative. The initial states must be representatives. It
	// cannot be combined with Symmetric.
	Normalize func(procs []M, fix bool) bool
}

// An Invariant is a property every reachable state must have.
type Invariant[M compho.Machine] struct {
	Name  string
	Check func(v View[M]) error
}

// A View is a state as an invariant sees it.
type View[M compho.Machine] struct {
	// Procs are the root machines of the processes, indexed by PID. An
	// invariant must not modify them.
	Procs []M
	// Monitor is the network's monitor state (see Network).
	Monitor uint64
	// Depth is the number of steps of the shortest execution that
	// reaches the state.
	Depth int
	// Done reports that every process has finished.
	Done bool
}

// A Result reports an exploration.
type Result struct {
	// States is the number of distinct reachable states found, initial
	// states included. With Symmetric, it is the sum of the sizes of the
	// orbits explored, and Orbits is their number.
	States int
	Orbits int
	// PhaseStates counts those at a phase boundary: every process that
	// has not finished is at round 0 of its root machine, none in a call.
	PhaseStates int
	// Transitions is the number of successors computed (with
	// repetitions); Depth the number of steps of the deepest state.
	Transitions int
	Depth       int
	// Bounded reports that the search stopped at MaxSteps or MaxStates
	// with states left to expand.
	Bounded bool
	// Violation is the shortest counterexample found, if any.
	Violation *Counterexample
	// Elapsed is the time the search took.
	Elapsed time.Duration
}

// ErrNotCloneable is returned for machines that do not implement
// compho.Cloner or compho.Keyer.
var ErrNotCloneable = errors.New("explore: machines must implement compho.Cloner and compho.Keyer")

// packNorm packs a successor's state, normalized by Model.Normalize if
// the model has one: the state is assembled again, rewritten, and its
// processes' states interned.
func (e *engine) packNorm(buf []uint32, ids []uint32, mon uint64, depth int) ([]uint32, error) {
	if e.norm == nil {
		return e.packInto(buf, ids, mon), nil
	}
	locals := e.locals(ids)
	roots := make([]compho.Machine, e.n)
	for p, l := range locals {
		roots[p] = l.Root()
	}
	if !e.norm(roots, false) {
		return e.packInto(buf, ids, mon), nil
	}
	sys, err := compho.Assemble(locals, depth)
	if err != nil {
		return nil, err
	}
	for p := range roots {
		roots[p] = sys.Root(compho.PID(p))
	}
	e.norm(roots, true)
	k := &compho.Key{AbstractCounters: e.abstract}
	normal := make([]uint32, e.n)
	for p := range normal {
		k.Reset()
		if err := sys.Key(compho.PID(p), k); err != nil {
			return nil, err
		}
		normal[p] = e.intern(k.Bytes(), func() *compho.Local { return sys.Snapshot(compho.PID(p)) })
	}
	return e.packInto(buf, normal, mon), nil
}

// productSym emits the successors of one mode up to a permutation of the
// processes: the processes in the same state (the same options) choose a
// multiset of options, and the successor is sorted. Its HO sets are not
// given.
func (e *engine) productSym(mode int, mon uint64, _ int, opts [][]option, _ *error, emit func(s succ) bool) bool {
	// The classes: processes with the same options, by their first.
	var firsts []int
	size := make(map[int]int)
	for p := range opts {
		if len(opts[p]) == 0 {
			return true
		}
		q := p
		for _, f := range firsts {
			if &opts[f][0] == &opts[p][0] {
				q = f
				break
			}
		}
		if q == p {
			firsts = append(firsts, p)
		}
		size[q]++
	}
	idx := make([][]int, len(firsts)) // per class, non-decreasing option indices
	for c, f := range firsts {
		idx[c] = make([]int, size[f])
	}
	ids := make([]uint32, 0, e.n)
	tags := make([]uint64, e.n)
	var buf []uint32
	for {
		ids = ids[:0]
		for c, f := range firsts {
			for _, i := range idx[c] {
				ids = append(ids, opts[f][i].id)
			}
		}
		slices.Sort(ids)
		buf = e.packInto(buf, ids, e.net.Next(e.n, mon, mode, tags))
		if !emit(succ{key: buf, mode: mode}) {
			return false
		}
		// Next multiset: the last class first.
		c := len(firsts) - 1
		for ; c >= 0; c-- {
			if nextMultiset(idx[c], len(opts[firsts[c]])) {
				break
			}
		}
		if c < 0 {
			return true
		}
	}
}

// nextMultiset advances idx, a non-decreasing sequence over [0, k), to
// the next one; at the last, it resets idx to zeros and returns false.
func nextMultiset(idx []int, k int) bool {
	for i := len(idx) - 1; i >= 0; i-- {
		if idx[i] < k-1 {
			idx[i]++
			for j := i + 1; j < len(idx); j++ {
				idx[j] = idx[i]
			}
			return true
		}
	}
	clear(idx)
	return false
}

// orbit returns the number of states of which the sorted state key is
// the canonical form: n! / Π m! over the multiplicities m of its process
// states.
func (e *engine) orbit(key []uint32) int {
	ids, _ := e.unpack(key)
	size, run := 1, 0
	for i := range ids {
		if i > 0 && ids[i] == ids[i-1] {
			run++
		} else {
			run = 1
		}
		size = size * (i + 1) / run
	}
	return size
}

// product emits the successors of one mode: one per choice of an option
// for each process. It returns false when emit asked to stop.
func (e *engine) product(mode int, mon uint64, depth int, opts [][]option, errp *error, emit func(s succ) bool) bool {
	for _, o := range opts {
		if len(o) == 0 {
			return true // a receiver with no allowed set
		}
	}
	idx := make([]int, e.n)
	ids := make([]uint32, e.n)
	tags := make([]uint64, e.n)
	ho := make([]compho.Set, e.n)
	var buf []uint32
	for {
		for p, i := range idx {
			o := opts[p][i]
			ids[p], tags[p], ho[p] = o.id, o.tag, o.ho
		}
		next := e.net.Next(e.n, mon, mode, tags)
		var err error
		if buf, err = e.packNorm(buf, ids, next, depth); err != nil {
			*errp = err
			return false
		}
		if !emit(succ{key: buf, mode: mode, ho: ho}) {
			return false
		}
		p := e.n - 1
		for ; p >= 0; p-- {
			if idx[p]++; idx[p] < len(opts[p]) {
				break
			}
			idx[p] = 0
		}
		if p < 0 {
			return true
		}
	}
}

// expandGeneral computes the successors of a state in which a process is
// in a call or calls a machine: each receiver's options are deduplicated
// by its state after its Update, and every combination is run as a whole
// step.
func (e *engine) expandGeneral(ids []uint32, mon uint64, locals []*compho.Local, depth int, cands []compho.Set, running []bool, modes []Mode, emit func(s succ) bool) error {
	sys, err := compho.Assemble(locals, depth)
	if err != nil {
		return err
	}
	if _, _, err := sys.Begin(); err != nil {
		return err
	}
	k := &compho.Key{AbstractCounters: e.abstract}
	type gopt struct {
		key string
		tag uint64
		ho  compho.Set
	}
	cache := make([]map[compho.Set]string, e.n)
	for mi, mode := range modes {
		opts := make([][]gopt, e.n)
		for p := range e.n {
			if !running[p] {
				opts[p] = []gopt{{}}
				continue
			}
			var ferr error
			mode.Sets(compho.PID(p), cands[p], func(h compho.Set, tag uint64) {
				if ferr != nil {
					return
				}
				s, ok := cache[p][h]
				if !ok {
					if ferr = sys.Replace(compho.PID(p), locals[p]); ferr != nil {
						return
					}
					if _, ferr = sys.Update(compho.PID(p), h); ferr != nil {
						return
					}
					k.Reset()
					if ferr = sys.Key(compho.PID(p), k); ferr != nil {
						return
					}
					s = string(k.Bytes())
					if cache[p] == nil {
						cache[p] = make(map[compho.Set]string)
					}
					cache[p][h] = s
				}
				for _, o := range opts[p] {
					if o.key == s && o.tag == tag {
						return
					}
				}
				opts[p] = append(opts[p], gopt{s, tag, h})
			})
			if ferr != nil {
				return ferr
			}
			if len(opts[p]) == 0 {
				opts[p] = nil
			}
		}
		// Every combination, as a whole step.
		combo := make([][]option, e.n)
		for p := range opts {
			for _, o := range opts[p] {
				combo[p] = append(combo[p], option{tag: o.tag, ho: o.ho})
			}
		}
		var ferr, perr error
		cont := e.product(mi, mon, depth+1, combo, &perr, func(s succ) bool {
			step, err := compho.Assemble(locals, depth)
			if err == nil {
				_, _, err = step.Begin()
			}
			for p := 0; p < e.n && err == nil; p++ {
				if running[p] {
					_, err = step.Update(compho.PID(p), s.ho[p])
				}
			}
			if err == nil {
				err = step.Finish()
			}
			next := make([]uint32, e.n)
			for p := 0; p < e.n && err == nil; p++ {
				k.Reset()
				if err = step.Key(compho.PID(p), k); err == nil {
					next[p] = e.intern(k.Bytes(), func() *compho.Local { return step.Snapshot(compho.PID(p)) })
				}
			}
			if err != nil {
				ferr = err
				return false
			}
			_, nmon := e.unpack(s.key)
			key, err := e.packNorm(nil, next, nmon, depth+1)
			if err != nil {
				ferr = err
				return false
			}
			return emit(succ{key: key, mode: s.mode, ho: s.ho})
		})
		if ferr != nil {
			return ferr
		}
		if perr != nil {
			return perr
		}
		if !cont {
			return nil
		}
	}
	return nil
}

// atBoundary reports whether every process that has not finished is at
// round 0 of its root machine.
func atBoundary(locals []*compho.Local) bool {
	for _, l := range locals {
		if !l.AtBoundary() {
			return false
		}
	}
	return true
}

// finished reports whether every process has finished.
func finished(locals []*compho.Local) bool {
	for _, l := range locals {
		if l.Frames() > 0 {
			return false
		}
	}
	return true
}

type violation struct {
	state int // its index
	order int // its index in its level
	inv   string
	err   error
}

// Explore explores the reachable states of m breadth first and returns
// what it found: the number of states, and the shortest counterexample
// to an invariant if there is one. An error reports a machine that
// cannot be explored (see ErrNotCloneable) or a mistake of a machine
// (compho.ProtocolError).
func Explore[M compho.Machine](m Model[M]) (*Result, error) {
	start := time.Now()
	if len(m.Initial) == 0 || len(m.Initial[0]) == 0 {
		return nil, errors.New("explore: no initial state")
	}
	n := len(m.Initial[0])
	if n > compho.MaxSystemProcs {
		return nil, fmt.Errorf("explore: %d processes; at most %d", n, compho.MaxSystemProcs)
	}
	net := m.Network
	if net == nil {
		net = AnyLoss()
	}
	e := newEngine(n, net, m.AbstractCounters)
	_, e.symNet = net.(symmetricNetwork)
	if m.Symmetric {
		if !e.symNet {
			return nil, fmt.Errorf("explore: symmetry reduction with the network %q, which is not symmetric", net.Name())
		}
		if n > 20 {
			return nil, fmt.Errorf("explore: symmetry reduction with %d processes; at most 20", n)
		}
		e.symmetric = true
	}
	// Symmetry reduction is sound only for processes that are
	// interchangeable, which is what the declarations say: their Send
	// and Update do not read their identity, and an Update depends on
	// the multiset of messages heard.
	e.anonymous, e.multiset = true, true
	for _, procs := range m.Initial {
		if m.Symmetric {
			break
		}
		for _, p := range procs {
			if _, ok := compho.Machine(p).(compho.Anonymous); !ok {
				e.anonymous = false
			}
			if _, ok := compho.Machine(p).(compho.Symmetric); !ok {
				e.multiset = false
			}
		}
	}
	if m.Normalize != nil {
		if m.Symmetric {
			return nil, errors.New("explore: Normalize with Symmetric")
		}
		e.norm = func(roots []compho.Machine, fix bool) bool {
			procs := make([]M, len(roots))
			for p, r := range roots {
				procs[p] = r.(M)
			}
			return m.Normalize(procs, fix)
		}
	}
	defer func() {
		if x, ok := e.index.(*packedIndex); ok {
			x.free()
		}
	}()
	if err := initialLevel(e, m); err != nil {
		return nil, err
	}
	s := &search[M]{e: e, m: m, workers: m.Workers}
	if s.workers <= 0 {
		s.workers = runtime.GOMAXPROCS(0)
	}
	s.pool = make([]*worker, s.workers)
	for w := range s.pool {
		s.pool[w] = newWorker(e)
	}
	lo, hi := 0, len(e.parent)
	res := &Result{Orbits: hi}
	for i := lo; i < hi; i++ {
		res.States += s.weight(i)
	}
	for depth := 0; lo < hi; depth++ {
		res.Depth = depth
		lv, err := s.level(lo, hi, depth)
		if err != nil {
			return nil, err
		}
		res.PhaseStates += lv.phaseStates
		res.Transitions += lv.transitions
		if lv.violation != nil {
			if res.Violation, err = s.counterexample(lv.violation, depth); err != nil {
				return nil, err
			}
			break
		}
		if !lv.expanded && !allDone(e, lo, hi) {
			res.Bounded = true
		}
		lo, hi = hi, len(e.parent)
		for i := lo; i < hi; i++ {
			res.States += s.weight(i)
		}
		res.Orbits += hi - lo
		if m.MaxStates > 0 && res.Orbits >= m.MaxStates && lo < hi {
			res.Bounded = true
			// The states of the last level are counted but not checked.
			break
		}
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// initialLevel interns the initial states of m. Each process is started
// on its own (compho.Starter), on a clone of its machine (one Copier per
// process), unless a machine of the same type in the same state (by its
// Key, counters included) was started as the same process before: the
// same state started alike gives the same process state, and the
// hundreds of thousands of initial states of a search are made of a few
// process states.
func initialLevel[M compho.Machine](e *engine, m Model[M]) error {
	ids := make([]uint32, e.n)
	var key []uint32
	st, err := compho.NewStarter(e.n)
	if err != nil {
		return err
	}
	k := &compho.Key{AbstractCounters: m.AbstractCounters}
	pre := &compho.Key{}
	started := make([]map[reflect.Type]map[string]uint32, e.n)
	for i, procs := range m.Initial {
		if len(procs) != e.n {
			return fmt.Errorf("explore: initial state %d has %d processes, not %d", i, len(procs), e.n)
		}
		for p, pm := range procs {
			c, ok := compho.Machine(pm).(compho.Cloner)
			if !ok {
				return fmt.Errorf("%w: %T", ErrNotCloneable, pm)
			}
			kr, ok := compho.Machine(pm).(compho.Keyer)
			if !ok {
				return fmt.Errorf("%w: %T", ErrNotCloneable, pm)
			}
			typ := reflect.TypeOf(pm)
			known := preKey(kr, pre)
			if id, ok := started[p][typ][string(pre.Bytes())]; ok && known {
				ids[p] = id
				continue
			}
			sys, err := st.Start(compho.PID(p), c.Clone(compho.NewCopier()))
			if err != nil {
				return err
			}
			k.Reset()
			if err := sys.Key(compho.PID(p), k); err != nil {
				return fmt.Errorf("%w: %v", ErrNotCloneable, err)
			}
			ids[p] = e.intern(k.Bytes(), func() *compho.Local { return sys.Snapshot(compho.PID(p)) })
			if !known {
				continue
			}
			if started[p] == nil {
				started[p] = make(map[reflect.Type]map[string]uint32)
			}
			if started[p][typ] == nil {
				started[p][typ] = make(map[string]uint32)
			}
			started[p][typ][string(pre.Bytes())] = ids[p]
		}
		if e.symmetric {
			slices.Sort(ids)
		}
		key = e.packInto(key, ids, e.net.Init(e.n))
		if e.index.has(key) {
			continue
		}
		e.add(key, -1, uint64(i))
	}
	return nil
}

// preKey writes the key of a machine not started yet into k, reporting
// false if its Key panicked (a Key may expect what Init sets up): the
// machine is then started, whatever its key.
func preKey(kr compho.Keyer, k *compho.Key) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	k.Reset()
	kr.Key(k)
	return true
}

// A search is the typed part of Explore.
type search[M compho.Machine] struct {
	e       *engine
	m       Model[M]
	workers int
	pool    []*worker
}

// weight is the number of states that state i stands for.
func (s *search[M]) weight(i int) int {
	if s.e.symmetric {
		return s.e.orbit(s.e.key(i))
	}
	return 1
}

// check checks the invariants on a state, given its processes' states
// (whose root machines the invariants see, and must not modify).
func (s *search[M]) check(locals []*compho.Local, mon uint64, depth int) (string, error) {
	if len(s.m.Invariants) == 0 {
		return "", nil
	}
	v := View[M]{Procs: make([]M, s.e.n), Monitor: mon, Depth: depth, Done: finished(locals)}
	for p, l := range locals {
		v.Procs[p] = l.Root().(M)
	}
	for _, inv := range s.m.Invariants {
		if err := inv.Check(v); err != nil {
			return inv.Name, err
		}
	}
	return "", nil
}

// levelResult is what one level of the search found.
type levelResult struct {
	violation                *violation
	phaseStates, transitions int
	expanded                 bool // the level's states were expanded
}

// level checks and expands the states lo to hi (one level), in
// parallel, and adds the new states to the engine, in order.
func (s *search[M]) level(lo, hi, depth int) (*levelResult, error) {
	e := s.e
	lr := &levelResult{expanded: s.m.MaxSteps == 0 || depth < s.m.MaxSteps}
	var (
		sets        = make([]levelSet, s.workers)
		viol        = make([]*violation, s.workers)
		errs        = make([]error, s.workers)
		phaseStates = make([]int, s.workers)
		transitions = make([]int, s.workers)
		found       atomic.Bool
		cursor      atomic.Int64
		wg          sync.WaitGroup
	)
	// States are handed out in small batches: the counters of a batch
	// are shared by fewer goroutines than those of single states.
	const batch = 16
	for w := range s.workers {
		sets[w] = e.index.level()
		wg.Add(1)
		go func() {
			defer wg.Done()
			wk := s.pool[w]
			locals := make([]*compho.Local, e.n)
			for {
				first := lo + int(cursor.Add(batch)-batch)
				if first >= hi || errs[w] != nil {
					return
				}
				for i := first; i < min(first+batch, hi) && errs[w] == nil; i++ {
					ids, mon := e.unpack(e.key(i))
					e.localsInto(locals, ids)
					if atBoundary(locals) {
						phaseStates[w] += s.weight(i)
					}
					if name, err := s.check(locals, mon, depth); err != nil {
						if viol[w] == nil || viol[w].state > i {
							viol[w] = &violation{i, i - lo, name, err}
						}
						found.Store(true)
						continue
					}
					if !lr.expanded || found.Load() {
						continue
					}
					sk := &wk.sk
					*sk = sink{set: sets[w], order: uint64(i - lo), parent: int32(i)}
					wk.sink = sk
					errs[w] = wk.expand(ids, mon, depth, func(sc succ) bool {
						sk.transitions++
						if !e.index.has(sc.key) {
							sk.set.offer(sc.key, sk.order<<32|sk.rank, sk.parent)
						}
						sk.rank++
						return true
					})
					wk.sink = nil
					transitions[w] += sk.transitions
				}
			}
		}()
	}
	wg.Wait()
	for w := range s.workers {
		if errs[w] != nil {
			return nil, errs[w]
		}
		lr.phaseStates += phaseStates[w]
		lr.transitions += transitions[w]
		if v := viol[w]; v != nil && (lr.violation == nil || v.state < lr.violation.state) {
			lr.violation = v
		}
	}
	if lr.violation != nil {
		return lr, nil
	}
	for _, f := range merge(sets) {
		e.add(f.key, f.parent, f.seq)
	}
	return lr, nil
}

// counterexample builds the trace of a violation found at depth; with
// symmetry reduction, by the same search without it, as deep.
func (s *search[M]) counterexample(v *violation, depth int) (*Counterexample, error) {
	if !s.e.symmetric {
		return counterexample(s.e, s.m, v)
	}
	plain := s.m
	plain.Symmetric, plain.MaxSteps = false, depth
	r, err := Explore(plain)
	if err != nil {
		return nil, err
	}
	return r.Violation, nil
}

// allDone reports whether every state lo to hi has finished: a bound
// that stops only those does not leave states unexplored.
func allDone(e *engine, lo, hi int) bool {
	for i := lo; i < hi; i++ {
		ids, _ := e.unpack(e.key(i))
		if !finished(e.locals(ids)) {
			return false
		}
	}
	return true
}
