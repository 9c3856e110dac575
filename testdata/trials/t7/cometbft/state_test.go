package cometbft

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

type envelope struct {
	to int
	mi msgInfo
}

// network drives validators deterministically: it delivers messages mostly
// in the order they were sent, sometimes out of order, delays some behind
// every other message in flight (gossip delivers them eventually), and
// fires a pending time-out only when no message is in flight: time-outs
// expire when the network is quiet, as after GST.
type network struct {
	t        *testing.T
	rnd      *rand.Rand
	vals     []*State
	inflight []envelope
	pending  [][]timeoutInfo
	delay    float64
}

func newNetwork(t *testing.T, n int, seed uint64, delay float64) *network {
	nw := &network{t: t, rnd: rand.New(rand.NewPCG(seed, 7)), pending: make([][]timeoutInfo, n), delay: delay}
	for i := range n {
		nw.vals = append(nw.vals, NewState(Config{
			Index: int32(i), Validators: n,
			TimeoutPropose: 3 * time.Second, TimeoutPrevote: time.Second, TimeoutPrecommit: time.Second,
			Delta: 500 * time.Millisecond,
		}))
	}
	return nw
}

// collect moves what validator i sent and scheduled into the network.
func (nw *network) collect(i int) {
	cs := nw.vals[i]
	for _, m := range cs.out {
		for to := range nw.vals {
			nw.inflight = append(nw.inflight, envelope{to: to, mi: msgInfo{Msg: m, PeerID: string(rune('A' + i))}})
		}
	}
	cs.out = nil
	nw.pending[i] = append(nw.pending[i], cs.timeouts...)
	cs.timeouts = nil
}

func (nw *network) step() {
	if len(nw.inflight) > 0 {
		k := 0
		if nw.rnd.Float64() < 0.1 {
			k = nw.rnd.IntN(len(nw.inflight))
		}
		e := nw.inflight[k]
		nw.inflight = slices.Delete(nw.inflight, k, k+1)
		if nw.rnd.Float64() < nw.delay {
			nw.inflight = append(nw.inflight, e)
			return
		}
		nw.vals[e.to].handleMsg(e.mi)
		nw.collect(e.to)
		return
	}
	i := nw.rnd.IntN(len(nw.vals))
	if len(nw.pending[i]) == 0 {
		return
	}
	ti := nw.pending[i][0]
	nw.pending[i] = nw.pending[i][1:]
	nw.vals[i].handleTimeout(ti)
	nw.collect(i)
}

// agreement checks that no two validators decided different blocks at a
// height, and returns the number of heights decided by a quorum.
func (nw *network) agreement() int {
	nw.t.Helper()
	decided := make(map[int64]string)
	count := make(map[int64]int)
	for i, cs := range nw.vals {
		for h, b := range cs.decisions {
			if d, ok := decided[h]; ok && d != b {
				nw.t.Fatalf("height %d: validator %d decided %q, another %q", h, i, b, d)
			}
			decided[h] = b
			count[h]++
		}
	}
	full := 0
	for _, c := range count {
		if c >= nw.vals[0].quorum() {
			full++
		}
	}
	return full
}

func TestTendermintAgreement(t *testing.T) {
	for _, tc := range []struct {
		n     int
		seed  uint64
		delay float64
	}{
		{4, 1, 0}, {4, 2, 0.05}, {4, 3, 0.2}, {5, 4, 0.1}, {7, 5, 0.3},
	} {
		nw := newNetwork(t, tc.n, tc.seed, tc.delay)
		for i := range nw.vals {
			nw.vals[i].Start()
			nw.collect(i)
		}
		for i := range 20000 {
			nw.step()
			if i%50 == 0 {
				nw.agreement()
			}
		}
		heights := nw.agreement()
		if heights < 3 {
			t.Errorf("n=%d seed=%d delay=%.2f: only %d heights decided by a quorum", tc.n, tc.seed, tc.delay, heights)
		}
		maxRound := int32(0)
		for _, cs := range nw.vals {
			maxRound = max(maxRound, cs.Round)
		}
		t.Logf("n=%d delay=%.2f: %d heights decided by a quorum, highest round now %d", tc.n, tc.delay, heights, maxRound)
	}
}
