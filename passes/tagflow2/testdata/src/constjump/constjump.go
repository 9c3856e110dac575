// Package constjump jumps to the tag of a message whose type carries its round
// as a constant: (p.ballot, p.step) = (m.Ballot, Acc) is the message's tag,
// set at once, so the tag is not lower afterwards.
package constjump

type Step int

const (
	Prep Step = iota
	Acc
	Done
)

//sync:msg Ballot,Acc
type Accept struct{ Ballot int }

//sync:msg Ballot,Done
type Accepted struct{ Ballot int }

type P struct {
	ballot int
	step   Step
	in     <-chan Accept
	out    chan<- Accepted
}

func (p *P) Run() {
	//sync:tag p.ballot,p.step
	for {
		m := <-p.in
		if m.Ballot < p.ballot || m.Ballot == p.ballot && Acc < p.step {
			continue
		}
		p.ballot, p.step = m.Ballot, Acc
		p.step = Done
		p.out <- Accepted{Ballot: p.ballot}
	}
}

// BackToPrepare takes the message's ballot but goes back to Prep: lower
// than the Accept it acted on when the ballot is the same.
func (p *P) BackToPrepare() {
	//sync:tag p.ballot,p.step
	for {
		m := <-p.in
		if m.Ballot < p.ballot || m.Ballot == p.ballot && Acc < p.step {
			continue
		}
		p.ballot, p.step = m.Ballot, Prep
		p.out <- Accepted{Ballot: p.ballot} // want `cannot prove 1: the tag \(p.ballot,p.step\) may be lower here than at the last communication point` `condition 2: Accepted is sent with a tag other than the current one \(p.ballot,p.step\)`
	}
}
