// Package pitfalls is a ballot-based protocol, in the style of
// examples/paxos, written four times with one realistic mistake each: one
// per condition that makes a loop communication-closed. Running ccvet on it
// prints exactly one violation per condition:
//
//	condition I   (syncmono)  Process.Retry: a round reset without a new ballot
//	condition II  (syncsend)  Process.Join: an Ack sent with the old ballot after the jump
//	condition III (syncrecv)  Process.Lead: an Ack of an older ballot counted
//	condition IV  (syncjump)  Process.Follow: a Propose of a later ballot stored without jumping
//
// The comment above each mistake explains it and gives the fix. Every
// function is a complete loop of its own, so the findings do not interfere.
package pitfalls
