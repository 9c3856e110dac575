package vrrecovery

import (
	"slices"
	"testing"
)

type envelope struct {
	to int
	m  any
}

// cluster is n replicas over a FIFO in-memory network; down replicas
// neither send nor receive.
type cluster struct {
	reps  []*Replica
	queue []envelope
	down  map[int]bool
}

type port struct {
	c    *cluster
	from int
}

func (p port) send(to int, m any) {
	if !p.c.down[p.from] {
		p.c.queue = append(p.c.queue, envelope{to, m})
	}
}

func (p port) SendPrepare(to int, m Prepare)                   { p.send(to, m) }
func (p port) SendPrepareOK(to int, m PrepareOK)               { p.send(to, m) }
func (p port) SendStartViewChange(to int, m StartViewChange)   { p.send(to, m) }
func (p port) SendDoViewChange(to int, m DoViewChange)         { p.send(to, m) }
func (p port) SendStartView(to int, m StartView)               { p.send(to, m) }
func (p port) SendRecovery(to int, m Recovery)                 { p.send(to, m) }
func (p port) SendRecoveryResponse(to int, m RecoveryResponse) { p.send(to, m) }

func newCluster(n int) *cluster {
	c := &cluster{down: map[int]bool{}}
	for i := 0; i < n; i++ {
		c.reps = append(c.reps, NewReplica(i, n, port{c, i}))
	}
	return c
}

// settle delivers every queued message.
func (c *cluster) settle() {
	for len(c.queue) > 0 {
		e := c.queue[0]
		c.queue = c.queue[1:]
		if c.down[e.to] {
			continue
		}
		r := c.reps[e.to]
		switch m := e.m.(type) {
		case Prepare:
			r.OnPrepare(m)
		case PrepareOK:
			r.OnPrepareOK(m)
		case StartViewChange:
			r.OnStartViewChange(m)
		case DoViewChange:
			r.OnDoViewChange(m)
		case StartView:
			r.OnStartView(m)
		case Recovery:
			r.OnRecovery(m)
		case RecoveryResponse:
			r.OnRecoveryResponse(m)
		}
	}
}

// committedPrefixes checks that the committed parts of the live replicas'
// logs are prefixes of one another.
func (c *cluster) committedPrefixes(t *testing.T) {
	t.Helper()
	var longest []string
	for i, r := range c.reps {
		if c.down[i] {
			continue
		}
		log, commit := r.Log()
		a, b := log[:commit], longest
		if len(a) < len(b) {
			a, b = b, a
		}
		if !slices.Equal(a[:len(b)], b) {
			t.Fatalf("committed logs diverge: %v and %v", log[:commit], longest)
		}
		longest = a
	}
}

func expect(t *testing.T, r *Replica, view uint64, log []string, commit int) {
	t.Helper()
	gotLog, gotCommit := r.Log()
	if r.view != view || r.status != StatusNormal || r.recovering || !slices.Equal(gotLog, log) || gotCommit != commit {
		t.Fatalf("replica %d: view %d status %d recovering %v log %v commit %d; want view %d normal log %v commit %d",
			r.id, r.view, r.status, r.recovering, gotLog, gotCommit, view, log, commit)
	}
}

func TestViewChangeAndRecovery(t *testing.T) {
	c := newCluster(3)
	c.reps[0].OnRequest("a")
	c.reps[0].OnRequest("b")
	c.settle()
	c.committedPrefixes(t)
	expect(t, c.reps[0], 0, []string{"a", "b"}, 2)

	// The primary crashes with an operation nobody else saw.
	c.reps[0].OnRequest("c")
	c.down[0] = true
	c.queue = nil
	c.reps[1].OnTimeout()
	c.reps[2].OnTimeout()
	c.settle()
	c.committedPrefixes(t)
	expect(t, c.reps[1], 1, []string{"a", "b"}, 2)
	c.reps[1].OnRequest("d")
	c.settle()
	c.committedPrefixes(t)

	// Replica 0 restarts without its state and recovers from 1 and 2.
	delete(c.down, 0)
	c.reps[0] = Restart(0, 3, port{c, 0}, 42)
	c.settle()
	expect(t, c.reps[0], 1, []string{"a", "b", "d"}, 3)
	c.reps[1].OnRequest("e")
	c.settle()
	c.committedPrefixes(t)
	for _, r := range c.reps {
		log, _ := r.Log()
		if !slices.Equal(log, []string{"a", "b", "d", "e"}) {
			t.Fatalf("replica %d log %v", r.id, log)
		}
	}
}

func TestStaleRecoveryResponseDropped(t *testing.T) {
	c := newCluster(3)
	r := Restart(0, 3, port{c, 0}, 7)
	c.queue = nil
	r.OnRecoveryResponse(RecoveryResponse{View: 2, From: 1, Nonce: 7})
	r.OnRecoveryResponse(RecoveryResponse{View: 1, From: 2, Nonce: 7, Primary: true, Log: []string{"x"}, Commit: 1})
	if !r.recovering || r.view != 2 || len(r.responses) != 1 {
		t.Fatalf("after a view-1 answer in view 2: recovering %v view %d responses %d", r.recovering, r.view, len(r.responses))
	}
	r.OnRecoveryResponse(RecoveryResponse{View: 2, From: 2, Nonce: 7, Primary: true, Log: []string{"x", "y"}, Commit: 2})
	expect(t, r, 2, []string{"x", "y"}, 2)
}
