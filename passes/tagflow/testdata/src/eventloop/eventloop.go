// Package eventloop checks conditions III and IV in the event-loop style:
// the tagged loop receives one message per iteration itself, and a tick
// ends the round.
package eventloop

import "time"

//sync:msg Round
type Heartbeat struct{ Round, From int }

type Detector struct {
	round int
	alive int
	in    <-chan Heartbeat
	out   chan<- Heartbeat
}

// Every heartbeat is recorded, whatever its round.
func (d *Detector) NoFilter(tick <-chan time.Time) {
	heard := make(map[int]bool)
	//sync:tag d.round
	for {
		select {
		case <-tick:
			d.alive = len(heard)
			d.round++
			heard = make(map[int]bool)
			d.out <- Heartbeat{Round: d.round}
		case hb := <-d.in:
			heard[hb.From] = true // want `condition 3: Heartbeat stored without checking that its tag is >= \(d.round\)`
		}
	}
}

// Only heartbeats of the current round count.
func (d *Detector) Current(tick <-chan time.Time) {
	heard := make(map[int]bool)
	//sync:tag d.round
	for {
		select {
		case <-tick:
			d.alive = len(heard)
			d.round++
			heard = make(map[int]bool)
			d.out <- Heartbeat{Round: d.round}
		case hb := <-d.in:
			if hb.Round != d.round {
				continue
			}
			heard[hb.From] = true
		}
	}
}

// Heartbeats of later rounds are kept for the tick, which counts them
// without having jumped to their round.
func (d *Detector) KeepsLater(tick <-chan time.Time) {
	heard := make(map[int]bool)
	//sync:tag d.round
	for {
		select {
		case <-tick:
			d.alive = len(heard)
			d.round++
			heard = make(map[int]bool)
			d.out <- Heartbeat{Round: d.round}
		case hb := <-d.in:
			if hb.Round < d.round {
				continue
			}
			heard[hb.From] = true // want `cannot prove 4: cannot tell that the tag jumps to the round of the Heartbeat stored here, which may be a later one: the mailbox keeps it across iterations of the loop`
		}
	}
}

// The same with the messages themselves in the mailbox.
func (d *Detector) KeepsLaterMsgs(tick <-chan time.Time) {
	heard := make(map[int]Heartbeat)
	//sync:tag d.round
	for {
		select {
		case <-tick:
			d.alive = len(heard)
			d.round++
			heard = make(map[int]Heartbeat)
			d.out <- Heartbeat{Round: d.round}
		case hb := <-d.in:
			if hb.Round < d.round {
				continue
			}
			heard[hb.From] = hb // want `cannot prove 4: cannot tell that the tag jumps to the round of the Heartbeat stored here`
		}
	}
}

// A heartbeat of a later round makes the detector jump to it at once,
// forgetting the round it was in.
func (d *Detector) JumpsAtOnce(tick <-chan time.Time) {
	heard := make(map[int]bool)
	//sync:tag d.round
	for {
		select {
		case <-tick:
			d.alive = len(heard)
			d.round++
			heard = make(map[int]bool)
			d.out <- Heartbeat{Round: d.round}
		case hb := <-d.in:
			if hb.Round < d.round {
				continue
			}
			if hb.Round > d.round {
				d.round = hb.Round
				heard = make(map[int]bool)
			}
			heard[hb.From] = true
		}
	}
}

// A count of heartbeats kept across iterations stores them too.
func (d *Detector) Counts(tick <-chan time.Time) {
	n := 0
	//sync:tag d.round
	for {
		select {
		case <-tick:
			d.alive = n
			d.round++
			n = 0
			d.out <- Heartbeat{Round: d.round}
		case hb := <-d.in:
			if hb.Round+1 < d.round {
				continue
			}
			n++ // want `condition 3: Heartbeat stored without checking that its tag is >= \(d.round\)`
		}
	}
}
