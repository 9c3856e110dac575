// Package syncmono defines an Analyzer for condition I of a
// synchronization tag: the synchronization tag never decreases.
//
// # Analyzer syncmono
//
// syncmono: check that the synchronization tag never decreases (condition I)
//
// Condition I of Definition 4 of "Reducing asynchrony to synchronized
// rounds" (Drăgoi and Widder): the tag of a //sync:tag loop, its variables
// compared lexicographically (phase first, then round), never decreases.
// Together the four conditions make the loop communication-closed: no
// message crosses a round boundary, so every asynchronous execution is
// indistinguishable from a lock-step round-based one.
//
// A typical violation: a retry that goes back to the first round of the
// phase it has already used,
//
//	//sync:tag p.epoch,p.lab
//	for {
//		p.leader = p.oracle(p.epoch)
//		p.lab = CurrE // p.lab is set lower than it was at receive (line 140), while p.epoch did not increase
//
// Fix: start every attempt in a new phase, p.epoch++ before p.lab = CurrE.
//
// Where the tag is compared. Only at communication points: sends,
// receives, the loop's entry (with the round the code just before the loop
// sets, if it sets a constant) and its exits. The loop's back edge is not
// one, so the phase may be increased at the end of the body and the round
// reset at the start of the next iteration (p.round++ last, p.step =
// Propose first), as p.ballot++; p.step = Prepare may pass through
// (b+1, Promise). Where a higher variable is set back to its value at the
// last communication point while a lower one is below it there, the
// message says so: "p.slot is set back to what it was at send (line 87),
// while p.step is lower than it was there".
//
// Values. Tag variables are assumed not to overflow (x++ increases x).
// Constants added to a value are followed exactly: x - 1 + 1 is x, and two
// values computed as p.ballot + 16 are equal, so a message built with the
// next ballot before the ballot is increased is proved, and a slot stepped
// back to be retried (l.slot--; continue) is reported at the decrement. A
// conversion that keeps every value (int64 of an int32) is the value
// itself; a narrowing one wraps, so it is not taken for the tag. A variable
// that only ever holds constants (every store to it in the package is one,
// it is an unexported field whose address does not escape, and the struct
// holding it is never written whole) holds one of them or its zero value at
// all times: setting it to the largest never lowers it.
//
// Received values. When the facts of a path cannot order the new tag and
// the old one, syncmono still reports a violation in one case: the old
// value was received (the process jumped to a message's ballot), the path
// bounds that value only from below, and the new value does not depend on
// it. A message with a larger ballot then leads to the same place with the
// tag going down:
//
//	for b := 0; ; b++ {
//		p.ballot = b*p.n + p.id // p.ballot may be set lower than it was at send (line 52): it held there a value received in a message, which nothing on the path bounds above ...
//		...
//		p.ballot = prepares[0].Ballot // joined a later leader's ballot
//
// To say so, syncmono follows along each path which values are computed
// from received tags (x + c, x % k for an x known not to be negative), and
// which of them a branch, an index or a size bounds: m.Ballot >= p.ballot
// and != do not; <=, ==, a switch and a map lookup do; each tag component
// on its own, so m.Step == Prepare does not bound m.Ballot. Comparisons
// among the messages of one mailbox do not bound them either: a larger
// ballot moves them all alike. It gives up, leaving "cannot prove", where
// such a value goes where it is not followed: a field other than a
// synchronization variable, a call it does not interpret (a logger
// included), a closure or a goroutine. A helper of the package handed
// received messages or a mailbox is followed for that; one that reads no
// synchronization variable and no memory but numbers, strings and booleans
// cannot see a received tag except through what it is handed. An
// envelope's sender read once, in one comparison with a value computed
// from the ballot (e.From != leaderOf(m.Ballot, p.n)), is the witness's
// sender; read twice, kept, or handed on whole, it bounds the ballot. A
// flag set under a test of the received ballot and tested later bounds the
// received values, since the analysis forgets what the process state holds
// from one block to the next.
//
// Calls. An interface call or a call of a function value that may reach a
// method or function of the package writing a synchronization variable is
// "cannot prove condition I", as is a call handed the address of a
// synchronization variable and a store through a pointer when that address
// escapes. sync/atomic operations on a synchronization variable are reads
// and writes of it. Functions of other packages are assumed not to write
// the package's synchronization variables unless they are handed their
// address or a writing function of the package.
//
// What it cannot prove is reported as "cannot prove condition I: ...", once
// per statement, at the place concerned (the call it cannot follow, or the
// first communication point it could not compare the tag with). Check it,
// then suppress it with //sync:ignore syncmono reason, or restructure the
// code. The analysis itself is the shared tag dataflow of package tagflow
// (ccvet help syncsend, syncrecv and syncjump describe the other three
// conditions).
package syncmono
