// Package gosend checks sends started with go: a //sync:send function
// started as a goroutine sends its message as of the go statement (its
// arguments are evaluated there), and any other goroutine that sends a
// message is "cannot prove"; goroutines that send no message are not
// reported.
package gosend

type Step int

const Vote Step = 1

//sync:msg Round,Vote
type VoteMsg struct{ Round, V int }

type Proc struct {
	round int
	step  Step
	v     int
	out   chan VoteMsg
	done  chan struct{}
}

func (p *Proc) send(m VoteMsg) { p.out <- m }

// xsend sends m without blocking the caller's loop on a slow peer.
//
//sync:send
func (p *Proc) xsend(m VoteMsg) {
	select {
	case p.out <- m:
	default:
	}
}

func (p *Proc) Unannotated() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = Vote
		go p.send(VoteMsg{Round: p.round, V: p.v}) // want `cannot prove 2: cannot tell what the messages sent by the goroutine started here carry: ccvet does not follow goroutines`
	}
}

func (p *Proc) Literal() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = Vote
		m := VoteMsg{Round: p.round, V: p.v}
		go func() { p.out <- m }() // want `cannot prove 2: cannot tell what the messages sent by the goroutine started here carry: ccvet does not follow goroutines`
	}
}

func (p *Proc) Annotated() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = Vote
		go p.xsend(VoteMsg{Round: p.round, V: p.v})
		go func() { p.done <- struct{}{} }()
	}
}

func (p *Proc) AnnotatedStale() {
	//sync:tag p.round,p.step
	for {
		p.round++
		p.step = Vote
		go p.xsend(VoteMsg{Round: p.round - 1, V: p.v}) // want `condition 2: VoteMsg sent with Round from before p.round was set at line 67`
	}
}
