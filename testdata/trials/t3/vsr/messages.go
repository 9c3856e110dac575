package vsr

// Status is a replica's status inside a view. The constants are declared
// in the order a view goes through them: a view begins with the view
// change that installs it and then runs normally.
type Status int

// The statuses.
const (
	StatusViewChange Status = iota
	StatusNormal
)

// Kind says what a Message is.
type Kind int

// The message kinds of VR (Liskov and Cowling, "Viewstamped Replication
// Revisited", 2012). Client requests are not messages here: the driver
// calls OnRequest.
const (
	Prepare         Kind = iota // primary -> backups, normal status
	PrepareOK                   // backup -> primary, normal status
	StartViewChange             // all -> all, view-change status
	DoViewChange                // all -> the new primary, view-change status
	StartView                   // the new primary -> backups, normal status
)

// Header is the viewstamp every message starts with: the sender's view and
// status when it sent it.
type Header struct {
	View   uint64
	Status Status
	From   int
}

// Message is every message of the protocol. Prepare and StartView carry
// the primary's whole log (state transfer is folded into them).
//
//sync:msg Hdr.View,Hdr.Status
type Message struct {
	Hdr        Header
	Kind       Kind
	Log        []string // Prepare, DoViewChange, StartView
	Commit     int      // Prepare, DoViewChange, StartView: ops committed
	OpNum      int      // PrepareOK: the number of ops the backup holds
	LastNormal uint64   // DoViewChange: the last view the sender was normal in
}

// Envelope is a message with its destination.
type Envelope[M any] struct {
	To  int
	Msg M
}

// Outbox keeps what one replica sends until the driver takes it.
type Outbox[M any] struct {
	self, n int
	queue   []Envelope[M]
}

// NewOutbox returns the outbox of replica self among n.
func NewOutbox[M any](self, n int) *Outbox[M] { return &Outbox[M]{self: self, n: n} }

// Send queues m for replica to.
//
//sync:send
func (o *Outbox[M]) Send(to int, m M) { o.queue = append(o.queue, Envelope[M]{to, m}) }

// Broadcast queues m for every other replica.
//
//sync:send
func (o *Outbox[M]) Broadcast(m M) {
	for to := range o.n {
		if to != o.self {
			o.Send(to, m)
		}
	}
}

// Take returns the queued messages and empties the queue.
func (o *Outbox[M]) Take() []Envelope[M] {
	q := o.queue
	o.queue = nil
	return q
}
