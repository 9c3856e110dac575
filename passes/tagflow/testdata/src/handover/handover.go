// Package handover checks messages stored through a helper of the package
// outside a reception, and messages handed over by a goroutine the loop
// starts.
package handover

//sync:msg Round
type Msg struct{ Round, Value int }

type Proc struct {
	round int
	best  *Msg
	in    chan *Msg
	fed   chan *Msg
	out   chan Msg
	tick  chan bool
	vin   chan Msg
	last  int
}

// keep stores a message in the process state.
func (p *Proc) keep(m *Msg) { p.best = m } // want `condition 3: Msg stored without checking that its tag is >= \(p.round\): a message of an earlier round can get in` `cannot prove 3: cannot tell that the Msg stored here is from the current round or a later one \(it is handed over by the goroutine started at line 52, whose checks ccvet does not follow\)`

// The helper stores whatever arrives: a stale message gets in.
func (p *Proc) Keep() {
	//sync:tag p.round
	for {
		select {
		case m := <-p.in:
			p.keep(m)
		case <-p.tick:
			p.round++
			p.out <- Msg{Round: p.round}
		}
	}
}

// watch passes on the messages of round r or later.
func (p *Proc) watch(r int) {
	for m := range p.in {
		if m.Round >= r {
			p.fed <- m
			return
		}
	}
}

// The goroutine the loop starts checks the round before it hands the
// message over; ccvet does not follow it, and says so.
func (p *Proc) Fed() {
	//sync:tag p.round
	for {
		go p.watch(p.round) // want `cannot prove 2: cannot tell what the messages sent by the goroutine started here carry`
		select {
		case m := <-p.fed:
			p.keep(m)
		case <-p.tick:
			p.round++
			p.out <- Msg{Round: p.round}
		}
	}
}

// The same, stored in place.
func (p *Proc) FedDirect() {
	//sync:tag p.round
	for {
		go p.watch(p.round) // want `cannot prove 2: cannot tell what the messages sent by the goroutine started here carry`
		select {
		case m := <-p.fed:
			p.best = m // want `cannot prove 3: cannot tell that the Msg stored here is from the current round or a later one \(it is handed over by the goroutine started at line 67, whose checks ccvet does not follow\)`
		case <-p.tick:
			p.round++
			p.out <- Msg{Round: p.round}
		}
	}
}

// The same channel fed by nothing the loop starts: what arrives is
// whatever the network delivers.
func (p *Proc) Direct() {
	//sync:tag p.round
	for {
		select {
		case m := <-p.in:
			p.best = m // want `condition 3: Msg stored without checking that its tag is >= \(p.round\): a message of an earlier round can get in`
		case <-p.tick:
			p.round++
			p.out <- Msg{Round: p.round}
		}
	}
}

// install keeps the value of a message of the current round.
func (p *Proc) install(m Msg) { p.last = m.Value }

// Correct: the message handed to the helper was filtered, and kept in a
// variable declared before the reception (a phi in SSA), which carries
// what the filter said of it.
func (p *Proc) Install() {
	//sync:tag p.round
	for {
		p.round++
		p.out <- Msg{Round: p.round}
		var got Msg
		ok := false
		for !ok {
			m := <-p.vin
			if m.Round != p.round {
				continue
			}
			got, ok = m, true
		}
		p.install(got)
	}
}
