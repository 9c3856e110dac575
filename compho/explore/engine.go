package explore

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"sync"

	"github.com/ccvet/ccvet/compho"
)

// engine is the untyped part of the search: the interned process states
// and messages, the states found, and the successor computation.
type engine struct {
	n         int
	width     int // words of a state's key: n process states, then the monitor in two
	net       Network
	abstract  bool
	symmetric bool
	// anonymous: every initial machine is compho.Anonymous, so that the
	// caches leave out the identities; with symNet, a network that
	// treats the processes alike, receivers in the same state hearing
	// the same messages share their outcomes.
	anonymous, symNet bool
	// multiset: every initial machine is compho.Symmetric, so that an
	// outcome is cached by the multiset of the messages heard.
	multiset bool
	// norm is Model.Normalize on untyped machines, or nil.
	norm func(roots []compho.Machine, fix bool) bool

	mu   sync.RWMutex
	ids  map[string]uint32
	reps []*compho.Local
	// msgs interns the messages by their content (compho.Key.Value);
	// IDs start at 1, 0 meaning no message.
	msgs map[string]uint32

	// The states found, in the order of the search: state i's key is
	// keys[i*width:(i+1)*width]; parent[i] is the index of its parent
	// (-1 for an initial state) and seq[i] orders it in its level (for
	// an initial state, its index in Model.Initial).
	keys   []uint32
	parent []int32
	seq    []uint64
	index  stateIndex
}

func newEngine(n int, net Network, abstract bool) *engine {
	e := &engine{n: n, width: n + 2, net: net, abstract: abstract,
		ids: make(map[string]uint32), msgs: make(map[string]uint32)}
	e.index = newPackedIndex(n, func() stateIndex { return newStateIndex(e.width) }, func() [][]uint32 {
		ks := make([][]uint32, len(e.parent))
		for i := range ks {
			ks[i] = e.key(i)
		}
		return ks
	})
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

// message returns the ID of a message, by its content.
func (e *engine) message(k *compho.Key, msg any) uint32 {
	k.Reset()
	k.Value(msg)
	e.mu.Lock()
	defer e.mu.Unlock()
	id, ok := e.msgs[string(k.Bytes())]
	if !ok {
		id = uint32(len(e.msgs) + 1)
		e.msgs[string(k.Bytes())] = id
	}
	return id
}

func (e *engine) locals(ids []uint32) []*compho.Local {
	ls := make([]*compho.Local, len(ids))
	e.localsInto(ls, ids)
	return ls
}

func (e *engine) localsInto(ls []*compho.Local, ids []uint32) {
	e.mu.RLock()
	for i, id := range ids {
		ls[i] = e.reps[id]
	}
	e.mu.RUnlock()
}

// packInto packs a state, its processes' states and its monitor, into
// buf's storage.
func (e *engine) packInto(buf []uint32, ids []uint32, mon uint64) []uint32 {
	buf = append(buf[:0], ids...)
	return append(buf, uint32(mon), uint32(mon>>32))
}

// key returns the key of state i.
func (e *engine) key(i int) []uint32 { return e.keys[i*e.width : (i+1)*e.width] }

func (e *engine) unpack(key []uint32) ([]uint32, uint64) {
	return key[:e.n], uint64(key[e.n]) | uint64(key[e.n+1])<<32
}

// add appends a state to those found.
func (e *engine) add(key []uint32, parent int32, seq uint64) {
	e.keys = append(e.keys, key...)
	e.parent = append(e.parent, parent)
	e.seq = append(e.seq, seq)
	e.index.add(key)
}

// A succ is a successor being emitted: its key, and the mode and HO sets
// that lead to it (valid during the emit call).
type succ struct {
	key  []uint32
	mode int
	ho   []compho.Set
}

type option struct {
	id  uint32
	tag uint64
	ho  compho.Set
}

// maxCached bounds the entries of one generation of a worker's outcomes
// cache: a full generation starts a new one and drops the one before,
// so that the cache stays within about a hundred megabytes per worker
// and keeps the entries used since the last change.
const maxCached = 1 << 20

// maxCells bounds the entries of a worker's outcome tables (multiset
// machines): 64 megabytes.
const maxCells = 1 << 24

// A worker expands states: its caches need no lock.
type worker struct {
	e *engine
	k compho.Key
	// outcomes caches the state of a receiver after a step (simple
	// steps only), by receiver (or none, for an Anonymous machine), its
	// state, its HO set and the messages it heard: its Update sees
	// nothing else (the step index is not part of the state). In two
	// generations.
	outcomes, old map[string]uint32
	// sent caches the messages a process sends, by its state and
	// identity (none, for an Anonymous machine): sent[q][p] is the ID
	// of the message to p, 0 for none.
	sent  map[uint64][]uint32
	buf   []byte
	heard []uint32
	mk    compho.Key // for messages
	// tables holds the outcome tables of multiset machines (see
	// step.prepare), by receiver state and multiset of messages sent to
	// it; tableCells counts their entries.
	tables     map[string]*outcomeTable
	tableCells int
	// Scratch space of expand, reused from state to state.
	st   step
	opts [][][]option // by mode and process
	bufs [][][]option // the storage each process owns, by mode
	// sink, if set, is where the successors go in a search (see
	// fastProduct); the emit function of expand sees them otherwise.
	sink *sink
	sk   sink // the storage of sink in a search
	// The groups batched by fastProduct, and the sum of the slots'
	// contents (kept so that their loads are not optimized away).
	batch   [64]batched
	batched int
	touch   uint64
	// Scratch space of fastProduct.
	idx    []int
	key    []uint32
	lgs    []lastGroup
	shifts []uint
	lanes  []uint64
}

// A sink receives the successors of one state in a search: those not in
// the index are offered to the worker's level set, in the order of
// their rank among the state's successors.
type sink struct {
	set         levelSet
	order       uint64 // the parent's index in its level
	parent      int32
	rank        uint64
	transitions int
}

// A lastGroup is the options of the last process whose fields agree but
// for the bits of a group's bitmap (see packedIndex): hi is the field
// without those bits, in place in a word, and mask the bitmap of their
// low bits.
type lastGroup struct{ hi, mask uint64 }

// A batched is a group looked up by fastProduct: its word, the rank of
// its first successor, its slot and its lastGroup.
type batched struct {
	v, rank  uint64
	slot, gi uint32
}

// fastProduct emits the successors of a state to the sink without
// building their keys: for a network with no monitor and no
// normalization, the successors that differ only in the last process's
// option share a group of the index (one lookup, its bitmap tested
// against the options' bits at once), and the groups of consecutive
// successors differ from the one before in the fields of the processes
// whose option changed. Only a successor not in the index is unpacked
// into a key. It reports false, having emitted nothing, when an option
// does not fit in the packed words.
func (w *worker) fastProduct(x *packedIndex, all [][][]option, mon uint64, sk *sink) (bool, error) {
	n := w.e.n
	lim := uint32(1) << x.b
	for _, opts := range all {
		for p := range opts {
			for _, o := range opts[p] {
				if o.id >= lim {
					return false, nil
				}
			}
		}
	}
	if mon>>x.rest != 0 {
		return false, nil
	}
	if cap(w.idx) < n {
		w.idx = make([]int, n)
	}
	idx := w.idx[:n-1]
	for _, opts := range all {
		size := 1
		for _, o := range opts {
			size *= len(o)
		}
		if size == 0 {
			continue // a receiver with no allowed set
		}
		last := opts[n-1]
		lgs := w.lgs[:0]
		for _, o := range last {
			hi := uint64(o.id)<<x.rest&^x.gmask | mon
			bit := uint64(1) << (uint64(o.id) & x.lowMask)
			i := slices.IndexFunc(lgs, func(g lastGroup) bool { return g.hi == hi })
			if i < 0 {
				lgs = append(lgs, lastGroup{hi: hi})
				i = len(lgs) - 1
			}
			lgs[i].mask |= bit
		}
		w.lgs = lgs
		// The options of processes 0 to n−3 vary in an odometer, the
		// field of each changed in place, and process n−2's in an inner
		// loop, their fields shifted in place beforehand.
		sh := w.shifts[:0]
		for p := range n {
			sh = append(sh, x.rest+uint(n-1-p)*x.b)
		}
		w.shifts = sh
		lanes := append(w.lanes[:0], 0)
		if n >= 2 {
			lanes = lanes[:0]
			for _, o := range opts[n-2] {
				lanes = append(lanes, uint64(o.id)<<sh[n-2])
			}
		}
		w.lanes = lanes
		outer := max(n-2, 0)
		clear(idx[:outer])
		var prefix uint64
		for p := range outer {
			prefix |= uint64(opts[p][0].id) << sh[p]
		}
		rank := sk.rank
		step := uint64(len(last))
		k := w.batched
		for {
			for _, lane := range lanes {
				for gi, g := range lgs {
					v := prefix | lane | g.hi
					w.batch[k&63] = batched{v: v, rank: rank, slot: uint32(x.slot(v)), gi: uint32(gi)}
					if k++; k == len(w.batch) {
						w.batched = k
						w.flush(x, sk, last)
						k = 0
					}
				}
				rank += step
			}
			p := outer - 1
			for ; p >= 0; p-- {
				o := opts[p]
				old := o[idx[p]].id
				i := idx[p] + 1
				if i == len(o) {
					i = 0
				}
				idx[p] = i
				prefix ^= uint64(old^o[i].id) << sh[p]
				if i != 0 {
					break
				}
			}
			if p < 0 {
				break
			}
		}
		w.batched = k
		w.flush(x, sk, last)
		sk.rank += uint64(size)
		sk.transitions += size
	}
	return true, nil
}

// flush looks the batched groups up in the index and offers the
// successors not in it to the sink. The slots of the whole batch are
// loaded first, without a branch on what they hold, so that their cache
// misses overlap; the lookups then find them in the cache.
func (w *worker) flush(x *packedIndex, sk *sink, last []option) {
	batch := w.batch[:w.batched]
	var touch uint64
	for _, b := range batch {
		touch += x.table[2*b.slot]
	}
	w.touch += touch
	n := w.e.n
	for _, b := range batch {
		g := b.v
		lg := w.lgs[b.gi]
		missing := lg.mask &^ x.bitmapFrom(g, int(b.slot))
		if missing == 0 {
			continue
		}
		for i, o := range last {
			low := uint64(o.id) & x.lowMask
			if uint64(o.id)<<x.rest&^x.gmask|g&(1<<x.rest-1) != lg.hi || missing&(1<<low) == 0 {
				continue
			}
			v := g | low<<x.rest
			w.key = w.key[:0]
			for p := range n {
				w.key = append(w.key, uint32(v>>(x.rest+uint(n-1-p)*x.b)&x.idMask))
			}
			mon := v & (1<<x.rest - 1)
			w.key = append(w.key, uint32(mon), uint32(mon>>32))
			sk.set.offer(w.key, sk.order<<32|(b.rank+uint64(i)), sk.parent)
		}
	}
	w.batched = 0
}

func newWorker(e *engine) *worker {
	n := e.n
	return &worker{e: e, k: compho.Key{AbstractCounters: e.abstract},
		outcomes: make(map[string]uint32), sent: make(map[uint64][]uint32), tables: make(map[string]*outcomeTable),
		st: step{locals: make([]*compho.Local, n), running: make([]bool, n), cands: make([]compho.Set, n),
			sent: make([][]uint32, n), unit: make([]uint32, n)}}
}

func (w *worker) cached(k []byte) (uint32, bool) {
	if id, ok := w.outcomes[string(k)]; ok {
		return id, true
	}
	// The previous generation: an entry still in use is kept.
	id, ok := w.old[string(k)]
	if ok {
		w.cache(k, id)
	}
	return id, ok
}

func (w *worker) cache(k []byte, id uint32) {
	if len(w.outcomes) >= maxCached {
		w.old, w.outcomes = w.outcomes, make(map[string]uint32, maxCached/2)
	}
	w.outcomes[string(k)] = id
}

// A step is the successor computation of one state (simple steps).
type step struct {
	w       *worker
	ids     []uint32
	locals  []*compho.Local
	depth   int
	sys     *compho.System // assembled and begun when first needed
	running []bool
	cands   []compho.Set
	sent    [][]uint32
	// The current receiver's table of outcomes and the numbers of its
	// candidates (see prepare).
	unit  []uint32
	table *outcomeTable
}

// prepare readies the table of outcomes of receiver p, for a multiset
// machine: the multisets of messages p may hear are numbered in mixed
// radix (the count of each distinct message of its candidates, in the
// order of the messages' first senders), so that a mailbox's number is
// the sum of unit[q] over its senders q, and the table, shared by the
// receivers in the same state whose candidates sent the same multiset,
// holds the outcome of each number (ID+1; 0 not computed yet).
func (s *step) prepare(p int) {
	w, e := s.w, s.w.e
	s.table = nil
	if !e.multiset || s.cands[p].Len() > 15 {
		return
	}
	var distinct [16]uint32
	var counts [16]int
	d := 0
	for x := uint64(s.cands[p]); x != 0; x &= x - 1 {
		m := s.sent[bits.TrailingZeros64(x)][p]
		r := 0
		for r < d && distinct[r] != m {
			r++
		}
		if r == d {
			distinct[d] = m
			d++
		}
		counts[r]++
	}
	// The table's key: the receiver's state and the multiset, as sorted
	// (message, count) pairs.
	var buf [16]int
	order := buf[:d]
	for r := range order {
		order[r] = r
	}
	// Insertion sort: at most 15 messages.
	for a := 1; a < d; a++ {
		for b := a; b > 0 && distinct[order[b]] < distinct[order[b-1]]; b-- {
			order[b], order[b-1] = order[b-1], order[b]
		}
	}
	b := binary.LittleEndian.AppendUint32(w.buf[:0], s.ids[p])
	for _, r := range order {
		b = binary.LittleEndian.AppendUint32(b, distinct[r])
		b = append(b, byte(counts[r]))
	}
	w.buf = b
	t, ok := w.tables[string(b)]
	if !ok {
		size := 1
		for r := range d {
			size *= counts[r] + 1
		}
		if w.tableCells+size > maxCells {
			clear(w.tables)
			w.tableCells = 0
		}
		t = &outcomeTable{cells: make([]uint32, size)}
		w.tables[string(b)] = t
		w.tableCells += size
	}
	// Radix of each distinct message, in sorted order.
	var radix [16]uint32
	mul := uint32(1)
	for _, r := range order {
		radix[r] = mul
		mul *= uint32(counts[r] + 1)
	}
	for x := uint64(s.cands[p]); x != 0; x &= x - 1 {
		q := bits.TrailingZeros64(x)
		m := s.sent[q][p]
		r := 0
		for distinct[r] != m {
			r++
		}
		s.unit[q] = radix[r]
	}
	s.table = t
}

// begin assembles the state's system and begins its step.
func (s *step) begin() error {
	if s.sys != nil {
		return nil
	}
	sys, err := compho.Assemble(s.locals, s.depth)
	if err != nil {
		return err
	}
	if _, _, err := sys.Begin(); err != nil {
		return err
	}
	s.sys = sys
	return nil
}

// messages fills s.sent, s.cands and s.running.
func (s *step) messages() error {
	w, e := s.w, s.w.e
	for q, l := range s.locals {
		s.running[q] = l.Frames() == 1
		if !s.running[q] {
			s.sent[q] = nil
			continue
		}
		who := uint64(q)
		if e.anonymous {
			who = 0xff
		}
		ck := uint64(s.ids[q])<<8 | who
		row, ok := w.sent[ck]
		if !ok {
			if err := s.begin(); err != nil {
				return err
			}
			row = make([]uint32, e.n)
			for p := range e.n {
				if m, ok := s.sys.Message(compho.PID(q), compho.PID(p)); ok {
					row[p] = e.message(&w.mk, m)
				}
			}
			w.sent[ck] = row
		}
		s.sent[q] = row
	}
	for p := range e.n {
		s.cands[p] = 0
		if !s.running[p] {
			continue
		}
		for q := range e.n {
			if s.running[q] && s.sent[q][p] != 0 && compho.SameRound(s.locals[q], s.locals[p]) {
				s.cands[p] |= 1 << q
			}
		}
	}
	return nil
}

// outcome returns receiver p's state after the step with HO set h; ok
// is false if its Update called a machine. A cell of a table not
// computed yet is looked up in the worker's cache of outcomes (by the
// multiset heard) before the Update is run: tables are many (one per
// multiset sent), the multisets heard far fewer.
func (s *step) outcome(p int, h compho.Set) (uint32, bool, error) {
	if s.table == nil {
		return s.compute(p, h)
	}
	var i uint32
	for x := uint64(h); x != 0; x &= x - 1 {
		i += s.unit[bits.TrailingZeros64(x)]
	}
	if id := s.table.cells[i]; id != 0 {
		return id - 1, true, nil
	}
	id, ok, err := s.compute(p, h)
	if ok && err == nil {
		s.table.cells[i] = id + 1
	}
	return id, ok, err
}

// compute returns receiver p's state after the step with HO set h, from
// the worker's cache or by running its Update.
func (s *step) compute(p int, h compho.Set) (uint32, bool, error) {
	w, e := s.w, s.w.e
	who := uint32(p)
	if e.anonymous {
		who = ^uint32(0)
	}
	b := binary.LittleEndian.AppendUint32(w.buf[:0], who)
	b = binary.LittleEndian.AppendUint32(b, s.ids[p])
	if e.multiset {
		// The messages heard, sorted.
		ms := w.heard[:0]
		for x := uint64(h); x != 0; x &= x - 1 {
			ms = append(ms, s.sent[bits.TrailingZeros64(x)][p])
		}
		slices.Sort(ms)
		for _, m := range ms {
			b = binary.LittleEndian.AppendUint32(b, m)
		}
		w.heard = ms
	} else {
		b = binary.LittleEndian.AppendUint64(b, uint64(h))
		for x := uint64(h); x != 0; x &= x - 1 {
			b = binary.LittleEndian.AppendUint32(b, s.sent[bits.TrailingZeros64(x)][p])
		}
	}
	w.buf = b
	if id, ok := w.cached(b); ok {
		return id, true, nil
	}
	id, ok, err := s.run(p, h)
	if ok && err == nil {
		w.cache(w.buf, id)
	}
	return id, ok, err
}

// run runs receiver p's Update with HO set h and returns its state
// after the step; ok is false if the Update called a machine.
func (s *step) run(p int, h compho.Set) (uint32, bool, error) {
	w, e := s.w, s.w.e
	if err := s.begin(); err != nil {
		return 0, false, err
	}
	sys := s.sys
	if err := sys.Replace(compho.PID(p), s.locals[p]); err != nil {
		return 0, false, err
	}
	called, err := sys.Update(compho.PID(p), h)
	if err != nil || called {
		return 0, false, err
	}
	if err := sys.FinishOne(compho.PID(p)); err != nil {
		return 0, false, err
	}
	w.k.Reset()
	if err := sys.Key(compho.PID(p), &w.k); err != nil {
		return 0, false, err
	}
	id := e.intern(w.k.Bytes(), func() *compho.Local { return sys.Snapshot(compho.PID(p)) })
	return id, true, nil
}

// options appends to opts the distinct outcomes of receiver p over the
// HO sets mode allows it, each with its tag and the first set that gives
// it; ok is false if an Update called a machine.
func (s *step) options(mode Mode, p int, opts []option) ([]option, bool, error) {
	s.prepare(p)
	if least, ok := sizeBound(s.w.e.net, s.cands[p]); ok {
		return s.sized(p, least, opts)
	}
	var ferr error
	simple := true
	mode.Sets(compho.PID(p), s.cands[p], func(h compho.Set, tag uint64) {
		if ferr != nil || !simple {
			return
		}
		id, ok, err := s.outcome(p, h)
		if err != nil {
			ferr = err
			return
		}
		if !ok {
			simple = false
			return
		}
		for _, o := range opts {
			if o.id == id && o.tag == tag {
				return
			}
		}
		opts = append(opts, option{id, tag, h})
	})
	return opts, simple, ferr
}

// sized appends to opts the distinct outcomes of receiver p over the
// subsets of its candidates with at least least senders, in the order
// of the network's Sets (all tagged 0); ok is false if an Update called
// a machine. With a table of outcomes whose distinct outcomes are known
// (from a search of all the subsets before), the search stops when it
// has found them all: the table's multisets are the same in every state
// that uses it, the order in which their outcomes first appear is not.
func (s *step) sized(p, least int, opts []option) ([]option, bool, error) {
	c, t := s.cands[p], s.table
	start, want := len(opts), -1
	if t != nil && t.outs > 0 && t.least == least {
		want = t.outs
	}
	for x := c; ; x = (x - 1) & c {
		if x.Len() >= least {
			id, ok, err := s.outcome(p, x)
			if err != nil || !ok {
				return opts, ok, err
			}
			if !slices.ContainsFunc(opts[start:], func(o option) bool { return o.id == id }) {
				if opts = append(opts, option{id: id, ho: x}); len(opts)-start == want {
					return opts, true, nil
				}
			}
		}
		if x == 0 {
			break
		}
	}
	if t != nil {
		t.outs, t.least = len(opts)-start, least
	}
	return opts, true, nil
}

// An outcomeTable holds the outcomes of a receiver state for the
// sub-multisets of a multiset of messages (see step.prepare).
type outcomeTable struct {
	cells []uint32 // ID+1 per cell; 0 not computed yet
	// outs is the number of distinct outcomes of the cells of at least
	// least messages, once sized has computed them all (0 before).
	outs, least int
}

// sameInputs reports whether receivers p and q, in the same state, run
// the step alike: the same candidates sent them the same messages.
func (s *step) sameInputs(p, q int) bool {
	if s.ids[p] != s.ids[q] || s.cands[p] != s.cands[q] {
		return false
	}
	for x := uint64(s.cands[p]); x != 0; x &= x - 1 {
		r := bits.TrailingZeros64(x)
		if s.sent[r][p] != s.sent[r][q] {
			return false
		}
	}
	return true
}

// expand computes the successors of the state (ids, mon) at depth,
// calling emit for each (repetitions included) until it returns false.
func (w *worker) expand(ids []uint32, mon uint64, depth int, emit func(s succ) bool) error {
	e := w.e
	s := &w.st
	s.w, s.ids, s.depth, s.sys = w, ids, depth, nil
	e.localsInto(s.locals, ids)
	locals := s.locals
	simple, done := true, true
	for _, l := range locals {
		if l.Frames() > 1 || l.Waiting() {
			simple = false
		}
		if l.Frames() > 0 {
			done = false
		}
	}
	if done {
		return nil
	}
	if !simple {
		return e.expandCalls(ids, mon, slices.Clone(locals), depth, emit)
	}
	if err := s.messages(); err != nil {
		return err
	}
	modes := e.net.Modes(e.n, mon, s.cands, s.running)
	for len(w.opts) < len(modes) {
		w.opts = append(w.opts, make([][]option, e.n))
		w.bufs = append(w.bufs, make([][]option, e.n))
	}
	all := w.opts[:len(modes)]
	for mi, mode := range modes {
		opts, bufs := all[mi], w.bufs[mi]
		for p := range e.n {
			opts[p] = bufs[p][:0]
			if !s.running[p] {
				opts[p] = append(opts[p], option{id: ids[p]})
				bufs[p] = opts[p]
				continue
			}
			if shared := w.shared(s, opts, p); shared >= 0 {
				opts[p] = opts[shared]
				continue
			}
			var ok bool
			var err error
			opts[p], ok, err = s.options(mode, p, opts[p])
			bufs[p] = opts[p]
			if err != nil {
				return err
			}
			if !ok { // an Update called a machine
				return e.expandCalls(ids, mon, slices.Clone(locals), depth, emit)
			}
		}
	}
	if sk := w.sink; sk != nil && e.norm == nil && !e.symmetric && e.symNet {
		if x, ok := e.index.(*packedIndex); ok && x.wide == nil {
			if done, err := w.fastProduct(x, all, mon, sk); done || err != nil {
				return err
			}
		}
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

// shared returns an earlier receiver whose options receiver p has, or -1.
func (w *worker) shared(s *step, opts [][]option, p int) int {
	e := w.e
	for q := range p {
		if !s.running[q] || s.ids[q] != s.ids[p] {
			continue
		}
		// Interchangeable processes in the same state have the same
		// outcomes (symmetry reduction); so do anonymous ones with the
		// same inputs.
		if e.symmetric || e.anonymous && e.symNet && s.sameInputs(p, q) {
			return q
		}
	}
	return -1
}

// expandCalls computes the successors of a state in which a process is
// in a call or calls a machine (see expandGeneral).
func (e *engine) expandCalls(ids []uint32, mon uint64, locals []*compho.Local, depth int, emit func(s succ) bool) error {
	sys, err := compho.Assemble(locals, depth)
	if err != nil {
		return err
	}
	cands, running, err := sys.Begin()
	if err != nil {
		return err
	}
	modes := e.net.Modes(e.n, mon, cands, running)
	return e.expandGeneral(ids, mon, locals, depth, cands, running, modes, emit)
}

// A stateIndex is the set of the states found, by key. It is read by
// the workers during a level and written between levels.
type stateIndex interface {
	has(key []uint32) bool
	add(key []uint32)
	// level returns a set of new states for one worker and one level.
	level() levelSet
}

// A levelSet collects a worker's new states of a level.
type levelSet interface {
	// offer records a successor that is not in the index: it keeps the
	// least seq found for it.
	offer(key []uint32, seq uint64, parent int32)
	// found returns the states offered.
	found() []found
}

// found is a new state of a level.
type found struct {
	key    []uint32
	seq    uint64
	parent int32
}

// merge merges the workers' new states of a level: ordered by seq, each
// with the least seq any worker found.
func merge(sets []levelSet) []found {
	var out []found
	if len(sets) == 1 {
		out = sets[0].found()
	} else {
		all := make(map[string]int32)
		var buf []byte
		for _, s := range sets {
			for _, f := range s.found() {
				buf = keyBytes(f.key, buf)
				if i, ok := all[string(buf)]; ok {
					if f.seq < out[i].seq {
						out[i] = f
					}
					continue
				}
				all[string(buf)] = int32(len(out))
				out = append(out, f)
			}
		}
	}
	slices.SortFunc(out, func(a, b found) int { return cmpSeq(a.seq, b.seq) })
	return out
}

func cmpSeq(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func keyBytes(key []uint32, buf []byte) []byte {
	buf = buf[:0]
	for _, v := range key {
		buf = binary.LittleEndian.AppendUint32(buf, v)
	}
	return buf
}

// A packedIndex keys the states by one 64-bit word while they fit: the n
// process states in b bits each, the monitor in the rest (at least b
// bits). A state that does not fit is not in the index, since every
// state in it fits; when one is added, the index turns into a wide one
// (a map keyed by an array of the words, or by their bytes), for good.
//
// The words are kept by group in an open-addressing table (linear
// probing; Go's map costs three to four times as much per lookup at a
// million states): a group is the words that differ only in the low
// gb = min(b, 6) bits of the last process's field, and its slot holds
// the group (its word with those bits zero) and a bitmap of the words
// of it that are in. The successors of a state that differ only in the
// last process's option mostly fall in one group, so that one lookup
// answers for all of them.
type packedIndex struct {
	n    int
	b    uint
	rest uint // bits of the monitor
	// table holds two words per slot: the group plus one (0 for an
	// empty slot), and its bitmap.
	table []uint64
	// Constants of slot and of the groups: the shift that takes the
	// slot's bits from the top of a product, the mask of a field's
	// bits in a group's bitmap (lowMask) and of those bits in a word
	// (gmask), and the mask of a field.
	shift                  uint64
	lowMask, gmask, idMask uint64
	count, groups          int        // words and groups in the table
	wide                   stateIndex // nil while packed
	newIdx                 func() stateIndex
	keys                   func() [][]uint32 // every key added so far
}

func newPackedIndex(n int, wide func() stateIndex, keys func() [][]uint32) *packedIndex {
	b := uint(64 / (n + 1))
	x := &packedIndex{n: n, b: b, rest: 64 - uint(n)*b, newIdx: wide, keys: keys}
	if b == 0 { // 64 processes: no field fits
		x.wide = wide()
		return x
	}
	x.lowMask = 1<<min(b, 6) - 1
	x.gmask = x.lowMask << x.rest
	x.idMask = 1<<b - 1
	x.resize(1 << 10)
	return x
}

// resize gives the table size slots (a power of 2).
func (x *packedIndex) resize(size int) {
	x.table = allocWords(2 * size)
	x.shift = uint64(64 - bits.Len(uint(size-1)))
}

// pack returns the packed key, and whether the key fits.
func (x *packedIndex) pack(key []uint32) (uint64, bool) {
	var v uint64
	lim := uint32(1) << x.b
	for _, id := range key[:x.n] {
		if id >= lim {
			return 0, false
		}
		v = v<<x.b | uint64(id)
	}
	mon := uint64(key[x.n]) | uint64(key[x.n+1])<<32
	if mon>>x.rest != 0 {
		return 0, false
	}
	return v<<x.rest | mon, true
}

// slot returns the first slot of the group of word v (a multiplicative
// hash of the group).
func (x *packedIndex) slot(v uint64) int { return int((v &^ x.gmask) * 0x9e3779b97f4a7c15 >> x.shift) }

// bitmapFrom returns the bitmap of the group of word v, 0 if it has no
// word in, given its slot.
func (x *packedIndex) bitmapFrom(v uint64, slot int) uint64 {
	g := v&^x.gmask + 1 // no overflow: a group has a zero bit
	mask := len(x.table)/2 - 1
	for i := slot; ; i = (i + 1) & mask {
		switch x.table[2*i] {
		case g:
			return x.table[2*i+1]
		case 0:
			return 0
		}
	}
}

// bit returns word v's bit in its group's bitmap.
func (x *packedIndex) bit(v uint64) uint64 { return 1 << (v >> x.rest & x.lowMask) }

func (x *packedIndex) hasWord(v uint64) bool { return x.bitmapFrom(v, x.slot(v))&x.bit(v) != 0 }

func (x *packedIndex) addWord(v uint64) {
	if x.insert(v&^x.gmask, x.bit(v)) {
		x.count++
	}
}

// insert adds set to group g's bitmap, reporting whether it was not
// all in.
func (x *packedIndex) insert(g, set uint64) bool {
	if 2*(x.groups+1) > len(x.table)/2 { // a load of at most 1/2
		old := x.table
		x.resize(len(old))
		x.groups = 0
		for i := 0; i < len(old); i += 2 {
			if old[i] != 0 {
				x.insert(old[i]-1, old[i+1])
			}
		}
		freeWords(old)
	}
	mask := len(x.table)/2 - 1
	for i := x.slot(g); ; i = (i + 1) & mask {
		switch x.table[2*i] {
		case g + 1:
			had := x.table[2*i+1]
			x.table[2*i+1] |= set
			return had&set != set
		case 0:
			x.table[2*i], x.table[2*i+1] = g+1, set
			x.groups++
			return true
		}
	}
}

// free releases the table.
func (x *packedIndex) free() {
	if x.table != nil {
		freeWords(x.table)
	}
	x.table = nil
}

func (x *packedIndex) has(key []uint32) bool {
	if x.wide != nil {
		return x.wide.has(key)
	}
	v, ok := x.pack(key)
	return ok && x.hasWord(v)
}

func (x *packedIndex) add(key []uint32) {
	if x.wide != nil {
		x.wide.add(key)
		return
	}
	if v, ok := x.pack(key); ok {
		x.addWord(v)
		return
	}
	// The keys added so far include key.
	x.free()
	x.wide = x.newIdx()
	for _, k := range x.keys() {
		x.wide.add(k)
	}
}

func (x *packedIndex) level() levelSet {
	if x.wide != nil {
		return x.wide.level()
	}
	return &packedLevel{x: x, m: make(map[uint64]int32)}
}

// A packedLevel holds the new states that fit in a packedIndex's words,
// and the others in a wide level set.
type packedLevel struct {
	x     *packedIndex
	m     map[uint64]int32
	fs    []found
	arena []uint32
	wide  levelSet
}

func (l *packedLevel) offer(key []uint32, seq uint64, parent int32) {
	v, ok := l.x.pack(key)
	if !ok {
		if l.wide == nil {
			l.wide = l.x.newIdx().level()
		}
		l.wide.offer(key, seq, parent)
		return
	}
	if i, ok := l.m[v]; ok {
		if seq < l.fs[i].seq {
			l.fs[i].seq, l.fs[i].parent = seq, parent
		}
		return
	}
	l.m[v] = int32(len(l.fs))
	off := len(l.arena)
	l.arena = append(l.arena, key...)
	l.fs = append(l.fs, found{key: l.arena[off:len(l.arena):len(l.arena)], seq: seq, parent: parent})
}

func (l *packedLevel) found() []found {
	if l.wide == nil {
		return l.fs
	}
	return append(slices.Clone(l.fs), l.wide.found()...)
}

// newStateIndex returns a wide index for keys of width words: a map
// keyed by a fixed-size array (no pointers for the collector to scan)
// for up to 16 processes, by a string beyond.
func newStateIndex(width int) stateIndex {
	switch {
	case width <= 6:
		return &arrayIndex[[6]uint32]{m: make(map[[6]uint32]struct{})}
	case width <= 10:
		return &arrayIndex[[10]uint32]{m: make(map[[10]uint32]struct{})}
	case width <= 18:
		return &arrayIndex[[18]uint32]{m: make(map[[18]uint32]struct{})}
	}
	return &stringIndex{m: make(map[string]struct{})}
}

type arrayKey interface {
	[6]uint32 | [10]uint32 | [18]uint32
}

func toArray[K arrayKey](key []uint32) K {
	var k K
	switch a := any(&k).(type) {
	case *[6]uint32:
		copy(a[:], key)
	case *[10]uint32:
		copy(a[:], key)
	case *[18]uint32:
		copy(a[:], key)
	}
	return k
}

type arrayIndex[K arrayKey] struct{ m map[K]struct{} }

func (x *arrayIndex[K]) has(key []uint32) bool {
	_, ok := x.m[toArray[K](key)]
	return ok
}

func (x *arrayIndex[K]) add(key []uint32) { x.m[toArray[K](key)] = struct{}{} }

func (x *arrayIndex[K]) level() levelSet { return &arrayLevel[K]{m: make(map[K]int32)} }

type arrayLevel[K arrayKey] struct {
	m     map[K]int32
	fs    []found
	arena []uint32
}

func (l *arrayLevel[K]) offer(key []uint32, seq uint64, parent int32) {
	k := toArray[K](key)
	if i, ok := l.m[k]; ok {
		if seq < l.fs[i].seq {
			l.fs[i].seq, l.fs[i].parent = seq, parent
		}
		return
	}
	l.m[k] = int32(len(l.fs))
	off := len(l.arena)
	l.arena = append(l.arena, key...)
	l.fs = append(l.fs, found{key: l.arena[off:len(l.arena):len(l.arena)], seq: seq, parent: parent})
}

func (l *arrayLevel[K]) found() []found { return l.fs }

// stringIndex keys the states by their bytes (more than 16 processes).
type stringIndex struct{ m map[string]struct{} }

func (x *stringIndex) has(key []uint32) bool {
	var a [128]byte
	_, ok := x.m[string(keyBytes(key, a[:0]))]
	return ok
}

func (x *stringIndex) add(key []uint32) { x.m[string(keyBytes(key, nil))] = struct{}{} }

func (x *stringIndex) level() levelSet { return &stringLevel{m: make(map[string]int32)} }

type stringLevel struct {
	m   map[string]int32
	fs  []found
	buf []byte
}

func (l *stringLevel) offer(key []uint32, seq uint64, parent int32) {
	l.buf = keyBytes(key, l.buf)
	if i, ok := l.m[string(l.buf)]; ok {
		if seq < l.fs[i].seq {
			l.fs[i].seq, l.fs[i].parent = seq, parent
		}
		return
	}
	l.m[string(l.buf)] = int32(len(l.fs))
	l.fs = append(l.fs, found{key: slices.Clone(key), seq: seq, parent: parent})
}

func (l *stringLevel) found() []found { return l.fs }
