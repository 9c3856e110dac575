package compho

import (
	"strings"
	"testing"
)

// retM is a one-round machine that calls a nested machine in its first
// phase and halts when that machine returns (Returned), not before.
type retM struct {
	inner    Machine
	log      *[]string
	returned bool
	send     bool // Returned tries to send
}

func (m *retM) Rounds() []Round {
	return []Round{{Name: "R", Update: func(c *Ctx, _ Mailbox) {
		if c.Phase() == 0 {
			c.Call(m.inner)
		}
	}}}
}

func (m *retM) Halted() bool { return m.returned }

func (m *retM) Returned(c *Ctx, nested Machine) {
	*m.log = append(*m.log, "returned "+strings.TrimPrefix(c.pos.Machine, "*compho.")+" from "+typeName(nested))
	if m.send {
		c.Send(0, "x")
	}
	m.returned = true
}

func typeName(m Machine) string {
	switch m.(type) {
	case *innerM:
		return "inner"
	}
	return "?"
}

func TestReturned(t *testing.T) {
	var log []string
	in := &innerM{tm{names: []string{"a"}, phases: 2}}
	m := &retM{inner: in, log: &log}
	res, err := Run([]*retM{m}, Config[*retM]{})
	if err != nil {
		t.Fatal(err)
	}
	// Step 0: R calls; steps 1 and 2: the inner machine's two phases, after
	// which it returns and the caller halts.
	if res.Steps != 3 || len(log) != 1 || log[0] != "returned retM from inner" {
		t.Errorf("steps %d, log %q; want 3 steps and one return", res.Steps, log)
	}

	// A nested machine halted at its start returns at once.
	log = nil
	m = &retM{inner: &innerM{tm{names: []string{"a"}, phases: 0}}, log: &log}
	if res, err = Run([]*retM{m}, Config[*retM]{}); err != nil || res.Steps != 1 || len(log) != 1 {
		t.Errorf("halted at start: steps %d, err %v, log %q; want 1 step and one return", res.Steps, err, log)
	}

	// Returned may not send.
	log = nil
	m = &retM{inner: &innerM{tm{names: []string{"a"}, phases: 1}}, log: &log, send: true}
	_, err = Run([]*retM{m}, Config[*retM]{})
	if err == nil || !strings.Contains(err.Error(), "Returned") {
		t.Errorf("send in Returned: err %v, want a ProtocolError in Returned", err)
	}
}
