// Package msgdata keeps data of received messages (a field copied into a
// variable, a running maximum) and reads tags through getters: the message
// is checked where the data is taken from it, in the reception; using the
// data later is not storing a message again.
package msgdata

type Step int

const (
	Ask Step = 1
	Ack Step = 2
)

//sync:msg Epoch,Step
type Msg struct {
	Epoch int
	Step  Step
	V     int
}

func (m *Msg) GetEpoch() int { return m.Epoch }
func (m *Msg) GetStep() Step { return m.Step }

type P struct {
	epoch int
	step  Step
	value int
	in    chan Msg
	pin   chan *Msg
}

// A field of the message kept in a variable, then copied.
func (p *P) FieldCopy() {
	//sync:tag p.epoch,p.step
	for {
		p.epoch++
		p.step = Ask
		v := 0
		for m := range p.in {
			if m.Epoch != p.epoch || m.Step != Ask {
				continue
			}
			v = m.V
			break
		}
		p.value = v
	}
}

// The running maximum of the values of this epoch's answers.
func (p *P) RunningMax() {
	//sync:tag p.epoch,p.step
	for {
		p.epoch++
		p.step = Ask
		best := -1
		for range 3 {
			m := <-p.in
			if m.Epoch != p.epoch || m.Step != Ask {
				continue
			}
			best = max(best, m.V)
		}
		p.value = best
	}
}

// The running maximum of any answers.
func (p *P) RunningMaxStale() {
	//sync:tag p.epoch,p.step
	for {
		p.epoch++
		p.step = Ask
		best := -1
		for range 3 {
			m := <-p.in
			if m.Step != Ask {
				continue
			}
			best = max(best, m.V) // want `condition 3: Msg stored without checking that its tag is >= \(p.epoch,p.step\)`
		}
		p.value = best
	}
}

// Tags read through getters, as protobuf generates them.
func (p *P) Getters() {
	//sync:tag p.epoch,p.step
	for {
		p.epoch++
		p.step = Ask
		got := map[int]*Msg{}
		for len(got) < 3 {
			m := <-p.pin
			if m.GetEpoch() != p.epoch || m.GetStep() != Ask {
				continue
			}
			got[m.V] = m
		}
	}
}

// A getter of the wrong field.
func (p *P) GettersWrong() {
	//sync:tag p.epoch,p.step
	for {
		p.epoch++
		p.step = Ask
		got := map[int]*Msg{}
		for len(got) < 3 {
			m := <-p.pin
			if m.GetStep() != Ask {
				continue
			}
			got[m.V] = m // want `condition 3: Msg stored without checking that its tag is >= \(p.epoch,p.step\)`
		}
	}
}

type Label int

const (
	Prepare Label = iota
	AckL
	Propose
)

//sync:msg Ballot,AckL
type AckMsg struct{ Ballot, From, Last int }

type H struct {
	ballot int
	label  Label
	best   int
	acks   map[int]AckMsg
	in     chan AckMsg
}

// A handler picks the ack with the highest Last from the field mailbox:
// copying a message read from the mailbox is not storing it.
func (p *H) onAck(m AckMsg) {
	if m.Ballot != p.ballot || p.label != AckL {
		return
	}
	p.acks[m.From] = m
	best := AckMsg{Last: -1}
	for _, a := range p.acks {
		if a.Last > best.Last {
			best = a
		}
	}
	p.best = best.Last
	p.label = Propose
	clear(p.acks)
}

func (p *H) Run() {
	p.label = AckL
	clear(p.acks)
	//sync:tag p.ballot,p.label
	for {
		m := <-p.in
		p.onAck(m)
	}
}
