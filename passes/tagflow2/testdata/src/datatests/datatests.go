// Package datatests is about tests that say nothing of a message's tag:
// a count of the mailbox against a quorum, the ok of a type assertion or
// of a range step, a test of a message's data, a message against nil. None excludes a tag the
// network may deliver, so a filter that lets an earlier round's message
// through is a violation, not "cannot prove". A first test of a received
// component against the tag minus one is read for what it leaves: an
// earlier round (the round before).
package datatests

type Step int

const (
	Estimate Step = iota
	Propose
)

//sync:msg R,Step
type Msg struct {
	R       int
	Step    Step
	From    int
	Payload string
}

// Ack is another message type, received as an interface.
//
//sync:msg R,Step
type Ack struct {
	R    int
	Step Step
	From int
}

type Transport interface {
	//sync:send
	Send(to int, m Msg)
	//sync:send
	SendAck(to int, a Ack)
	//sync:recv
	Recv() (Msg, bool)
	//sync:recv
	RecvAny() (any, bool)
	//sync:recv
	RecvPtr() *Msg
}

type process struct {
	r    int
	step Step
	kept []Msg
}

// Quorum counts the messages of its round against a quorum it is given,
// keeping messages of every round of the current step.
func Quorum(net Transport, quorum int) {
	p := &process{r: 1, step: Estimate}
	//sync:tag p.r,p.step
	for p.r < 10 {
		net.Send(0, Msg{R: p.r, Step: Estimate}) // want `condition 4: the process sends while a Msg of a later round can be kept, without a jump to its round first`
		var ests []Msg
		for len(ests) < quorum {
			m, ok := net.Recv()
			if !ok {
				break
			}
			if m.Step != Estimate {
				continue
			}
			ests = append(ests, m) // want `condition 3: Msg stored without checking that its tag is >= \(p.r,p.step\)`
		}
		p.kept = ests // want `condition 3: Msg stored without checking that its tag is >= \(p.r,p.step\)`
		p.r++
	}
}

// QuorumCurrent is Quorum with the round tested: clean.
func QuorumCurrent(net Transport, quorum int) {
	p := &process{r: 1, step: Estimate}
	//sync:tag p.r,p.step
	for p.r < 10 {
		net.Send(0, Msg{R: p.r, Step: Estimate})
		var ests []Msg
		for len(ests) < quorum {
			m, ok := net.Recv()
			if !ok {
				break
			}
			if m.R != p.r || m.Step != Estimate {
				continue
			}
			ests = append(ests, m)
		}
		p.kept = ests
		p.r++
	}
}

// Lag tolerates one round of lag: the round before is stored too.
func Lag(net Transport) {
	p := &process{r: 1, step: Estimate}
	//sync:tag p.r,p.step
	for p.r < 10 {
		net.Send(0, Msg{R: p.r, Step: Estimate})
		var ests []Msg
		for len(ests) < 3 {
			m, ok := net.Recv()
			if !ok {
				break
			}
			if m.R < p.r-1 || m.R > p.r || m.Step != Estimate {
				continue
			}
			ests = append(ests, m) // want `condition 3: Msg stored without checking that its tag is >= \(p.r,p.step\)`
		}
		p.kept = ests // want `condition 3: Msg stored without checking that its tag is >= \(p.r,p.step\)`
		p.r++
	}
}

// Asserted receives an interface and keeps the Acks of any round.
func Asserted(net Transport) {
	p := &process{r: 1, step: Estimate}
	//sync:tag p.r,p.step
	for p.r < 10 {
		net.SendAck(0, Ack{R: p.r, Step: Estimate})
		var acks []Ack
		for len(acks) < 3 {
			x, ok := net.RecvAny()
			if !ok {
				break
			}
			a, isAck := x.(Ack)
			if !isAck || a.Step != Estimate {
				continue
			}
			acks = append(acks, a) // want `condition 3: Ack stored without checking that its tag is >= \(p.r,p.step\)`
		}
		p.r++
	}
}

// DataFilter drops messages without payload only.
func DataFilter(net Transport) {
	p := &process{r: 1, step: Estimate}
	//sync:tag p.r,p.step
	for p.r < 10 {
		net.Send(0, Msg{R: p.r, Step: Estimate}) // want `condition 4: the process sends while a Msg of a later round can be kept, without a jump to its round first`
		var ests []Msg
		for len(ests) < 3 {
			m, ok := net.Recv()
			if !ok {
				break
			}
			if m.Payload == "" || m.Step != Estimate {
				continue
			}
			ests = append(ests, m) // want `condition 3: Msg stored without checking that its tag is >= \(p.r,p.step\)`
		}
		p.kept = ests // want `condition 3: Msg stored without checking that its tag is >= \(p.r,p.step\)`
		p.r++
	}
}

// NilChecked receives pointers and drops nil ones only.
func NilChecked(net Transport) {
	p := &process{r: 1, step: Estimate}
	//sync:tag p.r,p.step
	for p.r < 10 {
		net.Send(0, Msg{R: p.r, Step: Estimate})
		var ests []*Msg
		for len(ests) < 3 {
			m := net.RecvPtr()
			if m == nil || m.Step != Estimate || m.R > p.r {
				continue
			}
			ests = append(ests, m) // want `condition 3: Msg stored without checking that its tag is >= \(p.r,p.step\)`
		}
		p.r++
	}
}

// StepWithoutJump keeps messages of later rounds and moves on to its
// next step without moving to their round: they stay of a later round
// whatever step it is in.
func StepWithoutJump(net Transport) {
	p := &process{r: 1, step: Estimate}
	//sync:tag p.r,p.step
	for p.r < 10 {
		p.step = Estimate
		net.Send(0, Msg{R: p.r, Step: Estimate})
		var ests []Msg
		for len(ests) < 3 {
			m, ok := net.Recv()
			if !ok {
				break
			}
			if m.R < p.r || m.Step != Estimate {
				continue
			}
			ests = append(ests, m)
		}
		p.kept = ests
		p.step = Propose
		net.Send(0, Msg{R: p.r, Step: Propose}) // want `condition 4: the process sends while a Msg of a later round can be kept, without a jump to its round first`
		p.r++
	}
}

// recv is a receive helper: what it returns is received in the loop
// that calls it.
func recv(net Transport) (Msg, bool) {
	return net.Recv()
}

// HelperJump collects messages of its round or later through a helper
// and jumps to the latest before it sends again: clean.
func HelperJump(net Transport) {
	p := &process{r: 1, step: Estimate}
	//sync:tag p.r,p.step
	for p.r < 10 {
		net.Send(0, Msg{R: p.r, Step: Estimate})
		var ests []Msg
		for len(ests) < 3 {
			m, ok := recv(net)
			if !ok {
				break
			}
			if m.R < p.r || m.Step != Estimate {
				continue
			}
			ests = append(ests, m)
		}
		for _, m := range ests {
			if m.R > p.r {
				p.r = m.R
			}
		}
		p.r++
	}
}
