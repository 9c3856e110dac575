// Package hbbftba is the binary agreement of HoneyBadgerBFT (Miller, Xia,
// Croman, Shi, Song, CCS 2016), which is the signature-free randomized
// consensus of Mostéfaoui, Moumen and Raynal (PODC 2014) with the extra CONF
// step HoneyBadger added to make the common coin safe, for n >= 3f+1
// processes of which f may be faulty.
//
// Every epoch has four steps: BVal (broadcast the estimate), Relay (the
// echo of BV-broadcast: relay the values f+1 processes announced), Aux
// (announce one value of bin_values, the values 2f+1 processes relayed) and
// Conf (confirm the values of the Aux quorum). Then the common coin of the epoch is tossed:
// if the values confirmed by n-f processes are a single value equal to the
// coin, it is decided; the estimate of the next epoch is that value, or the
// coin.
//
// # Style
//
// Loop style over plain channels: Run(id, input, in, out, cfg) takes the
// inbox as a <-chan Msg parameter and the peers table as a []chan<- Msg
// parameter indexed by process id; a generic helper broadcasts with
// for _, o := range out { o <- m }. The tag is two locals, epoch,step,
// declared with epoch, step := 0, BVal; the step is set at the start of each
// step and the epoch advances at the end of the iteration. One message type
// carries the step in a field (//sync:msg Epoch,Step). The BVal and Relay
// receptions are written inline in the loop, a select between the inbox
// and a timer (time.NewTimer, time.After); Aux and Conf use the collect
// helper. A message of the next step of the epoch ends the BVal or Relay
// wait: the process jumps to that step (step = ahead[0].Step) without the
// quorum it was waiting for, and the message is read again, from a backlog,
// by the next reception. A process that times out gives up (returns
// undecided). Messages of other epochs are dropped: skipping an epoch with
// a stale estimate would make a correct process count as a faulty one.
//
// # Mutants (mutants.txt)
//
//   - retry-epoch (syncmono): a Conf timeout retries the epoch from BVal in
//     the same epoch.
//   - relay-as-bval (syncsend): relayed values are sent as BVal messages, as
//     the paper calls them, while the process is in step Relay.
//   - filter-future-only (syncrecv): Aux/Conf collection drops only
//     messages of later epochs, so confirmations of old epochs count.
//   - relay-counts-bval (syncrecv): the Relay reception also counts the
//     BVal messages of the epoch as support.
//   - aux-without-catch-up (syncjump): an Aux that ends the Relay wait is
//     acted on (bin_values computed) before the process moves to step Aux.
package hbbftba
