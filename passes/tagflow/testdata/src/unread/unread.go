// Package unread has messages whose tag the engine does not read: a
// getter (a method component), an enum mapping, and an interface read
// through methods. Every check that depends on them is "cannot prove",
// never a pass and never a violation of what the engine cannot see.
package unread

type Step int

const (
	StepA Step = iota
	StepB
)

type VType int

const (
	VA VType = iota + 1
	VB
)

// Msg has its round behind a getter and its step as another enum.
//
//sync:msg GetRound(),Kind{VA:StepA,VB:StepB}
type Msg struct {
	Round *int
	Kind  VType
}

// GetRound is nil-safe.
func (m *Msg) GetRound() int {
	if m == nil || m.Round == nil {
		return 0
	}
	return *m.Round
}

// Payload is read through methods.
//
//sync:msg Height(),View()
type Payload interface {
	Height() int
	View() Step
}

type pl struct {
	h int
	v Step
}

func (p pl) Height() int { return p.h }
func (p pl) View() Step  { return p.v }

type P struct {
	round int
	step  Step
	in    chan *Msg
	out   chan *Msg
	pin   chan Payload
	pout  chan Payload
	got   []Payload
}

func (p *P) Run() {
	//sync:tag p.round,p.step
	for {
		r := p.round
		p.out <- &Msg{Round: &r, Kind: VA} // want `cannot prove 2: cannot tell that Msg\.GetRound\(\) of the Msg sent here equals the current p\.round: this engine does not read tags through methods or enum mappings` `cannot prove 2: cannot tell that Msg\.Kind\{VA:StepA,VB:StepB\} of the Msg sent here equals the current p\.step: this engine does not read tags through methods or enum mappings`
		p.step = StepB
		p.round++
		p.step = StepA
	}
}

func (p *P) RunPayload() {
	//sync:tag p.round,p.step
	for {
		p.pout <- pl{p.round, p.step} // want `cannot prove 2: cannot tell that Payload\.Height\(\) of the Payload sent here equals the current p\.round` `cannot prove 2: cannot tell that Payload\.View\(\) of the Payload sent here equals the current p\.step`
		m := <-p.pin
		if m.Height() != p.round || m.View() != p.step {
			continue
		}
		p.got = append(p.got, m) // want `cannot prove 3: cannot tell that the Payload stored here is from the current round or a later one \(its filter calls code ccvet does not follow\)`
		p.round++
		p.got = nil
	}
}
