// Package ambiguous holds loops whose communication structure make-HO
// cannot infer: two tables, two channels, or two entries of a table, of
// the same messages.
package ambiguous

import "time"

type Step int

const A Step = 0

//sync:msg Round,Step
type Msg struct {
	Round int
	Step  Step
	X     int
}

type Proc struct {
	in     <-chan Msg
	backup <-chan Msg
	peers  []chan<- Msg
	round  int
	step   Step
	x      int
}

// TwoTables sends on two tables of the same messages: which one holds
// the inbox of every process?
func (p *Proc) TwoTables(replicas []chan<- Msg, rounds int) {
	timer := time.NewTimer(time.Second)
	defer timer.Stop()
	//sync:tag p.round,p.step
	for p.round < rounds {
		p.round++
		p.step = A
		for q := range p.peers {
			if q%2 == 0 {
				p.peers[q] <- Msg{Round: p.round, Step: p.step, X: p.x}
			} else {
				replicas[q] <- Msg{Round: p.round, Step: p.step, X: p.x}
			}
		}
		var got []Msg
		timer.Reset(time.Second)
	wait:
		for len(got) < 2 {
			select {
			case m := <-p.in:
				if m.Round != p.round || m.Step != p.step {
					continue
				}
				got = append(got, m)
			case <-timer.C:
				break wait
			}
		}
		if len(got) > 0 {
			p.x = got[0].X
		}
	}
}

// TwoInboxes receives from two channels of the same messages: which one
// is the process's inbox?
func (p *Proc) TwoInboxes(rounds int) {
	timer := time.NewTimer(time.Second)
	defer timer.Stop()
	//sync:tag p.round,p.step
	for p.round < rounds {
		p.round++
		p.step = A
		for _, ch := range p.peers {
			ch <- Msg{Round: p.round, Step: p.step, X: p.x}
		}
		var got []Msg
		timer.Reset(time.Second)
	wait:
		for len(got) < 2 {
			select {
			case m := <-p.in:
				if m.Round != p.round || m.Step != p.step {
					continue
				}
				got = append(got, m)
			case m := <-p.backup:
				if m.Round != p.round || m.Step != p.step {
					continue
				}
				got = append(got, m)
			case <-timer.C:
				break wait
			}
		}
		if len(got) > 0 {
			p.x = got[0].X
		}
	}
}

// TwoEntries receives from two entries of the table, at two parameters
// that could each be the process's identity.
func (p *Proc) TwoEntries(chans []chan Msg, me, other int, rounds int) {
	timer := time.NewTimer(time.Second)
	defer timer.Stop()
	//sync:tag p.round,p.step
	for p.round < rounds {
		p.round++
		p.step = A
		for _, ch := range chans {
			ch <- Msg{Round: p.round, Step: p.step, X: p.x}
		}
		var got []Msg
		timer.Reset(time.Second)
	wait:
		for len(got) < 2 {
			select {
			case m := <-chans[me]:
				if m.Round != p.round || m.Step != p.step {
					continue
				}
				got = append(got, m)
			case m := <-chans[other]:
				if m.Round != p.round || m.Step != p.step {
					continue
				}
				got = append(got, m)
			case <-timer.C:
				break wait
			}
		}
		if len(got) > 0 {
			p.x = got[0].X
		}
	}
}
