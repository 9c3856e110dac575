package vrrecovery

// Status is the round of the tag inside a view: a view starts with its view
// change and then runs normally.
type Status int

// The statuses of a view, in execution order.
const (
	StatusStartViewChange Status = iota
	StatusDoViewChange
	StatusNormal
)

// Prepare is the primary's request to append Op at OpNum.
//
//sync:msg View,StatusNormal
type Prepare struct {
	View   uint64
	OpNum  int
	Op     string
	Commit int
}

// PrepareOK acknowledges a Prepare.
//
//sync:msg View,StatusNormal
type PrepareOK struct {
	View  uint64
	OpNum int
	From  int
}

// StartViewChange says the sender gave up on the primary of View-1.
//
//sync:msg View,StatusStartViewChange
type StartViewChange struct {
	View uint64
	From int
}

// DoViewChange hands the sender's log to the primary of View.
//
//sync:msg View,StatusDoViewChange
type DoViewChange struct {
	View       uint64
	From       int
	Log        []string
	LastNormal uint64
	Commit     int
}

// StartView installs the log chosen by the primary of View.
//
//sync:msg View,StatusNormal
type StartView struct {
	View   uint64
	Log    []string
	Commit int
}

// Recovery is sent by a replica that restarted without its state: it knows
// no view, so the message carries no tag.
//
//sync:msg _,_
type Recovery struct {
	From  int
	Nonce uint64
}

// RecoveryResponse answers a Recovery; only the primary includes its log.
//
//sync:msg View,StatusNormal
type RecoveryResponse struct {
	View    uint64
	From    int
	Nonce   uint64
	Primary bool
	Log     []string
	Commit  int
}

// Transport is the RPC surface between replicas, one method per message.
type Transport interface {
	// SendPrepare sends m to replica to.
	//
	//sync:send
	SendPrepare(to int, m Prepare)
	// SendPrepareOK sends m to replica to.
	//
	//sync:send
	SendPrepareOK(to int, m PrepareOK)
	// SendStartViewChange sends m to replica to.
	//
	//sync:send
	SendStartViewChange(to int, m StartViewChange)
	// SendDoViewChange sends m to replica to.
	//
	//sync:send
	SendDoViewChange(to int, m DoViewChange)
	// SendStartView sends m to replica to.
	//
	//sync:send
	SendStartView(to int, m StartView)
	// SendRecovery sends m to replica to.
	//
	//sync:send
	SendRecovery(to int, m Recovery)
	// SendRecoveryResponse sends m to replica to.
	//
	//sync:send
	SendRecoveryResponse(to int, m RecoveryResponse)
}
