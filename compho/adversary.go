package compho

import (
	"fmt"
	"math"
	"slices"
)

// An Adversary is the environment of the Heard-Of model: it chooses, in
// every step, which messages each process hears of.
type Adversary interface {
	// HeardOf returns the subset of senders whose messages receiver p
	// hears of in step s. senders is sorted, not empty, and holds the
	// processes at p's position that sent p a message in s (p itself
	// included if it sent to itself). HeardOf may return any subset, in
	// any order, but must not add senders; messages of senders not
	// returned are lost. HeardOf may overwrite senders and return a
	// subslice of it; Run does not retain either slice. It is called once
	// per step for each receiver with at least one candidate sender, in
	// increasing order of receivers.
	HeardOf(s Step, p PID, senders []PID) []PID
}

type noLoss struct{}

func (noLoss) HeardOf(_ Step, _ PID, senders []PID) []PID { return senders }

// NoLoss returns the adversary that delivers every message.
func NoLoss() Adversary { return noLoss{} }

type randomLoss struct {
	seed uint64
	p    float64
}

// RandomLoss returns an adversary that loses each message independently
// with probability p (clamped to [0, 1]; NaN counts as 0), messages to self
// included. Whether a message is lost is a function of the seed, the step
// index, the receiver and the sender only, so the adversary has no state:
// the same seed gives the same losses in every run and whatever the order
// of calls.
func RandomLoss(seed int64, p float64) Adversary {
	if !(p > 0) { // also NaN
		p = 0
	}
	return randomLoss{seed: uint64(seed), p: min(p, 1)}
}

func (a randomLoss) HeardOf(s Step, p PID, senders []PID) []PID {
	if a.p == 0 {
		return senders
	}
	base := mix(mix(a.seed) ^ uint64(s.Index))
	base = mix(base ^ uint64(p))
	heard := senders[:0]
	for _, q := range senders {
		if unitFloat(mix(base^uint64(q))) >= a.p {
			heard = append(heard, q)
		}
	}
	return heard
}

// mix is the finalizer of SplitMix64 (Steele, Lea and Flood 2014), a
// bijection of uint64 with good avalanche; it is used as a hash and, in
// splitMix, as a generator whose output is the same in every Go release.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// unitFloat maps x to [0, 1) uniformly.
func unitFloat(x uint64) float64 { return float64(x>>11) / (1 << 53) }

// splitMix is the SplitMix64 generator.
type splitMix struct{ state uint64 }

func (g *splitMix) next() uint64 {
	g.state += 0x9e3779b97f4a7c15
	return mix(g.state - 0x9e3779b97f4a7c15)
}

// intN returns a uniform integer in [0, n), n > 0, by rejection.
func (g *splitMix) intN(n int) int {
	bound := uint64(n)
	limit := math.MaxUint64 - math.MaxUint64%bound
	for {
		if x := g.next(); x < limit {
			return int(x % bound)
		}
	}
}

type scripted struct {
	script []map[PID][]PID
	then   Adversary
}

// Scripted returns an adversary that replays script: script[i][p] is the
// HO set of receiver p in step i, intersected with the actual candidate
// senders (PIDs in it that sent nothing are ignored). For steps past the
// end of the script, and receivers absent from script[i], the HO set is
// chosen by then; a nil then means NoLoss. The script is copied.
func Scripted(script []map[PID][]PID, then Adversary) Adversary {
	if then == nil {
		then = NoLoss()
	}
	cp := make([]map[PID][]PID, len(script))
	for i, m := range script {
		cp[i] = make(map[PID][]PID, len(m))
		for p, ho := range m {
			ho = slices.Clone(ho)
			slices.Sort(ho)
			cp[i][p] = slices.Compact(ho)
		}
	}
	return &scripted{script: cp, then: then}
}

func (a *scripted) HeardOf(s Step, p PID, senders []PID) []PID {
	if s.Index < 0 || s.Index >= len(a.script) {
		return a.then.HeardOf(s, p, senders)
	}
	ho, ok := a.script[s.Index][p]
	if !ok {
		return a.then.HeardOf(s, p, senders)
	}
	// Both sorted: merge.
	heard := senders[:0]
	j := 0
	for _, q := range senders {
		for j < len(ho) && ho[j] < q {
			j++
		}
		if j < len(ho) && ho[j] == q {
			heard = append(heard, q)
		}
	}
	return heard
}

// An isolation isolates process pid from round from of a period to the
// end of the period.
type isolation struct {
	pid  PID
	from int
}

type lossySync struct {
	r, k     int
	isolated map[int][]isolation // by period
}

// LossySync returns an adversary that samples the d-bounded k-periodic
// uniform lossy synchronous executions of n processes running at most r
// steps: Algorithm 1 of Drăgoi, Enea, Ozkan, Majumdar and Niksic, "Testing
// consensus implementations using communication closure" (OOPSLA 2020).
//
// The steps are cut into periods of k steps (k should be the number of
// rounds of a phase). The d isolations are distributed over the
// ceil(r/k) periods, at most n per period, each placed in a period chosen
// uniformly among those not yet full (if d exceeds n·ceil(r/k), every
// process is isolated in every period). In each period, that many
// distinct processes are chosen uniformly, and for each of them a round
// uniformly in [0, k) (in [0, r mod k) in a last, shorter period): from
// that round of the period on, to the end of the period, the process is
// isolated. Each step is uniform: its kernel is
// the set of processes not isolated in it, and a message is heard if and
// only if its sender and its receiver are both in the kernel; an isolated
// process hears nothing, not even itself. Isolated processes rejoin at the
// start of the next period. Steps from r on lose nothing.
//
// The choices are made when LossySync is called, from seed alone. n, r, d
// and k must not be negative, and n and k must be positive; processes with
// a PID of n or more are never isolated.
func LossySync(seed int64, n, r, d, k int) (Adversary, error) {
	if n < 1 || k < 1 || r < 0 || d < 0 {
		return nil, fmt.Errorf("compho: LossySync(n=%d, r=%d, d=%d, k=%d): want n, k > 0 and r, d >= 0", n, r, d, k)
	}
	periods := r / k
	if r%k != 0 {
		periods++
	}
	if periods == 0 {
		return &lossySync{r: r, k: k}, nil
	}
	if d > n*periods {
		d = n * periods
	}
	g := &splitMix{state: uint64(seed)}
	count := make(map[int]int) // isolations per period
	for range d {
		for {
			ph := g.intN(periods)
			if count[ph] < n {
				count[ph]++
				break
			}
		}
	}
	a := &lossySync{r: r, k: k, isolated: make(map[int][]isolation, len(count))}
	perm := make([]PID, n)
	// Visit the periods in increasing order, so the draws do not depend on
	// map iteration order.
	phs := make([]int, 0, len(count))
	for ph := range count {
		phs = append(phs, ph)
	}
	slices.Sort(phs)
	for _, ph := range phs {
		for i := range perm {
			perm[i] = PID(i)
		}
		length := min(k, r-ph*k) // the last period may be shorter
		iso := make([]isolation, count[ph])
		for i := range iso {
			j := i + g.intN(n-i)
			perm[i], perm[j] = perm[j], perm[i]
			iso[i] = isolation{pid: perm[i], from: g.intN(length)}
		}
		slices.SortFunc(iso, func(x, y isolation) int { return int(x.pid - y.pid) })
		a.isolated[ph] = iso
	}
	return a, nil
}

func (a *lossySync) isIsolated(iso []isolation, round int, p PID) bool {
	for _, x := range iso {
		if x.pid == p {
			return x.from <= round
		}
	}
	return false
}

func (a *lossySync) HeardOf(s Step, p PID, senders []PID) []PID {
	if s.Index < 0 || s.Index >= a.r {
		return senders
	}
	iso := a.isolated[s.Index/a.k]
	if len(iso) == 0 {
		return senders
	}
	round := s.Index % a.k
	if a.isIsolated(iso, round, p) {
		return senders[:0]
	}
	heard := senders[:0]
	for _, q := range senders {
		if !a.isIsolated(iso, round, q) {
			heard = append(heard, q)
		}
	}
	return heard
}
