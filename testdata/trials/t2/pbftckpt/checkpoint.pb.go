// Code generated in the style of protoc-gen-go from checkpoint.proto. DO NOT EDIT.

package pbftckpt

// Batch is the primary's ordered batch of requests for one window.
type Batch struct {
	Window   uint64
	Primary  int32
	FirstSeq uint64
	Requests []string
}

// GetWindow returns x.Window, or 0 for a nil x.
func (x *Batch) GetWindow() uint64 {
	if x != nil {
		return x.Window
	}
	return 0
}

// GetPrimary returns x.Primary, or 0 for a nil x.
func (x *Batch) GetPrimary() int32 {
	if x != nil {
		return x.Primary
	}
	return 0
}

// GetFirstSeq returns x.FirstSeq, or 0 for a nil x.
func (x *Batch) GetFirstSeq() uint64 {
	if x != nil {
		return x.FirstSeq
	}
	return 0
}

// GetRequests returns x.Requests, or nil for a nil x.
func (x *Batch) GetRequests() []string {
	if x != nil {
		return x.Requests
	}
	return nil
}

// Checkpoint is PBFT's CHECKPOINT message: the digest of a replica's state
// after executing every request up to Seq.
type Checkpoint struct {
	Window      uint64
	Seq         uint64
	StateDigest []byte
	Replica     int32
}

// GetWindow returns x.Window, or 0 for a nil x.
func (x *Checkpoint) GetWindow() uint64 {
	if x != nil {
		return x.Window
	}
	return 0
}

// GetSeq returns x.Seq, or 0 for a nil x.
func (x *Checkpoint) GetSeq() uint64 {
	if x != nil {
		return x.Seq
	}
	return 0
}

// GetStateDigest returns x.StateDigest, or nil for a nil x.
func (x *Checkpoint) GetStateDigest() []byte {
	if x != nil {
		return x.StateDigest
	}
	return nil
}

// GetReplica returns x.Replica, or 0 for a nil x.
func (x *Checkpoint) GetReplica() int32 {
	if x != nil {
		return x.Replica
	}
	return 0
}
