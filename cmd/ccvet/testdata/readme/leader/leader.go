// Package leader is a fragment of a Paxos-like leader.
package leader

// Step is the round inside a ballot.
type Step int

// The rounds of a ballot, in order.
const (
	Prepare Step = iota
	Ack
)

// Msg is every message of the protocol.
//
//sync:msg Ballot,Step
type Msg struct {
	From, Ballot int
	Step         Step
}

// Proc is one replica.
type Proc struct {
	id, n, ballot int
	step          Step
	in            chan Msg
	out           chan Msg
}

// Lead runs the leader's ballots.
func (p *Proc) Lead() {
	//sync:tag p.ballot,p.step
	for {
		p.ballot++
		p.step = Prepare
		p.out <- Msg{From: p.id, Ballot: p.ballot, Step: Prepare}

		p.step = Ack
		acks := map[int]Msg{}
		for len(acks) <= p.n/2 {
			m := <-p.in
			if m.Ballot > p.ballot || m.Step != Ack {
				continue // drop acks of later ballots
			}
			acks[m.From] = m
		}
	}
}
