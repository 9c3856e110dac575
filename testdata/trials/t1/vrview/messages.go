package vrview

// Step is the round inside a view.
type Step int

// The rounds of a view: the view change, then one normal-case operation.
const (
	SVC    Step = iota // STARTVIEWCHANGE
	DVC                // DOVIEWCHANGE
	SV                 // STARTVIEW
	Prep               // PREPARE
	PrepOK             // PREPAREOK
	Cmt                // COMMIT
)

// Header is the common part of every message.
type Header struct {
	View int
	From int
}

// Msg is any message of the protocol.
type Msg interface{ header() Header }

// StartViewChange announces that the sender wants to move to Hdr.View.
//
//sync:msg Hdr.View,SVC
type StartViewChange struct{ Hdr Header }

// DoViewChange sends the sender's state to the new primary.
//
//sync:msg Hdr.View,DVC
type DoViewChange struct {
	Hdr        Header
	Log        []string
	LastNormal int // the last view in which the sender had status normal
	Commit     int
}

// StartView installs the new view's log.
//
//sync:msg Hdr.View,SV
type StartView struct {
	Hdr    Header
	Log    []string
	Commit int
}

// Prepare orders operation OpNum.
//
//sync:msg Hdr.View,Prep
type Prepare struct {
	Hdr   Header
	OpNum int
	Op    string
}

// PrepareOK acknowledges the log up to OpNum.
//
//sync:msg Hdr.View,PrepOK
type PrepareOK struct {
	Hdr   Header
	OpNum int
}

// Commit announces the primary's commit number.
//
//sync:msg Hdr.View,Cmt
type Commit struct {
	Hdr    Header
	Commit int
}

func (m *StartViewChange) header() Header { return m.Hdr }
func (m *DoViewChange) header() Header    { return m.Hdr }
func (m *StartView) header() Header       { return m.Hdr }
func (m *Prepare) header() Header         { return m.Hdr }
func (m *PrepareOK) header() Header       { return m.Hdr }
func (m *Commit) header() Header          { return m.Hdr }
