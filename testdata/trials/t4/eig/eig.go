package eig

import (
	"fmt"
	"strings"
	"time"
)

// Default is the value a node takes when a relay is missing or its children
// have no strict majority (Lynch's v0).
const Default = ""

// Config describes the system a process runs in.
type Config struct {
	ID, N, F int           // this process, the number of processes, the faults tolerated
	Net      Transport     // the network
	Timeout  time.Duration // how long a round waits for missing relays
}

// Agree runs one EIG agreement per entry of inputs, with inputs[s] as this
// process's input in slot s, and returns the decisions. Labels are strings
// of decimal digits, so at most 10 processes are supported.
func Agree(cfg Config, inputs []string) ([]string, error) {
	if cfg.N < 1 || cfg.N > 10 || cfg.N <= 3*cfg.F || cfg.ID < 0 || cfg.ID >= cfg.N {
		return nil, fmt.Errorf("eig: need 0 <= id < n <= 10 and n > 3f, got id=%d n=%d f=%d", cfg.ID, cfg.N, cfg.F)
	}
	if len(inputs) == 0 {
		return nil, nil
	}
	var decisions []string
	tree := map[string]string{"": inputs[0]}
	slot, r := 0, 1
	//sync:tag slot,r
	for slot < len(inputs) {
		level := r - 1
		cfg.Net.Broadcast(Relay{Slot: slot, Round: r, From: cfg.ID, Values: relayed(tree, level, cfg.ID)})

		got := make(map[int]Relay)
		deadline := time.Now().Add(cfg.Timeout)
		for len(got) < cfg.N {
			m, ok := cfg.Net.Recv(deadline)
			if !ok {
				break // the round is over: the silent ones are faulty
			}
			if m.Slot != slot || m.Round != r || m.From < 0 || m.From >= cfg.N {
				continue
			}
			got[m.From] = m
		}
		extend(tree, got, level, cfg.N)

		if r <= cfg.F {
			r++
			continue
		}
		decisions = append(decisions, resolve(tree, "", cfg.N, cfg.F+1))
		slot++
		r = 1
		if slot < len(inputs) {
			tree = map[string]string{"": inputs[slot]}
		}
	}
	return decisions, nil
}

// relayed returns the values of the nodes of the given level whose labels
// do not contain id: what process id relays in round level+1.
func relayed(tree map[string]string, level, id int) map[string]string {
	out := make(map[string]string)
	for label, v := range tree {
		if len(label) == level && !strings.ContainsRune(label, rune('0'+id)) {
			out[label] = v
		}
	}
	return out
}

// extend adds the level level+1 of the tree from the relays of a round: for
// every label x of the given level and every process j not in x, node xj
// takes the value j relayed for x, or Default if j sent nothing for it.
func extend(tree map[string]string, got map[int]Relay, level, n int) {
	var labels []string
	for label := range tree {
		if len(label) == level {
			labels = append(labels, label)
		}
	}
	for _, x := range labels {
		for j := range n {
			name := rune('0' + j)
			if strings.ContainsRune(x, name) {
				continue
			}
			v, ok := got[j].Values[x]
			if !ok {
				v = Default
			}
			tree[x+string(name)] = v
		}
	}
}

// resolve returns the resolved value of node x of a tree of the given depth:
// its own value at a leaf, else the strict majority of its children's
// resolved values, or Default.
func resolve(tree map[string]string, x string, n, depth int) string {
	if len(x) == depth {
		return tree[x]
	}
	counts := make(map[string]int)
	children := 0
	for j := range n {
		name := rune('0' + j)
		if strings.ContainsRune(x, name) {
			continue
		}
		children++
		counts[resolve(tree, x+string(name), n, depth)]++
	}
	for v, c := range counts {
		if 2*c > children {
			return v
		}
	}
	return Default
}
