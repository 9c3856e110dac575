// Package syncsend defines an Analyzer for condition II of a
// synchronization tag: every message sent carries the current tag.
//
// # Analyzer syncsend
//
// syncsend: check that every message sent carries the tag of the round it is sent in (condition II)
//
// Condition II of Definition 4 of "Reducing asynchrony to synchronized
// rounds" (Drăgoi and Widder): each message a //sync:tag loop sends
// carries, in the fields its //sync:msg maps to the tag (or the constant
// round it names), exactly the current value of every synchronization
// variable. One of the four conditions that together make the loop
// communication-closed.
//
// A typical violation: a reply built before the process adopts the
// leader's phase,
//
//	ack := p.ackEpoch()
//	p.epoch = newEpochs[0].Epoch
//	p.lab = AckE
//	p.net.Send(p.leader, ack) // AckEpoch sent with Epoch from before p.epoch was set at line 156
//
// Fix: build the message after the jump, p.net.Send(p.leader, p.ackEpoch()).
//
// What is a send. Channel sends (ch <- m, select cases), calls of
// functions and methods annotated //sync:send (their message-typed
// arguments), and the same inside the helpers of the package that the loop
// calls, which are inlined: message builders, send helpers with an
// interface parameter (sendTo(q int, m any): the message is the caller's),
// generic helpers instantiated for a message type, and //sync:send
// wrappers. An envelope built in place (Envelope{From: id, Msg: m}) sends
// the messages in its fields. A goroutine started with a //sync:send
// function (go p.xsend(m)) sends as of the go statement; any other
// goroutine that sends a message (go p.send(m), go func() { p.out <- m }())
// is "cannot prove condition II": goroutines are not followed.
//
// What is compared. Each mapped field of the message is compared with the
// current value of its variable, through copies, struct literals, pointers
// and constant offsets (two values computed as p.ballot + 16 are equal). A
// message whose //sync:msg names a constant round (Prepare) must be sent
// while the round variable is that constant. A tag in a header behind a
// pointer (//sync:msg Hdr.Term, as protobuf nests messages) is followed in
// sends that build the header in place or in a helper; a header written
// through another pointer after the message was built is "cannot prove". A
// narrowing conversion (uint8(n.term)) wraps, so it is not the tag. Where
// paths were merged, or a field cannot be related to the tag, the finding
// is "cannot prove condition II: cannot tell that M.F of the M sent here
// equals the current V"; merged paths never yield a violation.
//
// A message whose //sync:msg does not have one component per variable of
// the loop is not checked: syncdirective reports the mismatch. Check a
// "cannot prove" finding, then suppress it with //sync:ignore syncsend
// reason, or restructure the code.
package syncsend
