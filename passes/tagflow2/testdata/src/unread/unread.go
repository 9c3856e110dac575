// Package unread has messages whose tag the engine reads only in part: a
// getter (a method component, read as the component it returns, here of a
// field set through a pointer it does not follow) beside an enum mapping,
// and an interface read through methods. Every check that depends on what
// is not read is "cannot prove", never a pass and never a violation of
// what the engine cannot see.
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
		p.out <- &Msg{Round: &r, Kind: VA} // want `cannot prove 2: Msg may be sent with a tag other than the current one \(p\.round,p\.step\)`
		p.step = StepB
		p.round++
		p.step = StepA
	}
}

func (p *P) RunPayload() {
	//sync:tag p.round,p.step
	for {
		m := <-p.pin
		if m.Height() != p.round {
			continue
		}
		p.got = append(p.got, m) // want `cannot prove 3: Payload stored without checking that its tag is >= \(p\.round,p\.step\)`
		p.round++
		p.got = nil
	}
}
