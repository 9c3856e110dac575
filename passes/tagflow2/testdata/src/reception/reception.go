// Package reception is about the reception variable of an event loop
// (case m := <-in): a message of a later round held there owes the jump
// before the process acts with it at hand, replying to its sender
// included.
package reception

type Step int

const (
	Ping Step = iota
	Pong
)

//sync:msg Term,Beat,Ping
type Heartbeat struct {
	Term, Beat int
	Leader     int
}

//sync:msg Term,Beat,Pong
type Ack struct {
	Term, Beat int
}

type Net interface {
	//sync:send
	Send(to int, m any)
}

type Node struct {
	net   Net
	in    chan any
	term  int
	beat  int
	step  Step
	ticks chan struct{}
}

// Follow answers every later heartbeat, after moving to its term and beat.
func (n *Node) Follow() {
	//sync:tag n.term,n.beat,n.step
	for {
		select {
		case <-n.ticks:
			return
		case raw := <-n.in:
			m, ok := raw.(Heartbeat)
			if !ok || m.Term < n.term || m.Term == n.term && m.Beat <= n.beat {
				continue
			}
			n.term, n.beat, n.step = m.Term, m.Beat, Ping
			n.step = Pong
			n.net.Send(m.Leader, Ack{Term: n.term, Beat: n.beat})
		}
	}
}

// FollowTermOnly adopts a later heartbeat's term but not its beat, and
// answers its leader from the old beat.
func (n *Node) FollowTermOnly() {
	//sync:tag n.term,n.beat,n.step
	for {
		select {
		case <-n.ticks:
			return
		case raw := <-n.in:
			m, ok := raw.(Heartbeat)
			if !ok || m.Term < n.term || m.Term == n.term && m.Beat <= n.beat {
				continue
			}
			n.term = m.Term
			n.step = Pong
			n.net.Send(m.Leader, Ack{Term: n.term, Beat: n.beat}) // want `cannot prove 4: the process sends while a Heartbeat that may be of a later round is kept, without a jump to its round first`
		}
	}
}
