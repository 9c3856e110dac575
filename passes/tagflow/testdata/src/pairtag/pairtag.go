// Package pairtag checks filters that read the tag through methods
// returning several components or a header struct.
package pairtag

type Step uint8

const (
	StepSoft Step = iota
	StepCert
)

//sync:msg Period,Step
type Vote struct {
	Period int
	Step   Step
	Value  string
}

// Tag returns the period and step the vote belongs to.
func (m *Vote) Tag() (int, Step) { return m.Period, m.Step }

type Agent struct {
	period int
	step   Step
	in     chan *Vote
	tagOf  func(*Vote) int
}

// The pair is the message's tag.
func (a *Agent) Pair() {
	//sync:tag a.period,a.step
	for {
		a.period++
		a.step = StepSoft
		got := make([]*Vote, 0)
		for range 3 {
			m := <-a.in
			if p, s := m.Tag(); p != a.period || s != a.step {
				continue
			}
			got = append(got, m)
		}
		_ = got
	}
}

// The pair compared the wrong way round lets older votes in.
func (a *Agent) PairStale() {
	//sync:tag a.period,a.step
	for {
		a.period++
		a.step = StepSoft
		got := make([]*Vote, 0)
		for range 3 {
			m := <-a.in
			if p, _ := m.Tag(); p > a.period {
				continue
			}
			got = append(got, m) // want `condition 3: Vote stored without checking that its tag is >= \(a.period,a.step\)`
		}
		_ = got
	}
}

// A function value ccvet cannot follow decides.
func (a *Agent) FuncValue() {
	//sync:tag a.period,a.step
	for {
		a.period++
		a.step = StepSoft
		got := make([]*Vote, 0)
		for range 3 {
			m := <-a.in
			if a.tagOf(m) != a.period || m.Step != a.step {
				continue
			}
			got = append(got, m) // want `cannot prove 3: cannot tell that the Vote stored here is from the current round or a later one`
		}
		_ = got
	}
}

// Header is the common part of messages.
type Header struct {
	Period int
	Step   Step
}

// Hdr returns the header.
func (h Header) Hdr() Header { return h }

//sync:msg Period,Step
type Cert struct {
	Header
	Value string
}

type Agent2 struct {
	cur Header
	in  chan *Cert
}

// The header, through a promoted method, compared whole.
func (a *Agent2) Hdr() {
	//sync:tag a.cur.Period,a.cur.Step
	for {
		a.cur.Period++
		a.cur.Step = StepSoft
		got := make([]*Cert, 0)
		for range 3 {
			m := <-a.in
			if m.Hdr() != a.cur {
				continue
			}
			got = append(got, m)
		}
		_ = got
	}
}
