// Package simpleloop is the simplest style of a round-based loop, in three
// variants that differ only in where the tag lives: a struct made by a
// composite literal, a struct declared and then set, and locals. All
// three are communication-closed: at the loop head step is Estimate on
// every path (the entry sets it, and so does the end of each iteration),
// every message carries the current tag, only messages of the current
// round are stored, and nothing from a later round is stored.
package simpleloop

import "time"

type Step int

const (
	Estimate Step = iota
	Propose
)

//sync:msg R,Step
type Msg struct {
	From int
	R    int
	Step Step
}

type Transport interface {
	//sync:send
	Send(to int, m Msg)
	//sync:recv
	Recv(d time.Duration) (Msg, bool)
}

type process struct {
	r    int
	step Step
}

func CompositeLiteral(net Transport, id, n int, wait time.Duration) {
	p := &process{r: 1, step: Estimate}
	//sync:tag p.r,p.step
	for p.r < 10 {
		net.Send(0, Msg{From: id, R: p.r, Step: Estimate})
		var ests []Msg
		for len(ests) <= n/2 {
			m, ok := net.Recv(wait)
			if !ok {
				break
			}
			if m.R == p.r && m.Step == Estimate {
				ests = append(ests, m)
			}
		}
		p.step = Propose
		net.Send(0, Msg{From: id, R: p.r, Step: Propose})
		p.r++
		p.step = Estimate
	}
}

func DeclaredThenSet(net Transport, id, n int, wait time.Duration) {
	var p process
	p.r, p.step = 1, Estimate
	//sync:tag p.r,p.step
	for p.r < 10 {
		net.Send(0, Msg{From: id, R: p.r, Step: Estimate})
		var ests []Msg
		for len(ests) <= n/2 {
			m, ok := net.Recv(wait)
			if !ok {
				break
			}
			if m.R == p.r && m.Step == Estimate {
				ests = append(ests, m)
			}
		}
		p.step = Propose
		net.Send(0, Msg{From: id, R: p.r, Step: Propose})
		p.r++
		p.step = Estimate
	}
}

func Locals(net Transport, id, n int, wait time.Duration) {
	r, step := 1, Estimate
	//sync:tag r,step
	for r < 10 {
		net.Send(0, Msg{From: id, R: r, Step: Estimate})
		var ests []Msg
		for len(ests) <= n/2 {
			m, ok := net.Recv(wait)
			if !ok {
				break
			}
			if m.R == r && m.Step == Estimate {
				ests = append(ests, m)
			}
		}
		step = Propose
		net.Send(0, Msg{From: id, R: r, Step: step})
		r++
		step = Estimate
	}
}
