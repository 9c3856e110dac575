package compho

import (
	"slices"
	"strconv"
	"strings"
)

// A Tagger is a Machine whose phases are numbered by the synchronization
// tag of the asynchronous code it was generated from, rather than by
// counting passes over its round table: a machine whose process can jump
// to a later phase (condition IV of the paper: a process that receives a
// message of a later tag moves to that tag), or whose phase increases
// differently on different paths, so that the processes of a run can be
// in different phases at the same pass.
//
// Run aligns the Taggers of a run by tag (unless Config.ByIteration is
// set): the position of a process is its tag, the phase components of
// Tag followed by the index of its round in the round table, and in each
// step only the processes at the lowest position run; the others are
// ahead (they jumped over the rounds in between) and are idle: they send
// nothing and their Update is not called, which is the reduction of
// Theorem 1 (a process has no action in a layer it skips, so the layer is
// one in which it sends nothing, hears nothing and does not change its
// state; calling its Update with an empty mailbox would run code the
// asynchronous process never runs, such as a timeout's round change).
// Positions at which no process is are not executed.
//
// The round index moves on as for other machines (one round per step,
// back to 0 after the last), so after each Update of a Tagger that has not
// halted, the phase returned by Tag must have increased when the index
// went back to 0 (condition I); otherwise Run returns a *ProtocolError.
// Taggers are root machines: a Tagger may neither call a machine nor be
// called. A System runs them aligned by iteration, as other machines: an
// exploration may abstract the phase counters, which a tag order would
// not survive.
type Tagger interface {
	Machine
	// Tag returns the phase of the process's state: the phase components
	// of its tag, in lexicographic order. It must not be empty.
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

// retag reads the phase of the tagged frame f and sets its tag: the
// phase, then the round index. prev, if not nil, is the tag before the
// frame's Update: the new one must be greater.
func (ex *executor) retag(p *proc, f *frame, prev Tag) {
	ph := f.tagger.Tag()
	c := &p.ctx
	t := append(slices.Clone(ph), f.round)
	switch {
	case len(ph) == 0:
		c.fail("empty tag (Tag returns the phase components of the tag)")
	case prev != nil && t.Compare(prev) <= 0:
		c.fail("tag %v after the Update, not greater than %v before it (condition I: a tag only increases; the phase must increase when the round table starts again)", t, prev)
	default:
		f.tag = t
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

// afterUpdate re-reads the tag of process p's Tagger top frame, if it
// has one, after its Update and the advance of its round index.
func (ex *executor) afterUpdate(p *proc, top *frame, prev Tag) error {
	if top.tagger == nil || len(p.stack) == 0 {
		return nil // not a Tagger, or halted
	}
	c := &p.ctx
	c.mode = modeUpdate
	ex.retag(p, top, prev)
	c.mode = modeNone
	if c.err != nil {
		return c.err
	}
	return nil
}

// Tag returns the tag of process p in this step (its phase, then its
// round index) if its machine is a Tagger aligned by tag (see Tagger),
// and nil otherwise. For an adversary, it is the tag of the step's round;
// for an observer, the tag the process has after the step. The result must not be
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
