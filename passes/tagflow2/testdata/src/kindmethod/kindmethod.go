// Package kindmethod has a message whose step is a method computed from
// its kind (Tenderbake's votes): the engine evaluates Step() for each
// kind and reads it as the enum mapping it is. Its loop also proposes
// only when a flag says a round was just entered, a flag the engine
// follows across the loop's back edge.
package kindmethod

type Step int

const (
	StepPropose Step = iota
	StepPreattest
	StepAttest
)

type Kind int

const (
	KindProposal       Kind = 10
	KindPreattestation Kind = 20
	KindAttestation    Kind = 21
)

//sync:msg Level,Round,Step()
type Msg struct {
	Kind         Kind
	Level, Round int
	From         int
}

// Step is the step a message of m's kind is sent in.
func (m Msg) Step() Step {
	switch m.Kind {
	case KindPreattestation:
		return StepPreattest
	case KindAttestation:
		return StepAttest
	}
	return StepPropose
}

type Net interface {
	//sync:send
	Publish(m Msg)
}

type Baker struct {
	id           int
	level, round int
	step         Step
	pre, att     map[int]bool
	net          Net
	in           <-chan Msg
	timeouts     <-chan int
}

func (b *Baker) enter(level, round int) {
	b.level, b.round, b.step = level, round, StepPropose
	b.pre, b.att = map[int]bool{}, map[int]bool{}
}

// Run proposes when a round was just entered, preattests a proposal of the
// current round, and counts preattestations of it.
func (b *Baker) Run(levels int) {
	b.enter(1, 0)
	entered := true
	//sync:tag b.level,b.round,b.step
	for b.level <= levels {
		if entered {
			entered = false
			b.net.Publish(Msg{Kind: KindProposal, Level: b.level, Round: b.round, From: b.id})
		}
		select {
		case r := <-b.timeouts:
			if r != b.round {
				continue
			}
			b.enter(b.level, b.round+1)
			entered = true
		case m := <-b.in:
			switch m.Kind {
			case KindProposal:
				if m.Level != b.level || m.Round != b.round || b.step != StepPropose {
					continue
				}
				b.step = StepPreattest
				b.net.Publish(Msg{Kind: KindPreattestation, Level: b.level, Round: b.round, From: b.id})
			case KindPreattestation:
				if m.Level != b.level || m.Round != b.round || b.step > StepPreattest {
					continue
				}
				b.step = StepPreattest
				b.pre[m.From] = true
				if len(b.pre) < 3 {
					continue
				}
				b.step = StepAttest
				b.net.Publish(Msg{Kind: KindAttestation, Level: b.level, Round: b.round, From: b.id})
			case KindAttestation:
				if m.Level != b.level || m.Round != b.round {
					continue
				}
				b.step = StepAttest
				b.att[m.From] = true
				if len(b.att) >= 3 {
					b.enter(b.level+1, 0)
					entered = true
				}
			}
		}
	}
}

// RunEarly preattests before it has seen a proposal: the preattestation's
// step is later than the baker's.
func (b *Baker) RunEarly(levels int) {
	b.enter(1, 0)
	//sync:tag b.level,b.round,b.step
	for b.level <= levels {
		m := <-b.in
		if m.Level != b.level || m.Round != b.round || b.step != StepPropose {
			continue
		}
		b.net.Publish(Msg{Kind: KindPreattestation, Level: b.level, Round: b.round, From: b.id}) // want `condition 2: Msg is sent with a tag other than the current one \(b.level,b.round,b.step\)`
		b.step = StepPreattest
		b.enter(b.level+1, 0)
	}
}
