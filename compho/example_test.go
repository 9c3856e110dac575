package compho_test

import (
	"fmt"

	"github.com/ccvet/ccvet/compho"
)

// maxFlood is a one-round protocol: every process broadcasts the largest
// value it knows, for two phases.
type maxFlood struct {
	v      int
	phases int
}

func (m *maxFlood) Rounds() []compho.Round {
	return []compho.Round{{
		Name: "Flood",
		Send: func(c *compho.Ctx) { c.Broadcast(m.v) },
		Update: func(c *compho.Ctx, mbox compho.Mailbox) {
			for _, e := range mbox {
				m.v = max(m.v, e.Msg.(int))
			}
			m.phases++
		},
	}}
}

func (m *maxFlood) Halted() bool { return m.phases == 2 }

func values(ps []*maxFlood) []int {
	vs := make([]int, len(ps))
	for i, p := range ps {
		vs[i] = p.v
	}
	return vs
}

func Example() {
	procs := []*maxFlood{{v: 3}, {v: 9}, {v: 4}}
	res, err := compho.Run(procs, compho.Config[*maxFlood]{
		Observers: []compho.Observer[*maxFlood]{func(s compho.Step, ps []*maxFlood) error {
			fmt.Println("step", s.Index, values(ps))
			return nil
		}},
	})
	fmt.Println(res.Steps, "steps,", res.Delivered, "of", res.Sent, "messages delivered, error:", err)
	// Output:
	// step 0 [9 9 9]
	// step 1 [9 9 9]
	// 2 steps, 18 of 18 messages delivered, error: <nil>
}

func ExampleScripted() {
	procs := []*maxFlood{{v: 3}, {v: 9}, {v: 4}}
	adv := compho.Scripted([]map[compho.PID][]compho.PID{
		{0: {0}, 2: {1, 2}}, // step 0: process 0 hears only itself, 1 hears all
		{0: {0, 2}},         // step 1: process 0 does not hear process 1
	}, nil)
	_, err := compho.Run(procs, compho.Config[*maxFlood]{
		Adversary: adv,
		Observers: []compho.Observer[*maxFlood]{func(s compho.Step, ps []*maxFlood) error {
			fmt.Println("step", s.Index, values(ps))
			return nil
		}},
	})
	fmt.Println(err)
	// Output:
	// step 0 [3 9 9]
	// step 1 [9 9 9]
	// <nil>
}

// caller runs two rounds per phase, for two phases; in the first round of
// phase 0, process 0 calls a callee, and process 1 waits for it to return.
type caller struct{ phases int }

func (m *caller) Rounds() []compho.Round {
	return []compho.Round{
		{Name: "A", Update: func(c *compho.Ctx, _ compho.Mailbox) {
			if c.Self() == 0 && c.Phase() == 0 {
				c.Call(&callee{})
			}
		}},
		{Name: "B", Update: func(c *compho.Ctx, _ compho.Mailbox) { m.phases++ }},
	}
}

func (m *caller) Halted() bool { return m.phases == 2 }

// callee runs one round per phase, for two phases.
type callee struct{ phases int }

func (m *callee) Rounds() []compho.Round {
	return []compho.Round{{Name: "X", Update: func(*compho.Ctx, compho.Mailbox) { m.phases++ }}}
}

func (m *callee) Halted() bool { return m.phases == 2 }

func ExampleCtx_Call() {
	procs := []*caller{{}, {}}
	_, err := compho.Run(procs, compho.Config[*caller]{
		Observers: []compho.Observer[*caller]{func(s compho.Step, ps []*caller) error {
			fmt.Printf("step %d: %v, %v\n", s.Index, s.Position(0), s.Position(1))
			return nil
		}},
	})
	fmt.Println(err)
	// Output:
	// step 0: 0:*compho_test.caller[0].A, 0:*compho_test.caller[0].A
	// step 1: 1:*compho_test.callee[0].X, 0:*compho_test.caller[0].B (waiting)
	// step 2: 1:*compho_test.callee[1].X, 0:*compho_test.caller[0].B (waiting)
	// step 3: 0:*compho_test.caller[0].B, 0:*compho_test.caller[0].B
	// step 4: 0:*compho_test.caller[1].A, 0:*compho_test.caller[1].A
	// step 5: 0:*compho_test.caller[1].B, 0:*compho_test.caller[1].B
	// <nil>
}

func ExampleLossySync() {
	// 3 processes, 8 steps cut into periods of 4, 2 isolations: process 0
	// from step 3 to the end of the first period, process 1 from step 5 to
	// the end of the second.
	adv, err := compho.LossySync(7, 3, 8, 2, 4)
	if err != nil {
		panic(err)
	}
	for s := range 8 {
		fmt.Printf("step %d:", s)
		for p := range compho.PID(3) {
			fmt.Print(" ", adv.HeardOf(compho.Step{Index: s}, p, []compho.PID{0, 1, 2}))
		}
		fmt.Println()
	}
	// Output:
	// step 0: [0 1 2] [0 1 2] [0 1 2]
	// step 1: [0 1 2] [0 1 2] [0 1 2]
	// step 2: [0 1 2] [0 1 2] [0 1 2]
	// step 3: [] [1 2] [1 2]
	// step 4: [0 1 2] [0 1 2] [0 1 2]
	// step 5: [0 2] [] [0 2]
	// step 6: [0 2] [] [0 2]
	// step 7: [0 2] [] [0 2]
}
