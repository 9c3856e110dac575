// Package paxos is an annotated example protocol for ccvet: the Paxos-like
// state machine replication protocol of Fig. 1 of Drăgoi, Enea, Ozkan,
// Majumdar and Niksic, "Testing consensus implementations using
// communication closure" (OOPSLA 2020), written asynchronously in Go.
//
// Processes agree on a growing log of commands. Every process runs the same
// loop (Process.Run); one iteration is one phase, identified by its ballot,
// and goes through four rounds:
//
//	Prepare  the leader of the ballot asks everybody to join it
//	Ack      the processes that joined send their log, dated by last, to the leader;
//	         with a majority of them the leader picks the most recent log and
//	         appends a new command
//	Propose  the leader sends the extended log to everybody, who adopt it
//	Promise  processes exchange the log they adopted; a log promised by a
//	         majority is output
//
// A process that waits too long in a round gives up and moves on to the next
// ballot. The specification is that any two outputs, of the same process or
// of different ones, are prefixes of one another.
//
// The protocol deliberately keeps the bug of the paper (line 15 of Fig. 1,
// last = phase), which can violate that specification when messages are lost:
// see Process.Run. The bug is in the algorithm, not in its round structure,
// so the code is communication-closed and ccvet must not report it.
//
// # Annotations
//
//   - //sync:tag p.ballot,p.step above the loop in Process.Run names the phase
//     (ballot) and round (step) variables;
//   - //sync:msg Ballot,Step on Message says which fields carry them;
//   - //sync:send and //sync:recv on the methods of Network mark them as the
//     communication primitives.
//
// Run ccvet on this directory to check it; it should report nothing.
//
// # Exploration
//
// paxos_compho.go is the round-based machine of the loop, written by
// `ccvet makeho ./examples/paxos` (a test checks that it is up to date).
// explore_test.go declares an exploration of it (//ccvet:explore) with
// the specification as its invariant: `ccvet explore ./examples/paxos`
// finds the bug of Run in every execution of 3 ballots with at most one
// isolated process, and prints its shortest trace, 8 lock-step steps,
// with the line of each round in paxos.go (see docs/explore.md).
package paxos
