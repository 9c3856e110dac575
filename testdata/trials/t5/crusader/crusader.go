package crusader

import (
	"errors"
	"time"
)

// Transport connects a process to the others.
type Transport interface {
	// Broadcast sends m to every process, the sender included.
	//
	//sync:send
	Broadcast(m Msg)
	// Recv returns the next message for this process; ok is false if none
	// arrived before deadline.
	//
	//sync:recv
	Recv(deadline time.Time) (m Msg, ok bool)
}

// Decision is what a process outputs for one instance.
type Decision struct {
	Instance uint64
	Crusader string // the crusader value, or Bottom
	Value    string // the graded value, or Bottom when Grade is 0
	Grade    int    // 0, 1 or 2
}

// Node is one correct process.
type Node struct {
	id, n, t int
	tr       Transport
	timeout  time.Duration

	// The tag of Run.
	instance uint64
	round    Round
}

// NewNode returns process id of n, tolerating t Byzantine processes. A
// round waits at most timeout for the n-t messages it needs.
func NewNode(id, n, t int, tr Transport, timeout time.Duration) (*Node, error) {
	if n <= 3*t {
		return nil, errors.New("crusader: need n > 3t")
	}
	if id < 0 || id >= n {
		return nil, errors.New("crusader: id out of range")
	}
	return &Node{id: id, n: n, t: t, tr: tr, timeout: timeout}, nil
}

// Run runs one instance per input, in order, and returns the decisions.
func (c *Node) Run(inputs []string) []Decision {
	var out []Decision
	quorum := c.n - c.t

	//sync:tag c.instance,c.round
	for _, in := range inputs {
		c.instance++
		c.round = Input
		c.tr.Broadcast(InputMsg{Instance: c.instance, From: c.id, Value: in})
		got := gather[InputMsg](c, quorum)
		echo := Bottom
		if v, k := plurality(got); v != Bottom && k >= quorum {
			echo = v
		}

		c.round = Echo
		c.tr.Broadcast(EchoMsg{Instance: c.instance, From: c.id, Value: echo})
		echoes := gather[EchoMsg](c, quorum)
		cv := Bottom
		if v, k := plurality(echoes); v != Bottom && k >= quorum {
			cv = v
		}

		c.round = Vote
		c.tr.Broadcast(VoteMsg{Instance: c.instance, From: c.id, Value: cv})
		votes := gather[VoteMsg](c, quorum)
		d := Decision{Instance: c.instance, Crusader: cv}
		if v, k := plurality(votes); v != Bottom {
			switch {
			case k >= quorum:
				d.Value, d.Grade = v, 2
			case k >= c.t+1:
				d.Value, d.Grade = v, 1
			}
		}
		out = append(out, d)
	}
	return out
}

// gather receives the messages of type M (the round c is in) of the
// current instance until it has one from need distinct processes or the
// round times out. A process that sends twice counts once, with its last
// message.
func gather[M Msg](c *Node, need int) map[int]M {
	got := make(map[int]M)
	deadline := time.Now().Add(c.timeout)
	for len(got) < need {
		raw, ok := c.tr.Recv(deadline)
		if !ok {
			break
		}
		m, isM := raw.(M)
		if !isM || m.Inst() != c.instance {
			continue // another round or another instance
		}
		got[m.Sender()] = m
	}
	return got
}

// plurality returns the non-Bottom value carried by the most messages and
// how many carry it; ties go to the smaller value so that the result does
// not depend on map order.
func plurality[M Msg](msgs map[int]M) (string, int) {
	count := make(map[string]int)
	for _, m := range msgs {
		if v := payload(m); v != Bottom {
			count[v]++
		}
	}
	best, bestK := Bottom, 0
	for v, k := range count {
		if k > bestK || k == bestK && v < best {
			best, bestK = v, k
		}
	}
	return best, bestK
}
