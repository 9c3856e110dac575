package otr

import "time"

// Est is the estimate a process sends in a round.
//
//sync:msg Round
type Est struct {
	Round int
	X     int
}

// Proc is one OneThirdRule process.
type Proc struct {
	id      int
	n       int
	net     Transport[Est]
	timeout time.Duration

	round int // the round, which is also the phase: one round per phase

	x        int
	decided  bool
	decision int
}

// NewProc returns process id of n with initial value v.
func NewProc(id, n, v int, net Transport[Est], timeout time.Duration) *Proc {
	return &Proc{id: id, n: n, net: net, timeout: timeout, x: v}
}

// Decision returns the decided value, if any.
func (p *Proc) Decision() (int, bool) { return p.decision, p.decided }

// Run executes maxRounds rounds.
func (p *Proc) Run(maxRounds int) {
	var out Est // reused: only its round and value change
	//sync:tag p.round
	for range maxRounds {
		p.round++
		out.Round, out.X = p.round, p.x
		p.net.Broadcast(out)

		mb := NewMailbox[Est]()
		deadline := time.Now().Add(p.timeout)
		for mb.Len() < p.n {
			m, from, ok := p.net.Recv(time.Until(deadline))
			if !ok {
				break
			}
			if m.Round != p.round {
				continue
			}
			mb.Put(from, m)
		}

		// Update only with more than 2n/3 estimates.
		if 3*mb.Len() <= 2*p.n {
			continue
		}
		v, k := smallestMostFrequent(mb.Messages())
		p.x = v
		if 3*k > 2*p.n && !p.decided {
			p.decided, p.decision = true, v
		}
	}
}

// smallestMostFrequent returns the smallest of the most frequent values of
// the estimates, and how many estimates carry it.
func smallestMostFrequent(ests []Est) (int, int) {
	count := make(map[int]int)
	for _, e := range ests {
		count[e.X]++
	}
	best, k := 0, 0
	for v, c := range count {
		if c > k || c == k && v < best {
			best, k = v, c
		}
	}
	return best, k
}
