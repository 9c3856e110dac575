// Package maplen checks what the engine knows of the length of a map: a
// store makes it non-empty, delete and code that is not followed may
// empty it again, and a range over it yields an element only if it is not
// empty.
package maplen

import "maps"

type Step int

const (
	A Step = iota
	B
)

//sync:msg Round,Step
type Msg struct {
	Round int
	Step  Step
}

type Proc struct {
	round int
	step  Step
	in    chan Msg
	out   chan Msg
}

// A deleted vote may leave the map empty: the path that goes back to step
// A is a real one.
func (p *Proc) Delete() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = A
		p.out <- Msg{Round: p.round, Step: p.step}
		votes := make(map[int]Msg)
		m := <-p.in
		if m.Round != p.round || m.Step != A {
			continue
		}
		votes[0] = m
		delete(votes, 0)
		p.step = B
		p.out <- Msg{Round: p.round, Step: p.step}
		if len(votes) == 0 {
			p.step = A // want `condition 1: p.step is set lower than it was at send \(line 45\), while p.round did not increase`
			p.out <- Msg{Round: p.round, Step: p.step}
		}
	}
}

// The same, the map emptied by code of another package.
func (p *Proc) Opaque() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = A
		p.out <- Msg{Round: p.round, Step: p.step}
		votes := make(map[int]Msg)
		m := <-p.in
		if m.Round != p.round || m.Step != A {
			continue
		}
		votes[0] = m
		maps.DeleteFunc(votes, func(int, Msg) bool { return true })
		p.step = B
		p.out <- Msg{Round: p.round, Step: p.step}
		if len(votes) == 0 {
			p.step = A // want `condition 1: p.step is set lower than it was at send \(line 68\), while p.round did not increase`
			p.out <- Msg{Round: p.round, Step: p.step}
		}
	}
}

// Correct: the map holds the vote, so the path back to step A is not one.
func (p *Proc) Kept() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = A
		p.out <- Msg{Round: p.round, Step: p.step}
		votes := make(map[int]Msg)
		m := <-p.in
		if m.Round != p.round || m.Step != A {
			continue
		}
		votes[0] = m
		p.step = B
		p.out <- Msg{Round: p.round, Step: p.step}
		if len(votes) == 0 {
			p.step = A
			p.out <- Msg{Round: p.round, Step: p.step}
		}
	}
}

// Correct: a range over the votes that yields nothing finds the map empty,
// which it is not.
func (p *Proc) Range() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = A
		p.out <- Msg{Round: p.round, Step: p.step}
		votes := make(map[int]Msg)
		m := <-p.in
		if m.Round != p.round || m.Step != A {
			continue
		}
		votes[0] = m
		p.step = B
		p.out <- Msg{Round: p.round, Step: p.step}
		n := 0
		for range votes {
			n++
		}
		if n == 0 {
			p.step = A
			p.out <- Msg{Round: p.round, Step: p.step}
		}
	}
}
