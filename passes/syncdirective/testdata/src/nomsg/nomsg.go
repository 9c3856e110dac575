// Package nomsg: a tagged loop that sends and receives no //sync:msg type
// is reported (nothing of it is checked); one that does, directly or
// through a helper or an interface it asserts, is not.
package nomsg

type Step int

const (
	Prepare Step = iota
	Ack
)

// Vote has no //sync:msg: the loops that exchange it are not checked.
type Vote struct {
	Ballot int
	Step   Step
}

// Ballot is a message.
//
//sync:msg Ballot,Step
type Ballot struct {
	Ballot int
	Step   Step
}

type Proc struct {
	ballot int
	step   Step
	in     chan Vote
	out    chan Vote
	bin    chan Ballot
	raw    chan any
}

func (p *Proc) unannotated() {
	//sync:tag p.ballot,p.step // want `^the loop tagged p\.ballot,p\.step sends and receives no //sync:msg type: nothing is checked; annotate the message types with //sync:msg \(and the functions that send or receive them with //sync:send and //sync:recv\)$`
	for {
		p.ballot++
		p.step = Prepare
		p.out <- Vote{Ballot: p.ballot, Step: p.step}
		v := <-p.in
		if v.Ballot != p.ballot {
			continue
		}
	}
}

// Network's methods are not annotated //sync:send and //sync:recv, and
// what they carry is no message type.
type Network struct{ ch chan Vote }

func (n *Network) Send(v Vote) { n.ch <- v }

func (p *Proc) throughMethods(n *Network) {
	//sync:tag p.ballot,p.step // want `nothing is checked`
	for i := 0; i < 3; i++ {
		p.ballot++
		p.step = Prepare
		n.Send(Vote{Ballot: p.ballot, Step: p.step})
	}
}

func (p *Proc) direct() {
	//sync:tag p.ballot,p.step
	for {
		p.ballot++
		p.step = Prepare
		p.bin <- Ballot{Ballot: p.ballot, Step: p.step}
	}
}

func (p *Proc) send(m Ballot) { p.bin <- m }

func (p *Proc) helper() {
	//sync:tag p.ballot,p.step
	for {
		p.ballot++
		p.step = Prepare
		p.send(Ballot{Ballot: p.ballot, Step: p.step})
	}
}

func (p *Proc) asserted() {
	var got []Ballot
	//sync:tag p.ballot,p.step
	for {
		p.ballot++
		p.step = Ack
		got = got[:0]
		for len(got) == 0 {
			raw := <-p.raw
			b, ok := raw.(Ballot)
			if !ok || b.Ballot != p.ballot || b.Step != p.step {
				continue
			}
			got = append(got, b)
		}
	}
}

// Slotted is the message of the loop in replicate, whose tag has four
// variables.
//
//sync:msg Ballot,Step,Slot,SStep
type Slotted struct {
	Ballot, Slot, SStep int
	Step                Step
}

type Replica struct {
	ballot, slot, sstep int
	step                Step
	out                 chan Slotted
}

// outer exchanges no message of its own: the loop of replicate, which it
// calls, does, and is checked for them.
func (r *Replica) outer() {
	//sync:tag r.ballot,r.step
	for {
		r.ballot++
		r.step = Ack
		r.replicate()
	}
}

func (r *Replica) replicate() {
	//sync:tag r.ballot,r.step,r.slot,r.sstep
	for r.slot = 0; r.slot < 3; r.slot++ {
		r.sstep = 0
		r.out <- Slotted{Ballot: r.ballot, Step: r.step, Slot: r.slot, SStep: r.sstep}
	}
}

// Writer may set the ballot: a call of it through an interface cannot be
// followed.
type Writer interface{ Write(p *Proc) }

func (p *Proc) Write(q *Proc) { q.ballot = 0 }

// notSilent exchanges no message, but has a finding of its own (condition
// I cannot be proven at the interface call, which syncmono reports): it is
// not silent, and is left to that finding.
func (p *Proc) notSilent(w Writer) {
	//sync:tag p.ballot,p.step
	for range p.in {
		p.ballot++
		p.step = Prepare
		w.Write(p)
	}
}
