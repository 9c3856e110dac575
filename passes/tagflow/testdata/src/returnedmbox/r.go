// Package returnedmbox checks condition IV where mailboxes returned by a
// helper in earlier rounds are dead: once the caller no longer holds them,
// they do not stand as other mailboxes of the message type (the Ack
// step ranges over the result of gather itself), so the jump to
// the one message kept settles the pending jump.
package returnedmbox

type Step int

const (
	Estimate Step = iota
	Propose
	Ack
	Decide
)

//sync:msg Round,Step
type Msg struct {
	Round int
	Step  Step
	Value int
}

type Proc struct {
	round    int
	step     Step
	est      int
	decided  bool
	decision int
	coord    bool
	in       chan Msg
	out      chan Msg
}

// gather returns the messages of the current round among the next k.
func (p *Proc) gather(k int) []Msg {
	var got []Msg
	for range k {
		m := <-p.in
		if m.Round != p.round || m.Step != p.step {
			continue
		}
		got = append(got, m)
	}
	return got
}

// adopt moves to round r if it is a later one.
func (p *Proc) adopt(r int) {
	if r > p.round {
		p.round = r
	}
}

// The decision of a later round is adopted after jumping to its round.
func (p *Proc) Run() {
	//sync:tag p.round,p.step
	for !p.decided {
		p.round++
		p.step = Estimate
		p.out <- Msg{Round: p.round, Step: Estimate, Value: p.est}
		var ests []Msg
		if p.coord {
			ests = p.gather(3)
		}
		p.step = Propose
		if len(ests) > 0 {
			p.out <- Msg{Round: p.round, Step: Propose, Value: ests[0].Value}
		}
		props := p.gather(1)
		if len(props) == 1 {
			p.est = props[0].Value
		}
		p.step = Ack
		p.out <- Msg{Round: p.round, Step: Ack, Value: p.est}
		yes := 0
		for _, a := range p.gather(3) {
			if a.Value == p.est {
				yes++
			}
		}
		p.step = Decide
		if yes > 2 {
			p.out <- Msg{Round: p.round, Step: Decide, Value: p.est}
		}
		var dec Msg
		got := false
		for !got {
			m := <-p.in
			if m.Step != Decide || m.Round < p.round {
				continue
			}
			dec = m
			got = true
		}
		p.adopt(dec.Round)
		p.decided = true
		p.decision = dec.Value
	}
}

// The same without the jump: the decision of a later round is adopted in
// the current one.
func (p *Proc) NoJump() {
	//sync:tag p.round,p.step
	for !p.decided {
		p.round++
		p.step = Estimate
		p.out <- Msg{Round: p.round, Step: Estimate, Value: p.est}
		var ests []Msg
		if p.coord {
			ests = p.gather(3)
		}
		p.step = Propose
		if len(ests) > 0 {
			p.out <- Msg{Round: p.round, Step: Propose, Value: ests[0].Value}
		}
		props := p.gather(1)
		if len(props) == 1 {
			p.est = props[0].Value
		}
		p.step = Ack
		p.out <- Msg{Round: p.round, Step: Ack, Value: p.est}
		yes := 0
		for _, a := range p.gather(3) {
			if a.Value == p.est {
				yes++
			}
		}
		p.step = Decide
		if yes > 2 {
			p.out <- Msg{Round: p.round, Step: Decide, Value: p.est}
		}
		var dec Msg
		got := false
		for !got {
			m := <-p.in
			if m.Step != Decide || m.Round < p.round {
				continue
			}
			dec = m
			got = true
		}
		p.decided = true // want `condition 4: this update of p.decided is reached while the mailbox may hold a Msg of a later round \(stored at line 141\) and the tag has not jumped to it`
		p.decision = dec.Value
	}
}
