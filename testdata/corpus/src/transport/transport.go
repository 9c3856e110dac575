// Package transport is the small network interface the corpus protocols
// use. It is annotated so that ccvet knows which calls send and receive.
package transport

import "time"

// Net moves messages between processes 0..N()-1.
type Net interface {
	// N is the number of processes.
	N() int

	// Send sends m to process to.
	//
	//sync:send
	Send(to int, m any)

	// Broadcast sends m to every process, the sender included.
	//
	//sync:send
	Broadcast(m any)

	// Recv waits until the deadline for a message; ok is false on a
	// timeout.
	//
	//sync:recv
	Recv(deadline time.Time) (m any, from int, ok bool)
}

// Envelope is a message with its sender, for protocols that use channels.
type Envelope struct {
	From int
	Msg  any
}
