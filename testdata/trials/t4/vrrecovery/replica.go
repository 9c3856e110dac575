package vrrecovery

import "slices"

// Replica is one Viewstamped Replication replica: normal operation, view
// change and recovery of a replica that restarted without its state.
//
//sync:tag view,status
type Replica struct {
	id, n  int
	view   uint64
	status Status
	net    Transport

	log        []string
	commit     int
	lastNormal uint64

	recovering bool
	nonce      uint64

	// Mailboxes of the current (view, status), emptied by enterView.
	svc       map[int]bool
	dvc       map[int]DoViewChange
	acks      map[int]map[int]bool // op number -> replicas that prepared it
	responses map[int]RecoveryResponse
}

// NewReplica returns replica id of n, normal in view 0.
func NewReplica(id, n int, net Transport) *Replica {
	r := &Replica{id: id, n: n, net: net}
	r.enterView(0, StatusNormal)
	return r
}

// Restart returns replica id after a crash that lost its state: it asks
// the others for their state with a fresh nonce and takes no part in the
// protocol until it has recovered.
func Restart(id, n int, net Transport, nonce uint64) *Replica {
	r := &Replica{id: id, n: n, net: net, recovering: true, nonce: nonce}
	r.enterView(0, StatusNormal)
	for to := 0; to < n; to++ {
		if to != id {
			r.net.SendRecovery(to, Recovery{From: id, Nonce: nonce})
		}
	}
	return r
}

// Log returns the replica's log and commit number.
func (r *Replica) Log() ([]string, int) { return slices.Clone(r.log), r.commit }

func (r *Replica) f() int { return (r.n - 1) / 2 }

func (r *Replica) primary(v uint64) int { return int(v % uint64(r.n)) }

// enterView moves to status of view v and empties the mailboxes.
func (r *Replica) enterView(v uint64, status Status) {
	r.view, r.status = v, status
	r.svc = map[int]bool{}
	r.dvc = map[int]DoViewChange{}
	r.acks = map[int]map[int]bool{}
	r.responses = map[int]RecoveryResponse{}
}

// OnRequest appends a client operation at the primary.
//
//sync:handler
func (r *Replica) OnRequest(op string) {
	if r.recovering || r.status != StatusNormal || r.primary(r.view) != r.id {
		return
	}
	r.log = append(r.log, op)
	for to := 0; to < r.n; to++ {
		if to != r.id {
			r.net.SendPrepare(to, Prepare{View: r.view, OpNum: len(r.log), Op: op, Commit: r.commit})
		}
	}
}

// OnPrepare appends the primary's operation. A Prepare of a later view, or
// one that leaves a gap, would need a state transfer, which is left out: it
// is dropped.
//
//sync:handler
func (r *Replica) OnPrepare(m Prepare) {
	if r.recovering || m.View != r.view || r.status != StatusNormal || m.OpNum != len(r.log)+1 {
		return
	}
	r.log = append(r.log, m.Op)
	r.commit = max(r.commit, min(m.Commit, len(r.log)))
	r.net.SendPrepareOK(r.primary(r.view), PrepareOK{View: r.view, OpNum: m.OpNum, From: r.id})
}

// OnPrepareOK commits an operation at the primary once f backups have it.
//
//sync:handler
func (r *Replica) OnPrepareOK(m PrepareOK) {
	if r.recovering || m.View != r.view || r.status != StatusNormal || r.primary(r.view) != r.id {
		return
	}
	if r.acks[m.OpNum] == nil {
		r.acks[m.OpNum] = map[int]bool{}
	}
	r.acks[m.OpNum][m.From] = true
	if len(r.acks[m.OpNum]) >= r.f() {
		r.commit = max(r.commit, m.OpNum)
	}
}

// OnTimeout is called when a backup has not heard from the primary: it
// starts a view change to the next view.
//
//sync:handler
func (r *Replica) OnTimeout() {
	if r.recovering {
		return
	}
	r.startViewChange(r.view + 1)
}

func (r *Replica) startViewChange(v uint64) {
	r.enterView(v, StatusStartViewChange)
	for to := 0; to < r.n; to++ {
		if to != r.id {
			r.net.SendStartViewChange(to, StartViewChange{View: r.view, From: r.id})
		}
	}
}

// OnStartViewChange joins a view change; with f others in it, the replica
// hands its log to the new primary.
//
//sync:handler
func (r *Replica) OnStartViewChange(m StartViewChange) {
	if r.recovering || m.View < r.view || (m.View == r.view && r.status != StatusStartViewChange) {
		return
	}
	if m.View > r.view {
		r.startViewChange(m.View)
	}
	r.svc[m.From] = true
	if len(r.svc) < r.f() {
		return
	}
	r.status = StatusDoViewChange
	r.svc = map[int]bool{}
	r.net.SendDoViewChange(r.primary(r.view), DoViewChange{View: r.view, From: r.id, Log: slices.Clone(r.log), LastNormal: r.lastNormal, Commit: r.commit})
}

// OnDoViewChange collects logs at the new primary; from f+1 of them it
// takes the log of the latest normal view, the longest among those.
//
//sync:handler
func (r *Replica) OnDoViewChange(m DoViewChange) {
	if r.recovering || r.primary(m.View) != r.id {
		return
	}
	if m.View < r.view || (m.View == r.view && r.status > StatusDoViewChange) {
		return
	}
	if m.View > r.view || r.status < StatusDoViewChange {
		r.enterView(m.View, StatusDoViewChange)
	}
	r.dvc[m.From] = m
	if len(r.dvc) < r.f()+1 {
		return
	}
	var best DoViewChange
	commit := 0
	for _, d := range r.dvc {
		if d.LastNormal > best.LastNormal || (d.LastNormal == best.LastNormal && len(d.Log) > len(best.Log)) {
			best = d
		}
		commit = max(commit, d.Commit)
	}
	r.log, r.commit = slices.Clone(best.Log), commit
	r.status, r.lastNormal = StatusNormal, r.view
	r.dvc = map[int]DoViewChange{}
	for to := 0; to < r.n; to++ {
		if to != r.id {
			r.net.SendStartView(to, StartView{View: r.view, Log: slices.Clone(r.log), Commit: r.commit})
		}
	}
}

// OnStartView installs the new primary's log and acknowledges what is not
// yet committed.
//
//sync:handler
func (r *Replica) OnStartView(m StartView) {
	if r.recovering || m.View < r.view || (m.View == r.view && r.status == StatusNormal) {
		return
	}
	r.enterView(m.View, StatusNormal)
	r.log, r.commit, r.lastNormal = slices.Clone(m.Log), m.Commit, m.View
	for op := r.commit + 1; op <= len(r.log); op++ {
		r.net.SendPrepareOK(r.primary(r.view), PrepareOK{View: r.view, OpNum: op, From: r.id})
	}
}

// OnRecovery answers a restarted replica, if this one is normal. It does
// not change this replica's state.
//
//sync:handler
func (r *Replica) OnRecovery(m Recovery) {
	if r.recovering || r.status != StatusNormal {
		return
	}
	resp := RecoveryResponse{View: r.view, From: r.id, Nonce: m.Nonce}
	if r.primary(r.view) == r.id {
		resp.Primary, resp.Log, resp.Commit = true, slices.Clone(r.log), r.commit
	}
	r.net.SendRecoveryResponse(m.From, resp)
}

// OnRecoveryResponse collects answers to this replica's Recovery. Answers
// of the latest view seen replace earlier ones; f+1 of them, the primary's
// among them, give the state to resume from.
//
//sync:handler
func (r *Replica) OnRecoveryResponse(m RecoveryResponse) {
	if !r.recovering || m.Nonce != r.nonce || m.View < r.view {
		return
	}
	if m.View > r.view {
		r.enterView(m.View, StatusNormal)
	}
	r.responses[m.From] = m
	p, ok := r.responses[r.primary(r.view)]
	if len(r.responses) < r.f()+1 || !ok || !p.Primary {
		return
	}
	r.log, r.commit, r.lastNormal = slices.Clone(p.Log), p.Commit, r.view
	r.recovering = false
}
