package caspaxos

import "slices"

// Acceptor stores one copy of the register.
//
//sync:tag promised,step
type Acceptor struct {
	id  int
	net Network

	promised uint64 // the highest ballot promised (or accepted)
	step     Round

	acceptedBal uint64
	value       []string
}

// NewAcceptor returns acceptor id with an empty register.
func NewAcceptor(id int, net Network) *Acceptor {
	return &Acceptor{id: id, net: net}
}

// OnPrepare handles a Prepare: it promises the ballot unless it promised a
// higher one, or already answered this one.
//
//sync:handler
func (a *Acceptor) OnPrepare(m *Prepare) {
	if m.Bal < a.promised || m.Bal == a.promised && a.step > RoundPrepare {
		return // an older ballot, or this ballot's Prepare again
	}
	a.promised = m.Bal
	a.step = RoundPromise
	a.net.ToProposer(m.From, &Promise{Bal: a.promised, From: a.id,
		AcceptedBal: a.acceptedBal, Value: slices.Clone(a.value)})
}

// OnAccept handles an Accept: it accepts the value unless it promised a
// higher ballot, or already accepted in this one.
//
//sync:handler
func (a *Acceptor) OnAccept(m *Accept) {
	if m.Bal < a.promised || m.Bal == a.promised && a.step > RoundAccept {
		return
	}
	a.promised = m.Bal // a later ballot: this acceptor missed its Prepare
	a.step = RoundAccept
	a.acceptedBal = m.Bal
	a.value = slices.Clone(m.Value)
	a.step = RoundAccepted
	a.net.ToProposer(m.From, &Accepted{Bal: a.promised, From: a.id})
}

// Value returns the value the acceptor accepted last and its ballot.
func (a *Acceptor) Value() (uint64, []string) { return a.acceptedBal, slices.Clone(a.value) }
