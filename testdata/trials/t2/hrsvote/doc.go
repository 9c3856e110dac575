// Package hrsvote is Tendermint-style consensus on a sequence of values
// (Buchman, Kwon and Milosevic, "The latest gossip on BFT consensus",
// arXiv:1807.04938, 2018, Algorithm 1), against crash failures with n > 3f.
//
// Every height decides one value, in rounds of three steps. In PROPOSE the
// proposer of (height, round) proposes its valid value if it has one, a new
// value otherwise. In PREVOTE a process prevotes the proposal unless it is
// locked on another value. In PRECOMMIT a process that saw 2f+1 prevotes for
// a value locks it and precommits it, and precommits nothing otherwise; 2f+1
// precommits for a value decide it, and the process moves to the next height,
// else to the next round. A process that receives a proposal of a later round
// of its height jumps to that round; a proposal of the next height tells a
// process that fell behind the value decided at its height (LastCommit), and
// it adopts it and jumps. A process that falls behind while voting catches
// up only if it later receives such a proposal while waiting for one.
//
// # Style
//
// msgs.pb.go is written by hand in the shape protoc-gen-go produces, header
// included, so that tools treat it as generated code.
//
// The tag has three components, (height, round, step), fields of a state
// struct. The messages are protobuf-generated types (msgs.pb.go) that cannot
// carry annotations, so they are annotated at package level in hrsvote.go;
// their tag fields are plain fields, and the protocol reads payload through
// the generated getters (GetValue, GetVoter, GetLastCommit). The tag types
// are those of the generated code (int64, int32 and the Step enum). Messages
// are pointers behind a Message interface, sent through a Gossip interface
// with an annotated Publish, and received from a channel in a select with a
// timer. Round and step are reset at the END of each iteration (next round,
// or next height).
//
// # Mutants
//
//   - round-not-advanced (syncmono): a round without decision goes back to
//     step PROPOSE without moving to the next round.
//   - precommit-as-prevote (syncsend): a copy-paste publishes the precommit
//     with Type PREVOTE.
//   - precommits-of-earlier-rounds (syncrecv): precommits of earlier rounds
//     of the height count towards 2f+1.
//   - later-round-no-jump (syncjump): a proposal of a later round is
//     prevoted in the process's own round.
package hrsvote
