package compho

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A Tagger is a Machine whose rounds are numbered by the synchronization
// tag of the asynchronous code it was generated from, rather than by
// counting passes over its round table: a machine whose process can jump
// to a later phase or round (condition IV of the paper: a process that
// receives a message of a later tag moves to that tag).
//
// Run aligns the Taggers of a run by tag: in each step only the processes
// whose tag is the lowest of the running Taggers execute, the round of
// their round table that the last component of the tag names; the others
// are ahead (they jumped over the rounds in between) and are idle: they
// send nothing and their Update is not called, which is the reduction of
// Theorem 1 (a process has no action in a layer it skips, so the layer is
// one in which it sends nothing, hears nothing and does not change its
// state; calling its Update with an empty mailbox would run code the
// asynchronous process never runs, such as a timeout's round change).
// Steps in which no process would run are not executed.
//
// After each Update of a Tagger that has not halted, its tag must have
// increased (condition I); otherwise Run returns a *ProtocolError.
// Taggers are root machines: a Tagger may neither call a machine nor be
// called. A System (exploration) does not accept them.
type Tagger interface {
	Machine
	// Tag returns the tag of the process's state: the phase components
	// in lexicographic order, then the index in the round table of the
	// round the process executes next. It must not be empty.
	Tag() Tag
}

// A Tag is a synchronization tag, ordered lexicographically: the phase
// components, then the index of a round in the round table.
type Tag []int

// Compare orders tags lexicographically; a prefix comes first. It
// returns -1, 0 or +1.
func (t Tag) Compare(u Tag) int {
	return slices.Compare(t, u)
}

// String renders the tag as (a,b,c).
func (t Tag) String() string {
	parts := make([]string, len(t))
	for i, x := range t {
		parts[i] = strconv.Itoa(x)
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// retag reads the tag of the tagged frame f and sets its round from it.
// prev, if not nil, is the tag before the frame's Update: the new one
// must be greater.
func (ex *executor) retag(p *proc, f *frame, prev Tag) {
	t := f.tagger.Tag()
	c := &p.ctx
	switch {
	case len(t) == 0:
		c.fail("empty tag (a Tagger's tag ends with the index of its round)")
	case t[len(t)-1] < 0 || t[len(t)-1] >= len(f.rounds):
		c.fail("tag %v names round %d, out of the round table [0, %d)", t, t[len(t)-1], len(f.rounds))
	case prev != nil && t.Compare(prev) <= 0:
		c.fail("tag %v after the Update, not greater than %v before it (condition I: a tag only increases)", t, prev)
	default:
		f.tag = slices.Clone(t)
		f.round = t[len(t)-1]
	}
}

// lowestTag returns the lowest tag of the running processes whose machine
// is a Tagger, or nil if there is none.
func (ex *executor) lowestTag() Tag {
	var low Tag
	for i := range ex.procs {
		p := &ex.procs[i]
		if len(p.stack) != 1 || p.wait != nil || p.stack[0].tagger == nil {
			continue
		}
		if t := p.stack[0].tag; low == nil || t.Compare(low) < 0 {
			low = t
		}
	}
	return low
}

// errTaggerSystem is returned by NewSystem and Starter.Start for a Tagger.
func errTaggerSystem(p int, m Machine) error {
	return fmt.Errorf("compho: process %d: %T is a Tagger (its rounds are aligned by tag), which a System does not run; run it with Run", p, m)
}

// advanceTagged moves the Tagger top of process p on after its Update:
// its next round is the one its new tag names, which must be greater
// than the tag it ran at.
func (ex *executor) advanceTagged(p *proc, top *frame) error {
	c := &p.ctx
	top.ranPhase, top.ranRound = top.phase, top.round
	if c.call != nil {
		c.fail("Call from a Tagger; machines aligned by tag do not call machines")
		c.err.Func = "Update"
		return c.err
	}
	prev := top.tag
	ex.settle(p)
	if len(p.stack) == 0 {
		return nil // halted
	}
	c.mode = modeUpdate
	ex.retag(p, top, prev)
	c.mode = modeNone
	if c.err != nil {
		return c.err
	}
	return nil
}

// Tag returns the tag of process p in this step if its machine is a
// Tagger (see Tagger), and nil otherwise. The result must not be
// modified.
func (s Step) Tag(p PID) Tag {
	if s.ex == nil || p < 0 || int(p) >= s.ex.n {
		return nil
	}
	pr := &s.ex.procs[p]
	if len(pr.stack) != 1 {
		return nil
	}
	return pr.stack[0].tag
}
