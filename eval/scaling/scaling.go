// Package scaling generates round-based protocols of a chosen size, for
// measuring how the cost of ccvet's analysis grows with the number of
// rounds R of an iteration and the number T of message types a reception
// tells apart (scaling_test.go has the benchmark).
//
// A generated protocol is written as a user of ccvet would write it: a
// process struct holding the tag (phase, step), a send helper and a
// collect helper called once in each round, a reception that filters a
// type switch of T message types on the current tag, and the round reset
// at the end of the iteration (p.phase++; p.step = Step0). It is
// communication-closed: every message is sent with the current tag, only
// messages of the current round are kept, in a local mailbox, and the tag
// only grows.
package scaling

import (
	"bytes"
	"fmt"
	"go/format"
)

// Protocol returns the source of package pkg, a protocol of rounds
// rounds per phase whose messages are of types distinct types (round i
// sends the type i mod types). Both must be at least 1.
func Protocol(pkg string, rounds, types int) ([]byte, error) {
	if rounds < 1 || types < 1 {
		return nil, fmt.Errorf("scaling: want at least one round and one message type, got R=%d T=%d", rounds, types)
	}
	var b bytes.Buffer
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("// Package %s is a generated protocol of %d rounds per phase and %d message types.\n", pkg, rounds, types)
	w("package %s\n\n", pkg)
	w("// Step is the round within a phase.\ntype Step int\n\n")
	w("// The rounds of a phase, in order.\nconst (\n\tStep0 Step = iota\n")
	for i := 1; i < rounds; i++ {
		w("\tStep%d\n", i)
	}
	w(")\n\n")
	for k := range types {
		w("// Msg%d is a message of the rounds i with i mod %d = %d.\n//\n//sync:msg Phase,Step\n", k, types, k)
		w("type Msg%d struct {\n\tPhase int\n\tStep  Step\n\tFrom  int\n\tVal   int\n}\n\n", k)
	}
	w(`// Net connects a process to the others.
type Net interface {
	// Broadcast sends m to every process.
	//
	//sync:send
	Broadcast(m any)

	// Recv returns the next message; ok is false on a timeout.
	//
	//sync:recv
	Recv() (m any, ok bool)
}

// Proc is one process.
type Proc struct {
	id, n int
	net   Net
	phase int
	step  Step
	val   int
}

// broadcast sends m to every process.
func (p *Proc) broadcast(m any) {
	p.net.Broadcast(m)
}

// collect receives until it holds the values of a majority for the
// current round, or times out, and returns them.
func (p *Proc) collect() []int {
	var vals []int
	for len(vals) <= p.n/2 {
		m, ok := p.net.Recv()
		if !ok {
			break
		}
		switch m := m.(type) {
`)
	for k := range types {
		w("\t\tcase Msg%d:\n\t\t\tif m.Phase == p.phase && m.Step == p.step {\n\t\t\t\tvals = append(vals, m.Val)\n\t\t\t}\n", k)
	}
	w(`		}
	}
	return vals
}

// pick returns the smallest value received, or def if none was.
func pick(vals []int, def int) int {
	if len(vals) == 0 {
		return def
	}
	v := vals[0]
	for _, x := range vals[1:] {
		if x < v {
			v = x
		}
	}
	return v
}

// Run runs phases phases.
func (p *Proc) Run(phases int) {
	p.phase, p.step = 0, Step0
	//sync:tag p.phase,p.step
	for p.phase < phases {
`)
	for i := range rounds {
		if i > 0 {
			w("\t\tp.step = Step%d\n", i)
		}
		w("\t\tp.broadcast(Msg%d{Phase: p.phase, Step: p.step, From: p.id, Val: p.val})\n", i%types)
		w("\t\tp.val = pick(p.collect(), p.val)\n")
	}
	w("\t\tp.phase++\n\t\tp.step = Step0\n\t}\n}\n")
	return format.Source(b.Bytes())
}
