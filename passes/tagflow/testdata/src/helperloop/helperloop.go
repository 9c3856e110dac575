// Package helperloop sends and receives in helpers that loop: what the
// engine knows of a helper's loop variables is renamed at each iteration
// (a helper's values have dots in their names, which once hid them).
package helperloop

import "slices"

type Step int

const (
	Prepare Step = iota
	Answer
)

//sync:msg Phase,Step
type Msg struct {
	Phase int
	Step  Step
}

//sync:msg Term,Answer
type Resp struct{ Term, From int }

type Proc struct {
	phase int
	step  Step
	n     int
	state int
	out   chan Msg
	in    chan Resp
}

func (p *Proc) broadcast(m Msg) {
	for range 3 {
		p.out <- m // want `condition 2: Msg sent with Step from before p.step was set at line 55`
	}
}

// A round constant 0 sent in a loop of the helper: the message's step
// stays 0 from one send to the next.
func (p *Proc) LoopSend() {
	//sync:tag p.phase,p.step
	for {
		p.phase++
		p.step = Prepare
		p.broadcast(Msg{Phase: p.phase, Step: Prepare})
	}
}

// The same with the wrong step (reported in the helper).
func (p *Proc) LoopSendWrong() {
	//sync:tag p.phase,p.step
	for {
		p.phase++
		p.step = Answer
		p.broadcast(Msg{Phase: p.phase, Step: Prepare})
	}
}

type Node struct {
	term  int
	step  Step
	state int
	in    chan Resp
}

// The latest answer is picked by slices.MaxFunc: a message of the mailbox.
func (n *Node) MaxFunc() {
	//sync:tag n.term,n.step
	for {
		n.term++
		n.step = Answer
		var rs []Resp
		for range 3 {
			m := <-n.in
			if m.Term >= n.term {
				rs = append(rs, m)
			}
		}
		if len(rs) > 0 {
			top := slices.MaxFunc(rs, func(a, b Resp) int { return a.Term - b.Term })
			n.term = max(n.term, top.Term)
		}
		n.state++
	}
}

// Without the jump.
func (n *Node) MaxFuncNoJump() {
	//sync:tag n.term,n.step
	for {
		n.term++
		n.step = Answer
		var rs []Resp
		for range 3 {
			m := <-n.in
			if m.Term >= n.term {
				rs = append(rs, m)
			}
		}
		if len(rs) > 0 {
			_ = slices.MaxFunc(rs, func(a, b Resp) int { return a.Term - b.Term })
		}
		n.state++ // want `condition 4: this update of n.state is reached while the mailbox may hold a Resp of a later round`
	}
}
