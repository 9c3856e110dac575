package sbft

import "math/bits"

// Step is the position of a replica inside the slot it is ordering, in
// execution order. A slot normally starts at PrePrepare; ViewChange opens
// a slot in a new view.
type Step int

// The steps of a slot.
const (
	// ViewChange: replicas send their prepared certificate to all; the new
	// primary re-proposes the highest one.
	ViewChange Step = iota
	// PrePrepare: the primary proposes a block for the slot.
	PrePrepare
	// SignPrepare: replicas send their prepare share to the collector.
	SignPrepare
	// Prepared: the collector broadcasts the prepare certificate.
	Prepared
	// SignCommit: replicas send their commit share to the collector.
	SignCommit
	// Committed: the collector broadcasts the commit certificate.
	Committed
)

// Header is the position of the sender when it sent a message.
type Header struct {
	View uint64
	Seq  uint64
	Step Step
}

// Less reports whether h comes strictly before o.
func (h Header) Less(o Header) bool {
	if h.View != o.View {
		return h.View < o.View
	}
	if h.Seq != o.Seq {
		return h.Seq < o.Seq
	}
	return h.Step < o.Step
}

// Cert stands for a threshold signature: the replicas whose shares on
// Block were combined in View. Signers is a bit set of replica ids.
type Cert struct {
	View    uint64
	Block   string
	Signers uint64
}

// Valid reports whether c combines at least quorum shares.
func (c Cert) Valid(quorum int) bool { return bits.OnesCount64(c.Signers) >= quorum }

// Msg is the one message type of the protocol; its nested header is its
// tag.
//
//sync:msg Hdr.View,Hdr.Seq,Hdr.Step
type Msg struct {
	Hdr  Header
	From int
	// Block is the proposal (PrePrepare) or the block a share signs.
	Block string
	// Cert is the combined certificate (Prepared, Committed) or the
	// sender's highest prepare certificate for the slot (ViewChange).
	Cert Cert
}
