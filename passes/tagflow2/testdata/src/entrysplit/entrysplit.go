// Package entrysplit is about what the round holds when a handler (or a
// loop's function) starts: the analysis assumes one of its enum's
// constants, and follows each apart, so that a test narrowing it (a.step <
// StepAccept) is not lost where paths that did not test it join; a
// violation that shows only for some of the assumed constants is "cannot
// prove" (nothing says the handler runs in those); a tag variable
// declared in the function starts at zero.
package entrysplit

type Step int

const (
	StepPrepare Step = iota
	StepPromise
	StepAccept
	StepAccepted
)

//sync:msg Ballot,StepPrepare
type Prepare struct {
	Ballot uint64
}

//sync:msg Ballot,StepAccept
type Accept struct {
	Ballot uint64
	From   int
}

//sync:msg Ballot,StepAccepted
type Accepted struct {
	Ballot uint64
	From   int
}

type Transport interface {
	//sync:send
	Send(to int, m any)
	//sync:recv
	Recv() (any, bool)
}

// Acceptor is a Paxos acceptor.
//
//sync:tag ballot,step
type Acceptor struct {
	net    Transport
	ballot uint64
	step   Step
}

// OnAccept accepts unless a higher ballot was promised or this ballot's
// value was accepted already; a later ballot is joined.
//
//sync:handler
func (a *Acceptor) OnAccept(m Accept) {
	if m.Ballot < a.ballot || m.Ballot == a.ballot && a.step >= StepAccept {
		return
	}
	if m.Ballot > a.ballot {
		a.ballot = m.Ballot
	}
	a.step = StepAccepted
	a.net.Send(m.From, Accepted{Ballot: a.ballot})
}

// Restart goes back to the start of the ballot: a violation if it runs
// after the acceptor promised, which nothing here says it does.
//
//sync:handler
func (a *Acceptor) Restart() {
	a.step = StepPrepare
	a.net.Send(0, Prepare{Ballot: a.ballot}) // want `cannot prove 1: the tag \(ballot,step\) is lower here than at the last communication point if step is StepPromise or StepAccept or StepAccepted when the handler is called, which the analysis does not know`
}

// Rewind goes back a ballot, whatever the step: a violation.
//
//sync:handler
func (a *Acceptor) Rewind() {
	a.ballot--
	a.net.Send(0, Accept{Ballot: a.ballot}) // want `condition 1: the tag \(ballot,step\) is lower here than at the last communication point` `cannot prove 2: Accept may be sent with a tag other than the current one \(ballot,step\)`
}

// Run declares its tag variables: the round starts at StepPrepare, as
// the first Prepare says.
func Run(net Transport, n int) {
	var ballot uint64
	var step Step
	//sync:tag ballot,step
	for ballot = 1; ballot < uint64(n); ballot++ {
		net.Send(0, Prepare{Ballot: ballot})
		step = StepAccept
		net.Send(0, Accept{Ballot: ballot})
		step = StepPrepare
	}
	_ = step
}

// OnTimeout ends the round its timer was armed for, if it still is the
// current one: ballot and step, compared with the tag, are related to it
// from then on.
//
//sync:handler
func (a *Acceptor) OnTimeout(ballot uint64, step Step) {
	if ballot != a.ballot || step != a.step {
		return
	}
	if step == StepAccepted {
		a.ballot, a.step = ballot+1, StepPrepare
		return
	}
	a.step = step + 1
}

// OnStaleTimeout trusts the ballot its timer was armed for.
//
//sync:handler
func (a *Acceptor) OnStaleTimeout(ballot uint64) {
	a.ballot, a.step = ballot+1, StepPrepare
} // want `cannot prove 1: the tag \(ballot,step\) may be lower here than at the last communication point`

// Loop leaves a.step as it was before its loop and sets StepPrepare at the
// top of each iteration: in the first one that may be lower, reported
// once, naming an entry value it is lower for.
func (a *Acceptor) Loop() {
	//sync:tag a.ballot,a.step
	for a.ballot < 10 {
		a.step = StepPrepare
		a.net.Send(0, Prepare{Ballot: a.ballot}) // want `cannot prove 1: the tag \(a.ballot,a.step\) is lower here than at the last communication point if a.step is StepPromise or StepAccepted when the loop is entered, which the analysis does not know: set it before the loop`
		m, ok := a.net.Recv()
		if _, isPrep := m.(Prepare); !ok || !isPrep {
			a.ballot++
			continue
		}
		a.step = StepAccept
		a.net.Send(0, Accept{Ballot: a.ballot})
		a.ballot++
	}
}
