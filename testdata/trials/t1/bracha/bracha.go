package bracha

import "time"

// Step is the round of an instance.
type Step int

// The rounds of an instance, in execution order.
const (
	StepInitial Step = iota
	StepEcho
	StepReady
	StepAmplify
)

// Initial is the sender's value.
//
//sync:msg Inst,StepInitial
type Initial struct {
	Inst  int
	Value string
}

// Echo repeats the sender's value.
//
//sync:msg Inst,StepEcho
type Echo struct {
	Inst  int
	Value string
}

// Ready says that a value is ready to be delivered; it is sent in rounds
// Ready and Amplify.
//
//sync:msg Inst,Step
type Ready struct {
	Inst  int
	Step  Step
	Value string
}

// Envelope is what the channels carry.
type Envelope struct {
	From int
	Msg  any
}

// Proc is one process.
type Proc struct {
	id, n, f int
	timeout  time.Duration
	source   func(inst int) string // the values this process broadcasts

	in    <-chan Envelope   //sync:inbox From,Msg
	peers []chan<- Envelope //sync:peers From,Msg

	inst int  // phase: the instance
	step Step // round

	delivered map[int]string
}

// New returns process id of n, tolerating f crashes, whose own broadcasts
// carry source(inst).
func New(id, n, f int, timeout time.Duration, source func(int) string, in <-chan Envelope, peers []chan<- Envelope) *Proc {
	return &Proc{id: id, n: n, f: f, timeout: timeout, source: source, in: in, peers: peers,
		delivered: make(map[int]string)}
}

// Delivered returns the value delivered for each instance.
func (b *Proc) Delivered() map[int]string { return b.delivered }

func (b *Proc) senderOf(inst int) int { return inst % b.n }

// Run takes part in instances up to last.
func (b *Proc) Run(last int) {
	echoQuorum := (b.n + b.f + 2) / 2 // ceil((n+f+1)/2)
	readyQuorum := 2*b.f + 1

	//sync:tag b.inst,b.step
	for b.inst < last {
		b.inst++
		b.step = StepInitial
		if b.senderOf(b.inst) == b.id {
			b.broadcast(Initial{Inst: b.inst, Value: b.source(b.inst)})
		}
		inits := collect(b, 1, func(from int, m Initial) bool {
			return m.Inst >= b.inst && from == b.senderOf(m.Inst)
		})
		if len(inits) == 0 {
			continue // the sender is silent: skip the instance
		}
		for _, m := range inits {
			if m.Inst > b.inst {
				b.inst = m.Inst // we fell behind: join the sender's instance
			}
		}
		var value string
		for _, m := range inits {
			value = m.Value
		}

		b.step = StepEcho
		b.broadcast(Echo{Inst: b.inst, Value: value})
		echoes := collect(b, echoQuorum, func(from int, m Echo) bool { return m.Inst == b.inst })
		ready, hasReady := quorumValue(values(echoes, func(m Echo) string { return m.Value }), echoQuorum)

		b.step = StepReady
		if hasReady {
			b.broadcast(Ready{Inst: b.inst, Step: StepReady, Value: ready})
		}
		readies := collect(b, readyQuorum, func(from int, m Ready) bool {
			return m.Inst == b.inst && m.Step == StepReady
		})
		if v, ok := quorumValue(values(readies, readyValue), b.f+1); ok && !hasReady {
			ready, hasReady = v, true // amplification
		}

		b.step = StepAmplify
		if hasReady {
			b.broadcast(Ready{Inst: b.inst, Step: StepAmplify, Value: ready})
		}
		final := collect(b, readyQuorum, func(from int, m Ready) bool {
			return m.Inst == b.inst && m.Step == StepAmplify
		})
		if v, ok := quorumValue(values(final, readyValue), readyQuorum); ok {
			b.delivered[b.inst] = v
		}
	}
}

// broadcast sends m to every process, this one included.
func (b *Proc) broadcast(m any) {
	for _, ch := range b.peers {
		ch <- Envelope{From: b.id, Msg: m}
	}
}

// collect receives until need messages of type M from distinct senders
// pass keep, or the round times out.
func collect[M any](b *Proc, need int, keep func(from int, m M) bool) map[int]M {
	got := make(map[int]M, need)
	timeout := time.After(b.timeout)
	for len(got) < need {
		select {
		case e := <-b.in:
			m, ok := e.Msg.(M)
			if !ok || !keep(e.From, m) {
				continue
			}
			got[e.From] = m
		case <-timeout:
			return got
		}
	}
	return got
}

func readyValue(m Ready) string { return m.Value }

// values maps a mailbox to the values its messages carry.
func values[M any](mbox map[int]M, value func(M) string) []string {
	out := make([]string, 0, len(mbox))
	for _, m := range mbox {
		out = append(out, value(m))
	}
	return out
}

// quorumValue returns a value that occurs at least q times.
func quorumValue(vs []string, q int) (string, bool) {
	count := make(map[string]int)
	for _, v := range vs {
		count[v]++
		if count[v] >= q {
			return v, true
		}
	}
	return "", false
}
