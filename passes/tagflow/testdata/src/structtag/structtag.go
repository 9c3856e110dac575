// Package structtag keeps the tag in a struct (r.pos.View, r.pos.Step) and
// compares whole structs: m.Pos == r.pos says each field is equal.
package structtag

type Step int

const Prepare Step = 1

type Pos struct {
	View int
	Step Step
}

func (a Pos) Before(b Pos) bool {
	return a.View < b.View || (a.View == b.View && a.Step < b.Step)
}

//sync:msg Pos.View,Pos.Step
type Msg struct{ Pos Pos }

type Replica struct {
	pos  Pos
	n    int
	in   chan Msg
	prev []Msg
}

// Only messages of the current position are kept.
func (r *Replica) Equal() {
	//sync:tag r.pos.View,r.pos.Step
	for {
		r.pos.View++
		r.pos.Step = Prepare
		var got []Msg
		for range 3 {
			m := <-r.in
			if m.Pos != r.pos {
				continue
			}
			got = append(got, m)
		}
		r.n = len(got)
	}
}

// Messages of other positions are kept.
func (r *Replica) NotEqual() {
	//sync:tag r.pos.View,r.pos.Step
	for {
		r.pos.View++
		r.pos.Step = Prepare
		var got []Msg
		for range 3 {
			m := <-r.in
			if m.Pos == r.pos {
				continue
			}
			got = append(got, m) // want `condition 3: Msg stored without checking that its tag is >= \(r.pos.View,r.pos.Step\)`
		}
		r.n = len(got)
	}
}

// The latest position is computed with a method in a local, then set:
// ccvet does not recognise the maximum, and says it cannot tell (it is no
// update of an algorithm variable either).
func (r *Replica) Latest() {
	//sync:tag r.pos.View,r.pos.Step
	for {
		r.pos.View++ // want `cannot prove 1: cannot tell that r.pos.View is not lower than at receive`
		r.pos.Step = Prepare
		var later []Msg
		for range 3 {
			m := <-r.in
			if m.Pos.Before(r.pos) {
				continue
			}
			later = append(later, m)
		}
		hi := r.pos
		for _, m := range later {
			if hi.Before(m.Pos) {
				hi = m.Pos
			}
		}
		r.pos = hi
		r.n = len(later) // want `cannot prove 4: cannot tell that the tag jumped to the latest round of the mailbox's Msgs \(stored at line 78\) before update of r.n: the loop that sets it at line 86 is not recognised as computing their maximum`
	}
}
