package pbftckpt

import (
	"bytes"
	"context"
	"crypto/sha256"
	"slices"
	"time"
)

// The message types are generated (checkpoint.pb.go), so their tags are
// declared here rather than on the types.
//
//sync:msg Batch Window,Execute
//sync:msg Checkpoint Window,Checkpointing

// Phase is the round part of the tag (window, phase).
type Phase int

// The two rounds of a window.
const (
	// Execute: the primary sends the window's batch; replicas execute it.
	Execute Phase = iota
	// Checkpointing: replicas exchange the digest of their state at the end
	// of the window; 2f+1 matching digests make the checkpoint stable.
	Checkpointing
)

// Stable is a stable checkpoint: 2f+1 replicas reported Digest after Seq.
type Stable struct {
	Window uint64
	Seq    uint64
	Digest []byte
}

// Replica is one PBFT replica's execution and checkpointing loop.
type Replica struct {
	id      int32
	n, f    int
	k       int // requests per window (PBFT's checkpoint period)
	tr      Transport
	timeout time.Duration
	source  func(window uint64, k int) []string // the primary's next requests

	// The tag (window, phase).
	window uint64
	phase  Phase

	seq         uint64   // last executed sequence number
	state       [32]byte // running digest of the executed requests
	log         []string // requests executed since the last stable checkpoint
	stable      Stable
	needsFetch  bool // the replica missed a batch: its state must be fetched
	checkpoints []Stable
}

// NewReplica returns replica id of n, checkpointing every k requests.
func NewReplica(id int32, n, k int, tr Transport, timeout time.Duration, source func(uint64, int) []string) *Replica {
	return &Replica{id: id, n: n, f: (n - 1) / 3, k: k, tr: tr, timeout: timeout, source: source}
}

// Checkpoints returns the stable checkpoints the replica saw, in order.
func (r *Replica) Checkpoints() []Stable { return slices.Clone(r.checkpoints) }

// Log returns the requests executed since the last stable checkpoint.
func (r *Replica) Log() []string { return slices.Clone(r.log) }

func (r *Replica) primary() int32 { return int32(r.window % uint64(r.n)) }

// Run executes and checkpoints windows 1..windows.
func (r *Replica) Run(ctx context.Context, windows uint64) error {
	//sync:tag r.window,r.phase
	for r.window < windows {
		r.window++
		r.phase = Execute
		if r.primary() == r.id {
			r.tr.Broadcast(&Batch{Window: r.window, Primary: r.id, FirstSeq: r.seq + 1, Requests: r.source(r.window, r.k)})
		}
		msg, err := r.awaitWindow(ctx)
		if err != nil {
			return err
		}
		var early []*Checkpoint
		switch m := msg.(type) {
		case *Batch:
			if m.GetFirstSeq() != r.seq+1 {
				r.needsFetch = true
				break
			}
			for _, req := range m.GetRequests() {
				r.execute(req)
			}
		case *Checkpoint:
			// The others are checkpointing this window already: its batch
			// did not reach us. Join them; our state must be fetched.
			r.phase = Checkpointing
			r.needsFetch = true
			early = append(early, m)
		default:
			r.needsFetch = true // time-out
		}

		r.phase = Checkpointing
		if !r.needsFetch {
			r.tr.Broadcast(&Checkpoint{Window: r.window, Seq: r.seq, StateDigest: slices.Clone(r.state[:]), Replica: r.id})
		}
		cert, err := r.collectCheckpoints(ctx, early)
		if err != nil {
			return err
		}
		if cert != nil {
			r.stabilize(*cert)
		}
	}
	return nil
}

// awaitWindow waits for the current window's batch from its primary, or for
// a checkpoint of the window (its batch was lost for us); nil means neither
// came in time.
func (r *Replica) awaitWindow(ctx context.Context) (any, error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	for {
		msg, err := r.tr.Recv(ctx)
		if err != nil {
			if ctx.Err() == context.DeadlineExceeded {
				return nil, nil
			}
			return nil, err
		}
		switch m := msg.(type) {
		case *Batch:
			if m.Window != r.window || m.GetPrimary() != r.primary() {
				continue
			}
			return m, nil
		case *Checkpoint:
			if m.Window != r.window {
				continue
			}
			return m, nil
		}
	}
}

// collectCheckpoints gathers the current window's checkpoints, starting
// with early, until 2f+1 of them match, and returns the resulting stable
// checkpoint, or nil on a time-out.
func (r *Replica) collectCheckpoints(ctx context.Context, early []*Checkpoint) (*Stable, error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	got := make(map[int32]*Checkpoint)
	for _, c := range early {
		got[c.GetReplica()] = c
	}
	for {
		if cert := r.matching(got); cert != nil {
			return cert, nil
		}
		msg, err := r.tr.Recv(ctx)
		if err != nil {
			if ctx.Err() == context.DeadlineExceeded {
				return nil, nil
			}
			return nil, err
		}
		c, ok := msg.(*Checkpoint)
		if !ok || c.Window != r.window {
			continue
		}
		got[c.GetReplica()] = c
	}
}

// matching returns the stable checkpoint 2f+1 of got agree on, if any.
func (r *Replica) matching(got map[int32]*Checkpoint) *Stable {
	for _, c := range got {
		k := 0
		for _, o := range got {
			if o.GetSeq() == c.GetSeq() && bytes.Equal(o.GetStateDigest(), c.GetStateDigest()) {
				k++
			}
		}
		if k >= 2*r.f+1 {
			return &Stable{Window: r.window, Seq: c.GetSeq(), Digest: slices.Clone(c.GetStateDigest())}
		}
	}
	return nil
}

func (r *Replica) execute(req string) {
	r.seq++
	r.state = sha256.Sum256(append(r.state[:], req...))
	r.log = append(r.log, req)
}

// stabilize records a stable checkpoint and garbage-collects the log.
func (r *Replica) stabilize(cert Stable) {
	r.stable = cert
	r.checkpoints = append(r.checkpoints, cert)
	if !r.needsFetch && cert.Seq == r.seq {
		r.log = r.log[:0]
	}
}
