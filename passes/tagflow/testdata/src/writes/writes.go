// Package writes checks that the ways Go can write a synchronization
// variable are all seen as writes.
package writes

import "sync"

//sync:msg Round
type M struct{ Round uint64 }

type S struct{ round uint64 }

type P struct {
	st S
	in chan M
}

// Storing the whole struct that holds the tag assigns the tag.
func (p *P) Whole(init S) {
	//sync:tag p.st.round
	for {
		<-p.in
		p.st = init // want `cannot prove 1: cannot tell that p\.st\.round is not lower than at receive \(line 21\)`
	}
}

func (p *P) reset(s S) { p.st = s } // want `cannot prove 1: cannot tell that p\.st\.round is not lower than at receive \(line 31\)`

func (p *P) Setter(init S) {
	//sync:tag p.st.round
	for {
		<-p.in
		p.reset(init)
	}
}

// Storing back a copy of the struct keeps the tag; a new struct with a
// larger round increases it.
func (p *P) Copy() {
	//sync:tag p.st.round
	for {
		<-p.in
		saved := p.st
		p.st = saved
		p.st = S{round: p.st.round + 1}
	}
}

// The copy taken before and stored back after an increase undoes it, but
// only between two receives of the same round: no communication point sees
// the lower tag (the back edge is not one), so it is no violation; ccvet
// cannot tell that the increase reaches the same round again.
func (p *P) Restore() {
	//sync:tag p.st.round
	for {
		saved := p.st
		p.st.round++ // want `cannot prove 1: cannot tell that p\.st\.round is not lower than at receive \(line 57\)`
		<-p.in
		p.st = saved
	}
}

// Functions as values: a method value, a method expression, a function
// kept in a field, a function literal handed to another package.

type H struct {
	e    uint64
	ch   chan int
	f    func()
	once sync.Once
}

// set sets h.e from a number: it holds more than constants (see
// constrange), so reset may lower it.
func (h *H) set(v uint64) { h.e = v }

func (h *H) reset() { h.e = 0 } // want `cannot prove 1: cannot tell that h\.e is not lower than at receive \(line 81\)` `cannot prove 1: cannot tell that h\.e is not lower than at receive \(line 90\)`

func (h *H) MethodValue() {
	//sync:tag h.e
	for {
		<-h.ch
		f := h.reset
		f()
	}
}

func (h *H) MethodExpr() {
	//sync:tag h.e
	for {
		<-h.ch
		g := (*H).reset
		g(h)
	}
}

func (h *H) FieldFunc() {
	h.f = h.reset
	//sync:tag h.e
	for {
		<-h.ch
		h.f() // want `cannot prove 1: the call to a function value may change h\.e and ccvet cannot follow it`
	}
}

func (h *H) init() { h.once.Do(func() { h.e = 0 }) } // want `cannot prove 1: the call to a function literal passed to Do may change h\.e and ccvet cannot follow it`

func (h *H) Once() {
	//sync:tag h.e
	for {
		<-h.ch
		h.init()
	}
}

// A function literal only ever started as a goroutine is not a value
// that a call of a function value could reach.

type K struct {
	e  uint64
	ch chan int
}

func (k *K) start() { go func(x int) { k.e = uint64(x) }(0) }

func (k *K) CallValue(f func(int)) {
	//sync:tag k.e
	for {
		x := <-k.ch
		f(x)
	}
}
