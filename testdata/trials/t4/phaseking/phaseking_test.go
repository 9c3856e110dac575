package phaseking

import (
	"testing"
	"time"
)

type envelope struct {
	to int
	m  Msg
}

// network is a FIFO in-memory network of n processes.
type network struct {
	queue []envelope
	n     int
}

type port struct{ nw *network }

func (p port) Broadcast(m Msg) {
	for to := 0; to < p.nw.n; to++ {
		p.nw.queue = append(p.nw.queue, envelope{to, m})
	}
}

// adversary is process 0, Byzantine: in every round, once all correct
// processes are in it, it sends value(to, phase, round) to each process.
type adversary func(to, phase int, round Round) int

// run runs processes 1..n-1 with the given initial values (prefs[0] is
// unused) against the adversary, delivering in FIFO order and firing the
// round time-outs when the network is quiet, and returns the correct
// processes.
func run(t *testing.T, f int, prefs []int, adv adversary) []*Process {
	t.Helper()
	n := len(prefs)
	nw := &network{n: n}
	ps := make([]*Process, n)
	for i := 1; i < n; i++ {
		ps[i] = NewProcess(i, n, f, port{nw}, prefs[i])
	}
	for i := 1; i < n; i++ {
		ps[i].Start()
	}
	sent := map[[2]int]bool{}
	done := func() bool {
		for _, p := range ps[1:] {
			if !p.Decided {
				return false
			}
		}
		return true
	}
	for steps := 0; !done(); steps++ {
		if steps > 10000 {
			t.Fatal("no decision")
		}
		// The adversary speaks in a round once every correct process is in it.
		phase, round := ps[1].phase, ps[1].round
		same := true
		for i := 2; i < n; i++ {
			same = same && ps[i].phase == phase && ps[i].round == round
		}
		if key := [2]int{phase, int(round)}; same && !sent[key] {
			sent[key] = true
			for to := 1; to < n; to++ {
				nw.queue = append(nw.queue, envelope{to, Msg{Phase: phase, Round: round, From: 0, Value: adv(to, phase, round)}})
			}
		}
		if len(nw.queue) == 0 {
			for i := 1; i < n; i++ {
				ps[i].OnRoundTimeout()
			}
			continue
		}
		e := nw.queue[0]
		nw.queue = nw.queue[1:]
		if e.to != 0 {
			ps[e.to].OnMessage(e.m)
		}
	}
	return ps[1:]
}

func decisions(t *testing.T, ps []*Process) []int {
	t.Helper()
	var d []int
	for _, p := range ps {
		if !p.Decided {
			t.Fatalf("process %d did not decide", p.id)
		}
		d = append(d, p.Decision)
	}
	return d
}

func TestByzantineKingEquivocates(t *testing.T) {
	// Process 0 is the king of phase 0 and tells 1, 2 "0" and 3, 4 "1" in
	// both of its rounds; in phase 1 it says 1 to everybody. The correct
	// king of phase 1, process 1, sees a majority of 1 and everybody
	// adopts it.
	adv := func(to, phase int, round Round) int {
		if phase == 0 && to <= 2 {
			return 0
		}
		return 1
	}
	ps := run(t, 1, []int{0, 1, 0, 1, 0}, adv)
	for i, d := range decisions(t, ps) {
		if d != 1 {
			t.Fatalf("process %d decided %d, want 1", i+1, d)
		}
	}
}

func TestValidity(t *testing.T) {
	// All correct processes start with 1: a majority of at least 4 of 5
	// keeps 1 whatever the Byzantine king says.
	adv := func(to, phase int, round Round) int { return 0 }
	ps := run(t, 1, []int{0, 1, 1, 1, 1}, adv)
	for i, d := range decisions(t, ps) {
		if d != 1 {
			t.Fatalf("process %d decided %d, want 1", i+1, d)
		}
	}
}

type chanNet []chan Msg

func (c chanNet) Broadcast(m Msg) {
	for _, ch := range c {
		ch <- m
	}
}

func TestRunEventLoop(t *testing.T) {
	// Five correct processes over channels: every round ends when all were
	// heard from, so the (long) timer never fires. Initial values 1,1,0,0,0
	// give everybody a majority of 0 with multiplicity 3, not above
	// n/2+f = 3, so king 0's majority, 0, is adopted.
	n := 5
	net := make(chanNet, n)
	for i := range net {
		net[i] = make(chan Msg, 64)
	}
	prefs := []int{1, 1, 0, 0, 0}
	got := make(chan int, n)
	for i := 0; i < n; i++ {
		p := NewProcess(i, n, 1, net, prefs[i])
		go func() { got <- p.Run(net[i], 10*time.Second) }()
	}
	for i := 0; i < n; i++ {
		if d := <-got; d != 0 {
			t.Fatalf("decision %d, want 0", d)
		}
	}
}
