// Package envelope receives messages in envelopes whose message field has
// the message type itself (not an interface), kept in a variable: the
// message is the envelope's field, and its filter is checked as any other.
package envelope

type Step int

const (
	Estimate Step = iota
	Propose
)

//sync:msg Round,Step
type Msg struct {
	Round int
	Step  Step
	Est   int
}

type Envelope struct {
	From int
	Msg  Msg
}

type Proc struct {
	r    int
	step Step
	est  int
	in   chan Envelope
}

func (p *Proc) unfiltered() {
	//sync:tag p.r,p.step
	for {
		p.r++
		p.step = Propose
		var props []Msg
		for len(props) == 0 {
			e := <-p.in
			props = append(props, e.Msg) // want `condition 3: Msg stored without checking that its tag is >= \(p.r,p.step\)`
		}
		p.est = props[0].Est
	}
}

func (p *Proc) filtered() {
	//sync:tag p.r,p.step
	for {
		p.r++
		p.step = Propose
		var props []Msg
		for len(props) == 0 {
			e := <-p.in
			if e.Msg.Round != p.r || e.Msg.Step != p.step {
				continue
			}
			props = append(props, e.Msg)
		}
		p.est = props[0].Est
	}
}

func (p *Proc) viaLocal() {
	//sync:tag p.r,p.step
	for {
		p.r++
		p.step = Propose
		var props []Msg
		for len(props) == 0 {
			e := <-p.in
			m := e.Msg
			if m.Round < p.r {
				continue
			}
			props = append(props, m) // want `condition 3: Msg stored without checking that its tag is >= \(p.r,p.step\)`
		}
		p.est = props[0].Est
	}
}

// AnyEnvelope carries any message.
type AnyEnvelope struct {
	From int
	Msg  any
}

// relay builds a message of its own with a value received, and sends it
// in an envelope: building it is not storing a received message.
func (p *Proc) relay(out chan AnyEnvelope) {
	//sync:tag p.r,p.step
	for {
		p.r++
		p.step = Estimate
		var ests []Msg
		for len(ests) == 0 {
			e := <-p.in
			if e.Msg.Round != p.r || e.Msg.Step != p.step {
				continue
			}
			ests = append(ests, e.Msg)
		}
		v := 0
		for _, m := range ests {
			if m.Est > v {
				v = m.Est
			}
		}
		p.step = Propose
		out <- AnyEnvelope{From: 1, Msg: Msg{Round: p.r, Step: p.step, Est: v}}
	}
}

// relayStale sends its own message with the round from before its jump: a
// condition II violation, and only that (the message is built, not
// received, though it carries a received value).
func (p *Proc) relayStale(out chan AnyEnvelope) {
	//sync:tag p.r,p.step
	for {
		p.r++
		p.step = Estimate
		r := p.r
		var ests []Msg
		for len(ests) == 0 {
			e := <-p.in
			if e.Msg.Round < p.r || e.Msg.Step != p.step {
				continue
			}
			ests = append(ests, e.Msg)
		}
		v := 0
		for _, m := range ests {
			if m.Round > p.r {
				p.r = m.Round
			}
		}
		for _, m := range ests {
			if m.Est > v {
				v = m.Est
			}
		}
		p.step = Propose
		out <- AnyEnvelope{From: 1, Msg: Msg{Round: r, Step: p.step, Est: v}} // want `condition 2: Msg sent with Round from before p.r was set`
	}
}

type entry struct {
	m    Msg
	from int
}

// The mailbox holds the messages in a struct of the process's own: storing
// the struct stores the message.
func (p *Proc) wrapped() {
	//sync:tag p.r,p.step
	for {
		p.r++
		p.step = Propose
		var pending []entry
		for len(pending) == 0 {
			e := <-p.in
			pending = append(pending, entry{m: e.Msg, from: e.From}) // want `condition 3: Msg stored without checking that its tag is >= \(p.r,p.step\)`
		}
		p.est = pending[0].m.Est
	}
}
