package hbbftba

import "time"

// Step is the round of an epoch, in execution order.
type Step int

// The four steps of an epoch.
const (
	// BVal: broadcast the estimate.
	BVal Step = iota
	// Relay: relay every value announced by at least f+1 processes.
	Relay
	// Aux: announce one value of bin_values.
	Aux
	// Conf: announce the whole of bin_values.
	Conf
)

// ValSet is a set of binary values: bit b is set when b is in the set.
type ValSet uint8

// Of returns the set {b}.
func Of(b int) ValSet { return ValSet(1) << uint(b&1) }

// Has reports whether b is in s.
func (s ValSet) Has(b int) bool { return s&Of(b) != 0 }

// SubsetOf reports whether every value of s is in t.
func (s ValSet) SubsetOf(t ValSet) bool { return s&^t == 0 }

// Single returns the only value of s, if s has exactly one.
func (s ValSet) Single() (int, bool) {
	switch s {
	case Of(0):
		return 0, true
	case Of(1):
		return 1, true
	}
	return 0, false
}

// Msg is the one message type of every step. Epoch and Step are the tag of
// the step it was sent in; Vals is the estimate (BVal), the relayed values
// (Relay), the announced value (Aux) or the values the Aux quorum announced
// (Conf).
//
//sync:msg Epoch,Step
type Msg struct {
	From  int
	Epoch int
	Step  Step
	Vals  ValSet
}

// Config holds the parameters shared by every process.
type Config struct {
	F         int                 // tolerated faults; len(out) >= 3F+1
	Coin      func(epoch int) int // the common coin, the same at every process
	Timeout   time.Duration       // how long a step waits for its quorum
	MaxEpochs int                 // epochs run before giving up
}

// Result is the outcome of Run.
type Result struct {
	Decided bool
	Value   int
	Epoch   int // the epoch of the decision, or the one the process gave up in
}

// Run is process id of the binary agreement, proposing input. It receives
// on in and sends to process q on out[q] (itself included). It returns at
// its decision, after a step timed out, or after cfg.MaxEpochs epochs.
func Run(id, input int, in <-chan Msg, out []chan<- Msg, cfg Config) Result {
	n, f := len(out), cfg.F
	est := input
	epoch, step := 0, BVal

	//sync:tag epoch,step
	for epoch < cfg.MaxEpochs {
		// BVal: announce the estimate and learn the others'. A Relay of
		// this epoch means the others have their BVal quorum already: the
		// wait ends and the process catches up with them.
		step = BVal
		broadcast(out, Msg{From: id, Epoch: epoch, Step: step, Vals: Of(est)})
		bvals := make(map[int]Msg)
		var ahead []Msg
		timer := time.NewTimer(cfg.Timeout)
		for expired := false; len(bvals) < n-f && !expired && ahead == nil; {
			select {
			case m := <-in:
				switch {
				case m.Epoch != epoch || m.Step < step || m.Step > step+1:
					continue // another epoch, an older step, or too far ahead: drop it
				case m.Step == step+1:
					ahead = append(ahead, m)
				default:
					bvals[m.From] = m
				}
			case <-timer.C:
				expired = true
			}
		}
		timer.Stop()
		if ahead != nil {
			step = ahead[0].Step // catch up: relay without a BVal quorum
		} else if len(bvals) < n-f {
			return Result{Epoch: epoch} // BVal timed out: give up
		}

		// Relay: relay our estimate and every value f+1 processes announced,
		// so that a value of a correct process reaches 2f+1 relays.
		relay := Of(est)
		if step == BVal {
			relay |= supported(bvals, f+1)
		}
		step = Relay
		broadcast(out, Msg{From: id, Epoch: epoch, Step: step, Vals: relay})
		relays := make(map[int]Msg)
		backlog, ahead := ahead, nil // read ahead: the Relay that ended the BVal wait
		deadline := time.After(cfg.Timeout)
	wait:
		for len(relays) < n-f && ahead == nil {
			var m Msg
			if len(backlog) > 0 {
				m, backlog = backlog[0], backlog[1:]
			} else {
				select {
				case m = <-in:
				case <-deadline:
					break wait
				}
			}
			switch {
			case m.Epoch != epoch || m.Step < step || m.Step > step+1:
				continue
			case m.Step == step+1:
				ahead = append(ahead, m)
			default:
				relays[m.From] = m
			}
		}
		if ahead != nil {
			step = ahead[0].Step // catch up: the others announce already
		} else if len(relays) < n-f {
			return Result{Epoch: epoch} // Relay timed out: give up
		}
		bin := relay // without 2f+1 relays of a value: keep our own
		if step == Relay {
			if b := supported(relays, 2*f+1); b != 0 {
				bin = b
			}
		}

		// Aux: announce one value of bin_values; wait for n-f announcements
		// of values that are in bin_values.
		step = Aux
		w := 0
		if !bin.Has(0) {
			w = 1
		}
		broadcast(out, Msg{From: id, Epoch: epoch, Step: step, Vals: Of(w)})
		auxes, ok := collect(in, ahead, epoch, step, n-f, cfg.Timeout, func(m Msg) bool { return m.Vals.SubsetOf(bin) })
		if !ok {
			return Result{Epoch: epoch} // Aux timed out: give up
		}

		// Conf: confirm the values the Aux quorum announced; wait for n-f
		// confirmations included in bin_values.
		step = Conf
		broadcast(out, Msg{From: id, Epoch: epoch, Step: step, Vals: union(auxes)})
		confs, ok := collect(in, nil, epoch, step, n-f, cfg.Timeout, func(m Msg) bool { return m.Vals.SubsetOf(bin) })
		if !ok {
			return Result{Epoch: epoch} // Conf timed out: give up
		}
		vals := union(confs)

		// The coin of the epoch decides between the confirmed values.
		s := cfg.Coin(epoch) & 1
		if b, single := vals.Single(); single {
			if b == s {
				return Result{Decided: true, Value: b, Epoch: epoch}
			}
			est = b
		} else {
			est = s
		}
		epoch++
	}
	return Result{Epoch: epoch}
}

// broadcast sends m to every process, the sender included.
func broadcast[M any](out []chan<- M, m M) {
	for _, o := range out {
		o <- m
	}
}

// collect waits up to timeout for quorum messages of (epoch, step) that
// satisfy valid, one per sender, taking those of backlog (read ahead by the
// step before) first; ok is false on a time-out.
func collect(in <-chan Msg, backlog []Msg, epoch int, step Step, quorum int, timeout time.Duration, valid func(Msg) bool) (mbox map[int]Msg, ok bool) {
	mbox = make(map[int]Msg)
	deadline := time.After(timeout)
	for len(mbox) < quorum {
		var m Msg
		if len(backlog) > 0 {
			m, backlog = backlog[0], backlog[1:]
		} else {
			select {
			case m = <-in:
			case <-deadline:
				return mbox, false
			}
		}
		if m.Epoch != epoch || m.Step != step {
			continue // another epoch or step: drop it
		}
		if !valid(m) {
			continue
		}
		mbox[m.From] = m
	}
	return mbox, true
}

// supported returns the values that at least k messages of mbox carry.
func supported(mbox map[int]Msg, k int) ValSet {
	var s ValSet
	for b := 0; b <= 1; b++ {
		if tally(mbox, func(m Msg) bool { return m.Vals.Has(b) }) >= k {
			s |= Of(b)
		}
	}
	return s
}

// tally counts the messages of a mailbox that satisfy pred.
func tally[K comparable, M any](mbox map[K]M, pred func(M) bool) int {
	c := 0
	for _, m := range mbox {
		if pred(m) {
			c++
		}
	}
	return c
}

// union returns the union of the value sets of mbox.
func union(mbox map[int]Msg) ValSet {
	var s ValSet
	for _, m := range mbox {
		s |= m.Vals
	}
	return s
}
