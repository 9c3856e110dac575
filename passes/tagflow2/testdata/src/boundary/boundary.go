// Package boundary holds the edges of what the analysis sees: a message
// or the process's state handed to another package, a goroutine that
// sends later, a deferred closure, and a channel that carries errors
// rather than messages. Each is "cannot prove" with its cause, or clean
// where nothing can go wrong; none is silent and none is a finding
// without a position.
package boundary

import "boundary/keeper"

//sync:msg R
type Msg struct {
	R    int
	From int
}

type proc struct {
	r     int
	votes keeper.Set
}

func (p *proc) SetRound(r int) { p.r = r }

// KeptElsewhere hands each received message to another package's method,
// which keeps it whatever its round.
func KeptElsewhere(in <-chan Msg, out chan<- Msg) {
	p := &proc{}
	//sync:tag p.r
	for p.r < 10 {
		p.r++
		out <- Msg{R: p.r}
		m := <-in
		p.votes.Add(m) // want `cannot prove 3: a received message is handed to the call of Add, which may keep it`
	}
}

// StateElsewhere hands the process, which holds the tag, to another
// package, which may set the round back.
func StateElsewhere(in <-chan Msg, out chan<- Msg) {
	p := &proc{}
	//sync:tag p.r
	for p.r < 10 {
		p.r++
		out <- Msg{R: p.r}
		<-in
		keeper.Reset(p) // want `cannot prove 1: this call may change p.r in a way the analysis does not follow: the tag \(p.r\) may be lower at the next communication point`
		out <- Msg{R: p.r}
	}
}

// GoroutineFallback sends a message of the next round, directly or, when
// the channel is full, from a goroutine: the direct send is a violation,
// the goroutine's runs at a round the analysis cannot know.
func GoroutineFallback(in <-chan Msg, out chan Msg) {
	r := 0
	//sync:tag r
	for r < 10 {
		r++
		mi := Msg{R: r + 1}
		select {
		case out <- mi: // want `condition 2: Msg is sent with a tag other than the current one \(r\)`
		default:
			go func() { out <- mi }() // want `cannot prove 2: a goroutine sends a message after this point, at a tag the analysis does not know`
		}
		<-in
	}
}

// Deferred updates the round from a deferred closure that captures a
// parameter; the closure runs when the function returns, after the loop.
func Deferred(p *proc, start int, in <-chan Msg, out chan<- Msg) {
	defer func() { p.SetRound(start) }()
	//sync:tag p.r
	for p.r < 10 {
		p.r++
		out <- Msg{R: p.r}
		m := <-in
		if m.R != p.r {
			continue
		}
	}
}

type request struct {
	result chan error
}

// ErrorsBack answers each client request with an error on the request's
// own channel: not a protocol message, no condition applies.
func ErrorsBack(reqs <-chan request, in <-chan Msg, out chan<- Msg) {
	r := 0
	//sync:tag r
	for r < 10 {
		r++
		out <- Msg{R: r}
		select {
		case m := <-in:
			if m.R != r {
				continue
			}
		case q := <-reqs:
			q.result <- nil
		}
	}
}
