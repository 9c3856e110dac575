// Package basic is a small Paxos-like loop: a correct version and one
// mutant per condition, each in its own method.
package basic

type Step int

const (
	Prepare Step = iota
	Ack
)

// Msg is a protocol message.
//
//sync:msg Ballot,Step
type Msg struct {
	Ballot int
	Step   Step
}

type P struct {
	ballot int
	step   Step
	est    int
	in     chan Msg
	out    chan Msg
}

// correct accepts a Prepare of this ballot or a later one, jumps to it and
// acknowledges it.
func (p *P) correct() {
	//sync:tag p.ballot,p.step
	for {
		p.ballot++
		p.step = Prepare
		var mb []Msg
		for len(mb) == 0 {
			m := <-p.in
			if m.Step != p.step || m.Ballot < p.ballot {
				continue
			}
			mb = append(mb, m)
		}
		p.ballot = mb[0].Ballot
		p.step = Ack
		p.out <- Msg{Ballot: p.ballot, Step: p.step}
	}
}

func (p *P) resetsRound() {
	//sync:tag p.ballot,p.step
	for {
		p.ballot++
		p.step = Ack
		p.out <- Msg{Ballot: p.ballot, Step: p.step}
		p.step = Prepare // want `condition 1: p.step is set lower than it was at send`
		p.out <- Msg{Ballot: p.ballot, Step: p.step}
	}
}

func (p *P) staleSend() {
	//sync:tag p.ballot,p.step
	for {
		p.ballot++
		p.step = Prepare
		ack := Msg{Ballot: p.ballot, Step: Ack}
		var mb []Msg
		for len(mb) == 0 {
			m := <-p.in
			if m.Step != p.step || m.Ballot < p.ballot {
				continue
			}
			mb = append(mb, m)
		}
		p.ballot = mb[0].Ballot
		p.step = Ack
		p.out <- ack // want `condition 2: Msg sent with Ballot from before p.ballot was set at line 74`
	}
}

func (p *P) roundOnly() {
	//sync:tag p.ballot,p.step
	for {
		p.ballot++
		p.step = Prepare
		var mb []Msg
		for len(mb) == 0 {
			m := <-p.in
			if m.Step != p.step {
				continue
			}
			mb = append(mb, m) // want `condition 3: Msg stored without checking that its tag is >=`
		}
		p.step = Ack
		p.out <- Msg{Ballot: p.ballot, Step: p.step}
	}
}

func (p *P) writesInReception() {
	//sync:tag p.ballot,p.step
	for {
		p.ballot++
		p.step = Prepare
		n := 0
		for n == 0 {
			m := <-p.in
			p.est = m.Ballot // want `condition 3: p.est is written inside the reception loop`
			n++              // want `condition 3: Msg stored without checking that its tag is >=`
		}
		p.step = Ack
		p.out <- Msg{Ballot: p.ballot, Step: p.step}
	}
}

func (p *P) noJump() {
	//sync:tag p.ballot,p.step
	for {
		p.ballot++
		p.step = Prepare
		var mb []Msg
		for len(mb) == 0 {
			m := <-p.in
			if m.Step != p.step || m.Ballot < p.ballot {
				continue
			}
			mb = append(mb, m)
		}
		p.step = Ack
		p.out <- Msg{Ballot: p.ballot, Step: p.step} // want `condition 4: this send is reached while the mailbox may hold a Msg of a later round`
	}
}
