// Package recv has the same non-lexicographic comparison of rounds in many
// places: it is reported only where the message compared is a received
// one (FP-3: a message read from storage, built locally or read back from
// the mailbox is no filter of received messages).
package recv

import "encoding/json"

// Msg is a message of the protocol.
//
//sync:msg Height,Round
type Msg struct {
	Height, Round uint64
}

// Net is the transport.
type Net interface {
	// Recv returns a received message.
	//
	//sync:recv
	Recv() (*Msg, bool)
}

// WAL is the replica's storage.
type WAL struct {
	entries [][]byte
	last    *Msg
}

// Last returns the last message written.
func (w *WAL) Last() *Msg { return w.last }

// Stale compares a stored message with a replica's round: WAL is no
// process type, so its exported methods do not receive messages, and
// nobody passes it a received one.
func (w *WAL) Stale(m *Msg, p *Proc) bool {
	return m.Round < p.round
}

// Proc is a replica.
type Proc struct {
	height, round uint64
	inbox         chan *Msg
	events        chan any
	raw           chan []byte
	net           Net
	wal           *WAL
	mailbox       []*Msg
	handle        func(*Msg) bool
}

// NewProc returns a replica that hands received messages to dispatched
// through a function value.
func NewProc() *Proc {
	p := &Proc{}
	p.handle = p.dispatched
	return p
}

// dispatched is called through the function value p.handle.
func (p *Proc) dispatched(m *Msg) bool {
	return m.Round >= p.round // want `advisory: Msg filter compares p.round without p.height`
}

// Run is the protocol loop.
func (p *Proc) Run() {
	//sync:tag p.height,p.round
	for {
		select {
		case m := <-p.inbox:
			// A filter in the loop itself.
			if m.Round < p.round { // want `advisory: Msg filter compares p.round without p.height`
				continue
			}
			p.mailbox = append(p.mailbox, m)
		case ev := <-p.events:
			if m, ok := ev.(*Msg); ok && p.late(m) {
				p.mailbox = append(p.mailbox, m)
			}
		case b := <-p.raw:
			p.decoded(b)
		}
		if m, ok := p.net.Recv(); ok && p.viaRecv(m) {
			p.mailbox = append(p.mailbox, m)
		}
		p.replay()
		p.fromMailbox()
		p.local()
		p.helper(p.wal.Last())
		p.watch()
		p.drain(p.inbox)
		p.round++
	}
}

// late is a helper predicate the loop calls with a received message (here
// type-asserted from a received event).
func (p *Proc) late(m *Msg) bool {
	return m.Round > p.round // want `advisory: Msg filter compares p.round without p.height`
}

// decoded decodes received bytes into a local message.
func (p *Proc) decoded(b []byte) {
	var m Msg
	if json.Unmarshal(b, &m) != nil {
		return
	}
	if m.Round >= p.round { // want `advisory: Msg filter compares p.round without p.height`
		p.mailbox = append(p.mailbox, &m)
	}
}

// viaRecv is called with what a //sync:recv function returned.
func (p *Proc) viaRecv(m *Msg) bool {
	return m.Round >= p.round // want `advisory: Msg filter compares p.round without p.height`
}

// replay compares messages read from storage: silent.
func (p *Proc) replay() {
	if m := p.wal.Last(); m != nil && m.Round < p.round {
		p.round = m.Round
	}
	var m Msg
	if json.Unmarshal(p.wal.entries[0], &m) == nil && m.Round < p.round {
		p.round = m.Round
	}
}

// fromMailbox compares messages read back from the mailbox: silent (the
// analysis does not follow messages through memory).
func (p *Proc) fromMailbox() {
	for _, m := range p.mailbox {
		if m.Round < p.round {
			return
		}
	}
}

// local compares a message it builds: silent.
func (p *Proc) local() bool {
	m := &Msg{Height: p.height, Round: p.round - 1}
	return m.Round < p.round
}

// helper is called only with a message read from storage: silent.
func (p *Proc) helper(m *Msg) bool {
	return m.Round >= p.round
}

// watch filters a received message in a closure.
func (p *Proc) watch() {
	m := <-p.inbox
	check := func() bool {
		return m.Round >= p.round // want `advisory: Msg filter compares p.round without p.height`
	}
	if check() && p.handle(m) {
		p.mailbox = append(p.mailbox, m)
	}
}

// drain ranges over a channel.
func (p *Proc) drain(ch chan *Msg) {
	for m := range ch {
		if m.Round < p.round { // want `advisory: Msg filter compares p.round without p.height`
			continue
		}
		p.mailbox = append(p.mailbox, m)
	}
}

// Deliver is how the transport hands the replica a message (go-ibft's
// AddMessage): an exported method of the process type, whose message
// parameter is a reception.
func (p *Proc) Deliver(m *Msg) {
	if p.acceptable(m) {
		p.inbox <- m
	}
}

// acceptable is go-ibft's isAcceptableMessage before its fix.
func (p *Proc) acceptable(m *Msg) bool {
	if p.height > m.Height {
		return false
	}
	return m.Round >= p.round // want `advisory: Msg filter compares p.round without p.height`
}

// Start spawns a listener: the process's code.
func (p *Proc) Start() {
	go p.listen()
}

func (p *Proc) listen() {
	for b := range p.raw {
		var m Msg
		if json.Unmarshal(b, &m) != nil {
			continue
		}
		if m.Round > p.round { // want `advisory: Msg filter compares p.round without p.height`
			p.inbox <- &m
		}
	}
}

// orphan receives, but is not the process's code (nothing calls it, and
// it is no entry method): silent.
func (p *Proc) orphan(ch chan *Msg) bool {
	m := <-ch
	return m.Round < p.round
}
