package main_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/ccvet/ccvet/internal/testenv"
)

// BenchmarkStandaloneVsGoVet runs the standalone command (ccvet ./...)
// and go vet -vettool=ccvet on the same 80-line module, one after the
// other in each iteration, and reports the time of each per run
// (standalone-ms/op, govet-ms/op) and their ratio (standalone/govet).
// The build cache is warmed first, so that both find the export data (and
// go vet the vet facts) of the standard library there, as on a developer's
// machine.
//
// In "edited", the package is changed before each run, as when a user
// checks an edit: neither tool can answer from a cache. In "unchanged",
// go vet answers from its cache of vet results; the standalone command
// has no such cache.
func BenchmarkStandaloneVsGoVet(b *testing.B) {
	for _, edited := range []bool{true, false} {
		name := "unchanged"
		if edited {
			name = "edited"
		}
		b.Run(name, func(b *testing.B) {
			dir := testenv.TempModule(b, "example.com/vote", map[string]string{"vote/vote.go": voteGo})
			edits := 0
			edit := func() {
				if edited {
					edits++
					testenv.WriteFiles(b, dir, map[string]string{"vote/vote.go": voteGo + fmt.Sprintf("\n// Edit %d.\n", edits)})
				}
			}
			check := func(name string, args ...string) time.Duration {
				edit()
				start := time.Now()
				stdout, stderr, code := run(b, dir, name, args...)
				d := time.Since(start)
				if code != 0 || stdout != "" || stderr != "" {
					b.Fatalf("%s %v in %s: exit %d, stdout %q, stderr %q; want exit 0 and no output", filepath.Base(name), args, dir, code, stdout, stderr)
				}
				return d
			}
			standalone := func() time.Duration { return check(ccvet, "./...") }
			govet := func() time.Duration { return check("go", "vet", "-vettool="+ccvet, "./...") }
			standalone()
			govet()
			b.ResetTimer()
			var s, v time.Duration
			for range b.N {
				s += standalone()
				v += govet()
			}
			n := float64(b.N)
			b.ReportMetric(float64(s.Milliseconds())/n, "standalone-ms/op")
			b.ReportMetric(float64(v.Milliseconds())/n, "govet-ms/op")
			b.ReportMetric(float64(s)/float64(v), "standalone/govet")
		})
	}
}

// voteGo is the package of the benchmark's module: a two-round protocol
// with one tagged loop, a //sync:send and a //sync:recv function, on
// which ccvet finds nothing.
const voteGo = `// Package vote is a two-round protocol: in each ballot the leader proposes
// a value and every process that hears it acknowledges it.
package vote

import (
	"fmt"
	"time"
)

// Step is the round inside a ballot.
type Step int

// The rounds of a ballot, in order.
const (
	Propose Step = iota
	Ack
)

// Msg is the message of both rounds.
//
//sync:msg Ballot,Step
type Msg struct {
	Ballot int
	Step   Step
	Value  string
}

// Node is one process.
type Node struct {
	id, n  int
	ballot int
	step   Step
	inbox  chan Msg
	peers  []chan Msg
	chosen []string
}

// broadcast sends m to every peer that has room for it.
//
//sync:send
func (p *Node) broadcast(m Msg) {
	for _, c := range p.peers {
		select {
		case c <- m:
		default:
		}
	}
}

// recv waits for one message until the deadline.
//
//sync:recv
func (p *Node) recv(deadline time.Time) (Msg, bool) {
	select {
	case m := <-p.inbox:
		return m, true
	case <-time.After(time.Until(deadline)):
		return Msg{}, false
	}
}

// Run executes the given number of ballots.
func (p *Node) Run(ballots int, timeout time.Duration) {
	//sync:tag p.ballot,p.step
	for b := 0; b < ballots; b++ {
		p.ballot++
		p.step = Propose
		if p.ballot%p.n == p.id {
			p.broadcast(Msg{Ballot: p.ballot, Step: p.step, Value: fmt.Sprint(p.ballot)})
		}
		m, ok := p.recv(time.Now().Add(timeout))
		if !ok || m.Ballot != p.ballot || m.Step != p.step {
			continue
		}
		p.chosen = append(p.chosen, m.Value)
		p.step = Ack
		p.broadcast(Msg{Ballot: p.ballot, Step: p.step, Value: m.Value})
	}
}
`
