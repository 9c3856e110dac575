package paxos

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/ccvet/ccvet/compho/explore"
)

// The explorations of the protocol, run by `ccvet explore ./examples/paxos`
// (and by TestExplore): 3 processes, 3 ballots of 4 rounds each, on the
// machine that `ccvet makeho` generated in paxos_compho.go.

// ballots is the number of phases the processes run: the bug of Run needs
// two (one to commit c1 without process 0, one in which c2 replaces it), a
// third shows that the fixed protocol stays clean one ballot further.
const ballots = 3

// machines returns the initial state: n processes, each running ballots
// phases, the leader of a ballot proposing the command "c<id>".
func machines(n int) []*RunMachine {
	nw := NewNetwork(n, 0) // only its size is used: the runtime carries the messages
	ms := make([]*RunMachine, n)
	for i := range ms {
		cmd := fmt.Sprintf("c%d", i)
		p := NewProcess(Config{ID: i, Net: nw, NewCommand: func() string { return cmd }, Timeout: time.Second})
		ms[i] = NewRunMachine(p, ballots)
	}
	return ms
}

// errAgreement is the violation of the specification.
var errAgreement = errors.New("two outputs are not prefixes of one another")

// agreement is the specification of the protocol (see the package
// documentation): any two logs output, by one process or by two, are
// prefixes of one another.
func agreement(v explore.View[*RunMachine]) error {
	var outs [][]string
	var who []int
	for i, m := range v.Procs {
		for _, o := range m.p.outputs {
			outs = append(outs, o)
			who = append(who, i)
		}
	}
	for i, a := range outs {
		for j, b := range outs[:i] {
			k := min(len(a), len(b))
			if !slices.Equal(a[:k], b[:k]) {
				return fmt.Errorf("%w: process %d output %q, process %d output %q", errAgreement, who[j], b, who[i], a)
			}
		}
	}
	return nil
}

// exploreIsolation explores every execution in which at most one process
// is isolated (hears nothing and is heard by nobody) from some round to
// the end of its ballot: the d = 1, k = 4 lossy-synchronous executions of
// the testing paper, which suffice for the bug of Run.
//
//ccvet:explore
func exploreIsolation() explore.Model[*RunMachine] {
	return explore.Model[*RunMachine]{
		Initial:    [][]*RunMachine{machines(3)},
		Network:    explore.Isolations(1, 4),
		MaxSteps:   4 * ballots,
		Invariants: []explore.Invariant[*RunMachine]{{Name: "agreement", Check: agreement}},
	}
}
