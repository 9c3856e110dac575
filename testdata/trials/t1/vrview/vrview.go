package vrview

import (
	"slices"
	"sync"
	"time"
)

// Replica is one VR replica.
type Replica struct {
	id      int
	n       int
	f       int
	in      chan Msg    //sync:inbox
	peers   []chan Msg  //sync:peers
	wire    *sync.Mutex // shared by the group: a broadcast is enqueued at once
	timeout time.Duration
	ops     []string // operations this replica orders when it is primary

	view int
	step Step

	log        []string
	commit     int // log[:commit] is committed
	lastNormal int
}

// NewGroup returns n = 2f+1 replicas connected by channels; replica i
// orders the operations ops[i] when it is primary.
func NewGroup(f int, timeout time.Duration, ops [][]string) []*Replica {
	n := 2*f + 1
	chans := make([]chan Msg, n)
	for i := range chans {
		chans[i] = make(chan Msg, 256)
	}
	wire := new(sync.Mutex)
	rs := make([]*Replica, n)
	for i := range rs {
		rs[i] = &Replica{id: i, n: n, f: f, in: chans[i], peers: chans, wire: wire, timeout: timeout, ops: slices.Clone(ops[i])}
	}
	return rs
}

// Committed returns the committed prefix of the log.
func (r *Replica) Committed() []string { return slices.Clone(r.log[:r.commit]) }

func (r *Replica) hdr() Header { return Header{View: r.view, From: r.id} }

func (r *Replica) send(to int, m Msg) {
	select {
	case r.peers[to] <- m:
	default:
	}
}

func (r *Replica) broadcast(m Msg) {
	r.wire.Lock()
	defer r.wire.Unlock()
	for to := range r.peers {
		r.send(to, m)
	}
}

// recv returns the next message, or false once t fires.
func (r *Replica) recv(t *time.Timer) (Msg, bool) {
	select {
	case m := <-r.in:
		return m, true
	case <-t.C:
		return nil, false
	}
}

// Run goes through at most maxViews views.
func (r *Replica) Run(maxViews int) {
	//sync:tag r.view,r.step
	for range maxViews {
		r.view++
		r.step = SVC
		r.broadcast(&StartViewChange{Hdr: r.hdr()})

		// Collect the others' STARTVIEWCHANGEs for this view or later.
		svcs := make(map[int]*StartViewChange)
		t := time.NewTimer(r.timeout)
		for len(svcs) < r.n-1 {
			m, ok := r.recv(t)
			if !ok {
				break
			}
			svc, isSVC := m.(*StartViewChange)
			if !isSVC || svc.Hdr.View < r.view || svc.Hdr.From == r.id {
				continue
			}
			svcs[svc.Hdr.From] = svc
		}
		t.Stop()
		// Join the latest view heard of, and go on if f others are there.
		for _, svc := range svcs {
			if svc.Hdr.View > r.view {
				r.view = svc.Hdr.View
			}
		}
		there := 0
		for _, svc := range svcs {
			if svc.Hdr.View == r.view {
				there++
			}
		}
		if there < r.f {
			continue
		}

		r.step = DVC
		primary := r.view % r.n
		r.send(primary, &DoViewChange{Hdr: r.hdr(), Log: slices.Clone(r.log), LastNormal: r.lastNormal, Commit: r.commit})
		if primary == r.id {
			dvcs := r.collectDVCs()
			if len(dvcs) < r.f+1 {
				continue
			}
			r.log, r.commit = newState(dvcs)
			r.step = SV
			r.broadcast(&StartView{Hdr: r.hdr(), Log: slices.Clone(r.log), Commit: r.commit})
		}

		r.step = SV
		var sv *StartView
		t = time.NewTimer(r.timeout)
		for sv == nil {
			m, ok := r.recv(t)
			if !ok {
				break
			}
			got, isSV := m.(*StartView)
			if !isSV || got.Hdr.View < r.view || got.Hdr.From != got.Hdr.View%r.n {
				continue
			}
			sv = got
		}
		t.Stop()
		if sv == nil {
			continue
		}
		r.view = sv.Hdr.View
		primary = r.view % r.n
		r.log = slices.Clone(sv.Log)
		r.commit = max(r.commit, min(sv.Commit, len(r.log)))
		r.lastNormal = r.view

		// Normal case: the primary orders one operation.
		r.step = Prep
		if primary == r.id && len(r.ops) > 0 {
			r.log = append(r.log, r.ops[0])
			r.ops = r.ops[1:]
			r.broadcast(&Prepare{Hdr: r.hdr(), OpNum: len(r.log), Op: r.log[len(r.log)-1]})
		}
		var prep *Prepare
		t = time.NewTimer(r.timeout)
		for prep == nil {
			m, ok := r.recv(t)
			if !ok {
				break
			}
			if p, isPrep := m.(*Prepare); isPrep && p.Hdr.View == r.view && p.Hdr.From == primary {
				prep = p
			}
		}
		t.Stop()
		if prep == nil {
			continue
		}
		if primary != r.id && prep.OpNum == len(r.log)+1 {
			r.log = append(r.log, prep.Op)
		}

		r.step = PrepOK
		r.send(primary, &PrepareOK{Hdr: r.hdr(), OpNum: len(r.log)})
		if primary == r.id && r.countOKs(prep.OpNum) > r.f {
			r.commit = prep.OpNum
		}

		r.step = Cmt
		if primary == r.id {
			r.broadcast(&Commit{Hdr: r.hdr(), Commit: r.commit})
		}
		if cm := r.awaitCommit(primary); cm != nil {
			r.commit = max(r.commit, min(cm.Commit, len(r.log)))
		}
	}
}

// collectDVCs collects the DOVIEWCHANGEs of the current view until f+1
// are in or the timer fires.
func (r *Replica) collectDVCs() map[int]*DoViewChange {
	dvcs := make(map[int]*DoViewChange)
	t := time.NewTimer(r.timeout)
	defer t.Stop()
	for len(dvcs) < r.f+1 {
		m, ok := r.recv(t)
		if !ok {
			break
		}
		if dvc, isDVC := m.(*DoViewChange); isDVC && dvc.Hdr.View == r.view {
			dvcs[dvc.Hdr.From] = dvc
		}
	}
	return dvcs
}

// countOKs counts the replicas that acknowledge the log up to opNum in
// the current view, waiting until f+1 did or the timer fires.
func (r *Replica) countOKs(opNum int) int {
	oks := make(map[int]bool)
	t := time.NewTimer(r.timeout)
	defer t.Stop()
	for len(oks) < r.f+1 {
		m, ok := r.recv(t)
		if !ok {
			break
		}
		if po, isOK := m.(*PrepareOK); isOK && po.Hdr.View == r.view && po.OpNum >= opNum {
			oks[po.Hdr.From] = true
		}
	}
	return len(oks)
}

// awaitCommit waits for the primary's COMMIT of the current view; nil if
// the timer fires first.
func (r *Replica) awaitCommit(primary int) *Commit {
	t := time.NewTimer(r.timeout)
	defer t.Stop()
	for {
		m, ok := r.recv(t)
		if !ok {
			return nil
		}
		if c, isC := m.(*Commit); isC && c.Hdr.View == r.view && c.Hdr.From == primary {
			return c
		}
	}
}

// newState picks the log of the DOVIEWCHANGE with the latest normal view,
// the longest among those, and the largest commit number (VR Revisited,
// Sec. 4.2, step 3).
func newState(dvcs map[int]*DoViewChange) ([]string, int) {
	var best *DoViewChange
	commit := 0
	for _, d := range dvcs {
		if best == nil || d.LastNormal > best.LastNormal || d.LastNormal == best.LastNormal && len(d.Log) > len(best.Log) {
			best = d
		}
		commit = max(commit, d.Commit)
	}
	return slices.Clone(best.Log), min(commit, len(best.Log))
}
