// Package usedata uses what it received after the reception: reading a
// message from its mailbox, copying its fields into the process state or
// into a message of a later round, is not storing it (condition III is
// checked where the reception stores it).
package usedata

type Step int

const (
	Propose Step = iota
	Vote
	Install
)

//sync:msg View,Propose
type Proposal struct {
	View    int
	Block   string
	Members []int
}

//sync:msg View,Vote
type VoteMsg struct {
	View  int
	Block string
}

//sync:msg View,Install
type InstallMsg struct {
	View    int
	Members []int
}

type Replica struct {
	view   int
	step   Step
	locked string
	in     chan any
	out    chan any
}

// The proposal kept is used after the step moved on.
func (r *Replica) Kept() {
	//sync:tag r.view,r.step
	for {
		r.view++
		r.step = Propose
		var prop Proposal
		got := false
		for !got {
			raw := <-r.in
			m, ok := raw.(Proposal)
			if !ok || m.View != r.view {
				continue
			}
			prop = m
			got = true
		}
		r.step = Vote
		r.locked = prop.Block
		r.out <- VoteMsg{View: r.view, Block: prop.Block}
	}
}

func (r *Replica) newInstall(members []int) InstallMsg {
	return InstallMsg{View: r.view, Members: members}
}

// A later round's message carries the received members.
func (r *Replica) Forward() {
	//sync:tag r.view,r.step
	for {
		r.view++
		r.step = Propose
		raw := <-r.in
		prop, ok := raw.(Proposal)
		if !ok || prop.View < r.view {
			continue
		}
		r.view = prop.View
		r.step = Install
		r.out <- r.newInstall(prop.Members)
	}
}

// No filter: the store is reported once, though two writes on its line
// keep the message.
func (r *Replica) Unfiltered() {
	//sync:tag r.view,r.step
	for {
		r.view++
		r.step = Propose
		var prop Proposal
		got := false
		for !got {
			raw := <-r.in
			m, ok := raw.(Proposal)
			if !ok {
				continue
			}
			prop = m; got = true // want `condition 3: Proposal stored without checking that its tag is >= \(r.view,r.step\)`
		}
		r.step = Vote
		r.out <- VoteMsg{View: r.view, Block: prop.Block}
	}
}
