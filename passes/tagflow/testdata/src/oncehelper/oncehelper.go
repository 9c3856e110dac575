// Package oncehelper checks receptions through a helper that receives
// once per call (recv(deadline) (Msg, bool) around a select): the loop
// calling it is the reception loop.
package oncehelper

import "time"

type Kind int

const (
	KindInit Kind = iota
	KindEcho
)

//sync:msg Inst,Kind
type Msg struct {
	Inst int
	Kind Kind
	Val  string
}

type Proc struct {
	inst      int
	kind      Kind
	count     int
	delivered []string
	in        chan Msg
	out       chan Msg
}

// recv returns the next message before the deadline.
func (p *Proc) recv(deadline <-chan time.Time) (Msg, bool) {
	select {
	case m := <-p.in:
		return m, true
	case <-deadline:
		return Msg{}, false
	}
}

// The reception loop writes algorithm variables.
func (p *Proc) Writes() {
	//sync:tag p.inst,p.kind
	for {
		p.inst++
		p.kind = KindEcho
		p.out <- Msg{Inst: p.inst, Kind: KindEcho}
		deadline := time.After(time.Second)
		for {
			m, ok := p.recv(deadline)
			if !ok {
				break
			}
			if m.Inst != p.inst || m.Kind != KindEcho {
				continue
			}
			p.delivered = append(p.delivered, m.Val) // want `condition 3: p.delivered is written inside the reception loop, which may write only the mailbox`
			p.count++                                // want `condition 3: p.count is written inside the reception loop, which may write only the mailbox`
		}
	}
}

// Later instances are kept, then jumped to: the receives of the reception
// loop are not communication points after it.
func (p *Proc) JumpsToMax() {
	//sync:tag p.inst,p.kind
	for {
		p.inst++
		p.kind = KindEcho
		p.out <- Msg{Inst: p.inst, Kind: KindEcho}
		var got []Msg
		deadline := time.After(time.Second)
		for len(got) < 3 {
			m, ok := p.recv(deadline)
			if !ok {
				break
			}
			if m.Inst < p.inst || m.Kind != KindEcho {
				continue
			}
			got = append(got, m)
		}
		for _, m := range got {
			if m.Inst > p.inst {
				p.inst = m.Inst
			}
		}
		p.out <- Msg{Inst: p.inst, Kind: KindEcho}
	}
}

// One INIT, maybe of a later instance, kept through a pointer; the jump is
// taken only when there is one and it is later.
func (p *Proc) NilOrLater() {
	//sync:tag p.inst,p.kind
	for {
		p.inst++
		p.kind = KindInit
		var init *Msg
		deadline := time.After(time.Second)
		for init == nil {
			m, ok := p.recv(deadline)
			if !ok {
				break
			}
			if m.Inst < p.inst || m.Kind != KindInit {
				continue
			}
			init = &m
		}
		if init != nil && init.Inst > p.inst {
			p.inst = init.Inst
		}
		p.kind = KindEcho
		if init != nil {
			p.out <- Msg{Inst: p.inst, Kind: KindEcho, Val: init.Val}
		}
	}
}

// The highest instance heard of is remembered, and the round abandoned
// because of it, without jumping there.
func (p *Proc) AbandonsForHigher() {
	//sync:tag p.inst,p.kind
	for {
		p.inst++
		p.kind = KindEcho
		p.out <- Msg{Inst: p.inst, Kind: KindEcho}
		var got []Msg
		hi := p.inst
		deadline := time.After(time.Second)
		for {
			m, ok := p.recv(deadline)
			if !ok {
				break
			}
			if m.Inst > p.inst {
				hi = max(hi, m.Inst)
				continue
			}
			if m.Inst != p.inst || m.Kind != KindEcho {
				continue
			}
			got = append(got, m)
		}
		if hi > p.inst { // want `condition 4: this test of the mailbox \(the path it chooses ends the iteration without the jump\) is reached while the mailbox may hold a Msg of a later round \(stored at line 138\)`
			continue
		}
		for _, m := range got {
			p.delivered = append(p.delivered, m.Val)
		}
	}
}
