// Package settled checks when condition IV's jump is settled although the
// mailbox that held the later message is gone or other mailboxes of its
// type remain: a message kept in a variable that dies after the jump, a
// collection of messages of the very round jumped to, and data kept in
// the process state from an earlier round.
package settled

import "time"

type Step int

const (
	StEcho Step = iota
	StReady
)

//sync:msg Inst,StEcho
type Echo struct {
	Inst  int
	Value string
}

//sync:msg Inst,StReady
type Ready struct {
	Inst  int
	Value string
}

type Envelope struct {
	From int
	Msg  any
}

type Proc struct {
	n    int
	inst int
	step Step
	in   <-chan Envelope
	out  chan<- any
	done []int
	last string
}

func (p *Proc) quorum(echoes map[int]Echo) bool {
	count := map[string]int{}
	for _, e := range echoes {
		count[e.Value]++
		if 2*count[e.Value] > p.n {
			return true
		}
	}
	return false
}

// A Ready of this instance ends the echo step: the process moves to the
// ready step, which is the Ready's round. The variable that kept it dies
// before the next communication: the jump happened before.
func (p *Proc) DeadAfterJump() {
	p.step = StEcho
	//sync:tag p.inst,p.step
	for {
		p.step = StEcho
		p.out <- Echo{Inst: p.inst}
		echoes := make(map[int]Echo)
		var first *Ready
	wait:
		for len(echoes) < p.n {
			e := <-p.in
			switch m := e.Msg.(type) {
			case Echo:
				if m.Inst != p.inst {
					continue
				}
				echoes[e.From] = m
			case Ready:
				if m.Inst != p.inst {
					continue
				}
				first = &m
				break wait
			}
		}
		p.step = StReady
		if p.quorum(echoes) {
			p.out <- Ready{Inst: p.inst}
		}
		n := 0
		if first != nil {
			n++
		}
		for n < 3 {
			e := <-p.in
			if m, ok := e.Msg.(Ready); ok && m.Inst == p.inst {
				n++
			}
		}
		p.done = append(p.done, p.inst)
		p.inst++
	}
}

// The same without the jump: the Ready's round is never reached.
func (p *Proc) DeadNoJump() {
	p.step = StEcho
	//sync:tag p.inst,p.step
	for {
		p.step = StEcho
		p.out <- Echo{Inst: p.inst}
		echoes := make(map[int]Echo)
		var first *Ready
	wait:
		for len(echoes) < p.n {
			e := <-p.in
			switch m := e.Msg.(type) {
			case Echo:
				if m.Inst != p.inst {
					continue
				}
				echoes[e.From] = m
			case Ready:
				if m.Inst != p.inst {
					continue
				}
				first = &m
				break wait
			}
		}
		if p.quorum(echoes) {
			p.out <- Echo{Inst: p.inst, Value: "again"} // want `condition 4: this send is reached while the mailbox may hold a Ready of a later round \(stored at line 124\) and the tag has not jumped to it`
		}
		n := 0
		if first != nil {
			n++
		}
		for n < 3 {
			e := <-p.in // want `condition 4: this receive is reached while the mailbox may hold a Ready of a later round \(stored at line 124\) and the tag has not jumped to it`
			if m, ok := e.Msg.(Ready); ok && m.Inst == p.inst {
				n++
			}
		}
		p.done = append(p.done, p.inst) // want `condition 4: this update of p.done is reached while the mailbox may hold a Ready of a later round \(stored at line 124\) and the tag has not jumped to it`
		p.inst++
	}
}

// After the jump, the Ready kept is put with the others of the ready step,
// all of the very round jumped to.
func (p *Proc) SameRound() {
	p.step = StEcho
	//sync:tag p.inst,p.step
	for {
		p.step = StEcho
		p.out <- Echo{Inst: p.inst}
		echoes := make(map[int]Echo)
		var first *Ready
		from := -1
	wait:
		for len(echoes) < p.n {
			e := <-p.in
			switch m := e.Msg.(type) {
			case Echo:
				if m.Inst != p.inst {
					continue
				}
				echoes[e.From] = m
			case Ready:
				if m.Inst != p.inst {
					continue
				}
				first, from = &m, e.From
				break wait
			}
		}
		p.step = StReady
		readys := make(map[int]Ready)
		if p.quorum(echoes) {
			p.out <- Ready{Inst: p.inst}
		}
		if first != nil {
			readys[from] = *first
		}
		for len(readys) < 3 {
			e := <-p.in
			m, ok := e.Msg.(Ready)
			if !ok || m.Inst != p.inst {
				continue
			}
			readys[e.From] = m
			if len(readys) == 2 {
				p.out <- Ready{Inst: p.inst}
			}
		}
		p.done = append(p.done, p.inst)
		p.inst++
	}
}

// Net is a transport.
type Net interface {
	//sync:send
	Broadcast(m any)
	//sync:recv
	Recv(d time.Duration) (m any, ok bool)
}

type Phase int

const (
	P0 Phase = iota
	P1
	P2
)

//sync:msg View,Type
type Msg struct {
	Type    Phase
	View    int
	Justify string
}

type R struct {
	view  int
	phase Phase
	qc    string
	net   Net
}

func (r *R) await() (Msg, bool) {
	for {
		raw, ok := r.net.Recv(time.Second)
		if !ok {
			return Msg{}, false
		}
		m, isMsg := raw.(Msg)
		if !isMsg || m.View != r.view || m.Type != r.phase {
			continue
		}
		return m, true
	}
}

// The proposal of a later view is followed (the view jumps to it, or is
// it); what the process keeps of an earlier view's message (r.qc) does not
// hold the proposal.
func (r *R) KeptEarlier() {
	r.phase = P0
	//sync:tag r.view,r.phase
	for {
		r.phase = P1
		var prop *Msg
		for prop == nil {
			raw, ok := r.net.Recv(time.Second)
			if !ok {
				break
			}
			m, isMsg := raw.(Msg)
			if !isMsg || m.Type != P1 || m.View < r.view {
				continue
			}
			prop = &m
		}
		if prop == nil {
			r.view++
			continue
		}
		if prop.View > r.view {
			r.view = prop.View
		}
		r.net.Broadcast(Msg{Type: P1, View: r.view})
		r.phase = P2
		pc, ok := r.await()
		if !ok {
			r.view++
			continue
		}
		r.qc = pc.Justify
		r.view++
	}
}
