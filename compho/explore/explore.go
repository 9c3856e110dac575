package explore

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
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
	// interchangeable: their states do not hold process identities, and
	// their updates depend on the multiset of messages they hear, not on
	// who sent them. It needs a symmetric network (AnyLoss, NoLoss,
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

// A node is a reachable state: the interned states of its processes and
// the monitor, packed in key.
type node struct {
	key    string
	parent *node
	seq    uint64 // parent's order << 32 | rank among its successors: orders a level
	order  int    // index in its level
	depth  int
}

type shard struct {
	sync.Mutex
	m map[string]*node
}

// engine is the untyped part of the search.
type engine struct {
	n         int
	net       Network
	abstract  bool
	symmetric bool
	// norm is Model.Normalize on untyped machines, or nil.
	norm func(roots []compho.Machine, fix bool) bool

	mu   sync.RWMutex
	ids  map[string]uint32
	reps []*compho.Local

	shards [256]shard

	// outcomes caches the state of a receiver after a step (simple
	// steps only), by receiver, its state, its HO set and the states of
	// the senders it heard: its Update sees nothing else (the step index
	// is not part of the state).
	outcomes [256]outcomeShard
}

// An outcomeShard is a shard of the outcomes cache, in two generations.
type outcomeShard struct {
	sync.Mutex
	m, old map[string]uint32
}

// outcomes maps the HO sets of each receiver of one state to the
// receiver's state after the step: in a table indexed by the set for up
// to 12 processes, in maps beyond.
type outcomes struct {
	table [][]uint32 // id+1; 0 for none
	maps  []map[compho.Set]uint32
}

func newOutcomes(n int) *outcomes {
	if n <= 12 {
		return &outcomes{table: make([][]uint32, n)}
	}
	return &outcomes{maps: make([]map[compho.Set]uint32, n)}
}

func (o *outcomes) get(p compho.PID, h compho.Set) (uint32, bool) {
	if o.table != nil {
		if t := o.table[p]; t != nil && t[h] != 0 {
			return t[h] - 1, true
		}
		return 0, false
	}
	id, ok := o.maps[p][h]
	return id, ok
}

func (o *outcomes) put(p compho.PID, h compho.Set, id uint32) {
	if o.table != nil {
		if o.table[p] == nil {
			o.table[p] = make([]uint32, 1<<len(o.table))
		}
		o.table[p][h] = id + 1
		return
	}
	if o.maps[p] == nil {
		o.maps[p] = make(map[compho.Set]uint32)
	}
	o.maps[p][h] = id
}

// outcomeKey renders the key of the outcomes cache.
func outcomeKey(buf []byte, p compho.PID, ids []uint32, h compho.Set) []byte {
	buf = binary.LittleEndian.AppendUint16(buf[:0], uint16(p))
	buf = binary.LittleEndian.AppendUint32(buf, ids[p])
	buf = binary.LittleEndian.AppendUint64(buf, uint64(h))
	for x := uint64(h); x != 0; x &= x - 1 {
		buf = binary.LittleEndian.AppendUint32(buf, ids[bits.TrailingZeros64(x)])
	}
	return buf
}

func (e *engine) cached(k []byte) (uint32, bool) {
	sh := &e.outcomes[fnv(k)%uint32(len(e.outcomes))]
	sh.Lock()
	id, ok := sh.m[string(k)]
	if !ok {
		// The previous generation: an entry still in use is kept.
		if id, ok = sh.old[string(k)]; ok {
			sh.put(k, id)
		}
	}
	sh.Unlock()
	return id, ok
}

// maxCached bounds the entries of one generation of one shard of the
// outcomes cache (256 shards): a full shard starts a new generation and
// drops the one before, so that the cache stays within a few hundred
// megabytes and keeps the entries used since the last change.
const maxCached = 1 << 13

func (e *engine) cache(k []byte, id uint32) {
	sh := &e.outcomes[fnv(k)%uint32(len(e.outcomes))]
	sh.Lock()
	sh.put(k, id)
	sh.Unlock()
}

// put adds an entry to a shard, the caller holding its lock.
func (sh *outcomeShard) put(k []byte, id uint32) {
	if sh.m == nil || len(sh.m) >= maxCached {
		sh.old, sh.m = sh.m, make(map[string]uint32)
	}
	sh.m[string(k)] = id
}

// fnv is FNV-1a: it spreads the keys over the lock shards.
func fnv[S string | []byte](key S) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(key); i++ {
		h = (h ^ uint32(key[i])) * 16777619
	}
	return h
}

func newEngine(n int, net Network, abstract bool) *engine {
	e := &engine{n: n, net: net, abstract: abstract, ids: make(map[string]uint32)}
	for i := range e.shards {
		e.shards[i].m = make(map[string]*node)
	}
	return e
}

// intern returns the ID of the process state whose key is k, taking it
// from take if it is new.
func (e *engine) intern(k []byte, take func() *compho.Local) uint32 {
	e.mu.RLock()
	id, ok := e.ids[string(k)]
	e.mu.RUnlock()
	if ok {
		return id
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if id, ok := e.ids[string(k)]; ok {
		return id
	}
	id = uint32(len(e.reps))
	e.reps = append(e.reps, take())
	e.ids[string(k)] = id
	return id
}

func (e *engine) locals(ids []uint32) []*compho.Local {
	ls := make([]*compho.Local, len(ids))
	e.mu.RLock()
	for i, id := range ids {
		ls[i] = e.reps[id]
	}
	e.mu.RUnlock()
	return ls
}

func (e *engine) pack(ids []uint32, mon uint64) string {
	return string(e.packInto(nil, ids, mon))
}

// packInto packs a state into buf's storage: the successors' keys are
// built in one buffer, and copied into a string only when new.
func (e *engine) packInto(buf []byte, ids []uint32, mon uint64) []byte {
	buf = buf[:0]
	for _, id := range ids {
		buf = binary.LittleEndian.AppendUint32(buf, id)
	}
	return binary.LittleEndian.AppendUint64(buf, mon)
}

func (e *engine) unpack(key string) ([]uint32, uint64) {
	ids := make([]uint32, e.n)
	for i := range ids {
		ids[i] = uint32(key[4*i]) | uint32(key[4*i+1])<<8 | uint32(key[4*i+2])<<16 | uint32(key[4*i+3])<<24
	}
	var mon uint64
	for i := 7; i >= 0; i-- {
		mon = mon<<8 | uint64(key[4*e.n+i])
	}
	return ids, mon
}

func (e *engine) shardOf(key []byte) *shard {
	return &e.shards[fnv(key)%uint32(len(e.shards))]
}

// A loaded state: its processes' states, monitor and system.
type loaded struct {
	ids    []uint32
	mon    uint64
	locals []*compho.Local
	sys    *compho.System
}

// load assembles the system of the state key.
func (e *engine) load(key string, depth int) (*loaded, error) {
	ids, mon := e.unpack(key)
	locals := e.locals(ids)
	sys, err := compho.Assemble(locals, depth)
	if err != nil {
		return nil, err
	}
	return &loaded{ids, mon, locals, sys}, nil
}

// materialize assembles the system of a node.
func (e *engine) materialize(key string, depth int) (*compho.System, uint64, error) {
	l, err := e.load(key, depth)
	if err != nil {
		return nil, 0, err
	}
	return l.sys, l.mon, nil
}

// A succ is a successor being emitted: its key, and the mode and HO sets
// that lead to it (valid during the emit call).
type succ struct {
	key  []byte
	mode int
	ho   []compho.Set
}

type option struct {
	id  uint32
	tag uint64
	ho  compho.Set
}

// expand computes the successors of the state key at depth, calling emit
// for each (repetitions included) until it returns false.
func (e *engine) expand(key string, depth int, emit func(s succ) bool) error {
	l, err := e.load(key, depth)
	if err != nil {
		return err
	}
	return e.expandLoaded(l, depth, emit)
}

// expandLoaded is expand on a loaded state, whose system it runs.
func (e *engine) expandLoaded(l *loaded, depth int, emit func(s succ) bool) error {
	ids, mon, locals, sys := l.ids, l.mon, l.locals, l.sys
	if sys.Done() {
		return nil
	}
	cands, running, err := sys.Begin()
	if err != nil {
		return err
	}
	modes := e.net.Modes(e.n, mon, cands, running)
	if !sys.Simple() {
		return e.expandGeneral(ids, mon, locals, depth, cands, running, modes, emit)
	}
	// Each receiver's outcomes, by HO set: its state after the step.
	cache := newOutcomes(e.n)
	k := &compho.Key{AbstractCounters: e.abstract}
	var ckey []byte
	outcome := func(p compho.PID, h compho.Set) (uint32, bool, error) {
		if id, ok := cache.get(p, h); ok {
			return id, true, nil
		}
		ckey = outcomeKey(ckey, p, ids, h)
		if id, ok := e.cached(ckey); ok {
			cache.put(p, h, id)
			return id, true, nil
		}
		if err := sys.Replace(p, locals[p]); err != nil {
			return 0, false, err
		}
		called, err := sys.Update(p, h)
		if err != nil || called {
			return 0, false, err
		}
		if err := sys.FinishOne(p); err != nil {
			return 0, false, err
		}
		k.Reset()
		if err := sys.Key(p, k); err != nil {
			return 0, false, err
		}
		id := e.intern(k.Bytes(), func() *compho.Local { return sys.Snapshot(p) })
		e.cache(ckey, id)
		cache.put(p, h, id)
		return id, true, nil
	}
	all := make([][][]option, len(modes))
	for mi, mode := range modes {
		opts := make([][]option, e.n)
		for p := range e.n {
			if !running[p] {
				opts[p] = []option{{id: ids[p]}}
				continue
			}
			if e.symmetric {
				// Interchangeable processes in the same state have the
				// same outcomes.
				if q := slices.Index(ids[:p], ids[p]); q >= 0 && running[q] {
					opts[p] = opts[q]
					continue
				}
			}
			var ferr error
			simple := true
			mode.Sets(compho.PID(p), cands[p], func(h compho.Set, tag uint64) {
				if ferr != nil || !simple {
					return
				}
				id, ok, err := outcome(compho.PID(p), h)
				if err != nil {
					ferr = err
					return
				}
				if !ok {
					simple = false
					return
				}
				for _, o := range opts[p] {
					if o.id == id && o.tag == tag {
						return
					}
				}
				opts[p] = append(opts[p], option{id, tag, h})
			})
			if ferr != nil {
				return ferr
			}
			if !simple { // an Update called a machine
				return e.expandGeneral(ids, mon, locals, depth, cands, running, modes, emit)
			}
		}
		all[mi] = opts
	}
	for mi, opts := range all {
		product := e.product
		if e.symmetric {
			product = e.productSym
		}
		var perr error
		if !product(mi, mon, depth+1, opts, &perr, emit) {
			return perr
		}
	}
	return nil
}

// packNorm packs a successor's state, normalized by Model.Normalize if
// the model has one: the state is assembled again, rewritten, and its
// processes' states interned.
func (e *engine) packNorm(buf []byte, ids []uint32, mon uint64, depth int) ([]byte, error) {
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
	var buf []byte
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
func (e *engine) orbit(key string) int {
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
	var buf []byte
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
			_, nmon := e.unpack(string(s.key))
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

// atBoundary reports whether every process of sys that has not finished
// is at round 0 of its root machine.
func atBoundary(sys *compho.System) bool {
	for p := range sys.N() {
		st := sys.Stack(compho.PID(p))
		if len(st) > 1 || len(st) == 1 && (st[0].Round != 0 || st[0].Waiting) {
			return false
		}
	}
	return true
}

type violation struct {
	node *node
	inv  string
	err  error
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
	net := m.Network
	if net == nil {
		net = AnyLoss()
	}
	e := newEngine(n, net, m.AbstractCounters)
	if m.Symmetric {
		if _, ok := net.(symmetricNetwork); !ok {
			return nil, fmt.Errorf("explore: symmetry reduction with the network %q, which is not symmetric", net.Name())
		}
		if n > 20 {
			return nil, fmt.Errorf("explore: symmetry reduction with %d processes; at most 20", n)
		}
		e.symmetric = true
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
	level, err := initialLevel(e, m)
	if err != nil {
		return nil, err
	}
	s := &search[M]{e: e, m: m, workers: m.Workers}
	if s.workers <= 0 {
		s.workers = runtime.GOMAXPROCS(0)
	}
	res := &Result{Orbits: len(level)}
	for _, nd := range level {
		res.States += s.weight(nd)
	}
	for depth := 0; len(level) > 0; depth++ {
		res.Depth = depth
		lv, err := s.level(level, depth)
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
		if !lv.expanded && !allDone(e, level, depth) {
			res.Bounded = true
		}
		for _, nd := range lv.next {
			res.States += s.weight(nd)
		}
		res.Orbits += len(lv.next)
		level = lv.next
		if m.MaxStates > 0 && res.Orbits >= m.MaxStates && len(level) > 0 {
			res.Bounded = true
			// The states of the last level are counted but not checked.
			break
		}
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// initialLevel interns the initial states of m.
func initialLevel[M compho.Machine](e *engine, m Model[M]) ([]*node, error) {
	var level []*node
	for i, procs := range m.Initial {
		if len(procs) != e.n {
			return nil, fmt.Errorf("explore: initial state %d has %d processes, not %d", i, len(procs), e.n)
		}
		sys, err := startSystem(procs)
		if err != nil {
			return nil, err
		}
		ids := make([]uint32, e.n)
		k := &compho.Key{AbstractCounters: m.AbstractCounters}
		for p := range e.n {
			k.Reset()
			if err := sys.Key(compho.PID(p), k); err != nil {
				return nil, fmt.Errorf("%w: %v", ErrNotCloneable, err)
			}
			ids[p] = e.intern(k.Bytes(), func() *compho.Local { return sys.Snapshot(compho.PID(p)) })
		}
		if e.symmetric {
			slices.Sort(ids)
		}
		key := e.pack(ids, e.net.Init(e.n))
		sh := e.shardOf([]byte(key))
		if _, ok := sh.m[key]; ok {
			continue
		}
		nd := &node{key: key, seq: uint64(i), order: len(level)}
		sh.m[key] = nd
		level = append(level, nd)
	}
	return level, nil
}

// A search is the typed part of Explore.
type search[M compho.Machine] struct {
	e       *engine
	m       Model[M]
	workers int
}

// weight is the number of states a node stands for.
func (s *search[M]) weight(nd *node) int {
	if s.e.symmetric {
		return s.e.orbit(nd.key)
	}
	return 1
}

// check checks the invariants on a state.
func (s *search[M]) check(sys *compho.System, mon uint64, depth int) (string, error) {
	if len(s.m.Invariants) == 0 {
		return "", nil
	}
	v := View[M]{Procs: make([]M, s.e.n), Monitor: mon, Depth: depth, Done: sys.Done()}
	for p := range s.e.n {
		v.Procs[p] = sys.Root(compho.PID(p)).(M)
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
	next                     []*node // the new states, in order
	violation                *violation
	phaseStates, transitions int
	expanded                 bool // the level's states were expanded
}

// level checks and expands the states of one level, in parallel.
func (s *search[M]) level(level []*node, depth int) (*levelResult, error) {
	e := s.e
	lr := &levelResult{expanded: s.m.MaxSteps == 0 || depth < s.m.MaxSteps}
	var (
		next        = make([][]*node, s.workers)
		viol        = make([]*violation, s.workers)
		errs        = make([]error, s.workers)
		phaseStates atomic.Int64
		transitions atomic.Int64
		found       atomic.Bool
		cursor      atomic.Int64
		wg          sync.WaitGroup
	)
	for w := range s.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(cursor.Add(1) - 1)
				if i >= len(level) || errs[w] != nil {
					return
				}
				nd := level[i]
				l, err := e.load(nd.key, depth)
				if err != nil {
					errs[w] = err
					return
				}
				sys, mon := l.sys, l.mon
				if atBoundary(sys) {
					phaseStates.Add(int64(s.weight(nd)))
				}
				if name, err := s.check(sys, mon, depth); err != nil {
					if viol[w] == nil || viol[w].node.order > nd.order {
						viol[w] = &violation{nd, name, err}
					}
					found.Store(true)
					continue
				}
				if !lr.expanded || found.Load() {
					continue
				}
				errs[w] = s.expandNode(nd, l, depth, &next[w], &transitions)
			}
		}()
	}
	wg.Wait()
	lr.phaseStates, lr.transitions = int(phaseStates.Load()), int(transitions.Load())
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	for _, v := range viol {
		if v != nil && (lr.violation == nil || v.node.order < lr.violation.node.order) {
			lr.violation = v
		}
	}
	for _, ns := range next {
		lr.next = append(lr.next, ns...)
	}
	slices.SortFunc(lr.next, func(a, b *node) int { return cmp.Compare(a.seq, b.seq) })
	for i, nd := range lr.next {
		nd.order = i
	}
	return lr, nil
}

// expandNode adds the new successors of nd to next. A successor found
// from several parents of the level keeps the first in level order, so
// that the search does not depend on the number of workers.
func (s *search[M]) expandNode(nd *node, l *loaded, depth int, next *[]*node, transitions *atomic.Int64) error {
	e := s.e
	rank := uint64(0)
	return e.expandLoaded(l, depth, func(sc succ) bool {
		transitions.Add(1)
		seq := uint64(nd.order)<<32 | rank
		rank++
		sh := e.shardOf(sc.key)
		sh.Lock()
		defer sh.Unlock()
		old, ok := sh.m[string(sc.key)]
		if !ok {
			c := &node{key: string(sc.key), parent: nd, seq: seq, depth: depth + 1}
			sh.m[c.key] = c
			*next = append(*next, c)
			return true
		}
		if old.depth == depth+1 && seq < old.seq {
			old.parent, old.seq = nd, seq
		}
		return true
	})
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

// allDone reports whether every state of level has finished: a bound
// that stops only those does not leave states unexplored.
func allDone(e *engine, level []*node, depth int) bool {
	for _, nd := range level {
		sys, _, err := e.materialize(nd.key, depth)
		if err != nil || !sys.Done() {
			return false
		}
	}
	return true
}

// startSystem clones the initial machines, one Copier per process, and
// starts them.
func startSystem[M compho.Machine](procs []M) (*compho.System, error) {
	ms := make([]compho.Machine, len(procs))
	for p, m := range procs {
		c, ok := compho.Machine(m).(compho.Cloner)
		if !ok {
			return nil, fmt.Errorf("%w: %T", ErrNotCloneable, m)
		}
		if _, ok := compho.Machine(m).(compho.Keyer); !ok {
			return nil, fmt.Errorf("%w: %T", ErrNotCloneable, m)
		}
		ms[p] = c.Clone(compho.NewCopier())
	}
	return compho.NewSystem(ms)
}
