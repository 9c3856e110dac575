// Package promoted is a handler protocol whose message is an interface
// (//sync:msg View(),Step() on it) implemented by types that embed a
// common header: m.View() on a concrete type is the header's method,
// promoted, and reads the message's view. The driver may hand a handler
// one kind of message only, so the step a message carries is not known
// to be any step; a message of an earlier view is one whatever its step,
// so what the handler does with it is a violation, while a message that
// may be of an earlier step of the same view is "cannot prove".
package promoted

type Step int

const (
	Prepare Step = iota
	Commit
)

//sync:msg View(),Step()
type Message interface {
	View() int
	Step() Step
}

type header struct{ view, from int }

func (h header) View() int { return h.view }
func (h header) From() int { return h.from }

type PrepareMsg struct {
	header
	Value string
}

func (PrepareMsg) Step() Step { return Prepare }

type CommitMsg struct {
	header
	Value string
}

func (CommitMsg) Step() Step { return Commit }

type Net interface {
	//sync:send
	Send(m Message)
}

//sync:tag view,step
type Replica struct {
	net     Net
	view    int
	step    Step
	prepare map[int]string
	commits int
}

// OnMessage dispatches on the message's type; each case checks the view
// through the promoted method.
//
//sync:handler
func (r *Replica) OnMessage(m Message) {
	switch m := m.(type) {
	case PrepareMsg:
		r.onPrepare(m)
	case CommitMsg:
		r.onCommit(m)
	}
}

func (r *Replica) onPrepare(m PrepareMsg) {
	if m.View() != r.view || r.step != Prepare {
		return
	}
	r.prepare[m.From()] = m.Value
}

func (r *Replica) onCommit(m CommitMsg) {
	if m.View() != r.view || r.step != Commit {
		return
	}
	r.commits++
}

// Propose starts a view.
//
//sync:handler
func (r *Replica) Propose() {
	r.view++
	r.step = Prepare
	r.net.Send(PrepareMsg{header: header{view: r.view}})
	r.step = Commit
	r.net.Send(CommitMsg{header: header{view: r.view}})
}

// OnAnyView counts a commit without looking at its view.
//
//sync:handler
func (r *Replica) OnAnyView(m Message) {
	if c, ok := m.(CommitMsg); ok && r.step == Commit {
		r.commits++ // want `condition 3: the state changes while the received Message may be of an earlier round than \(view,step\) was when the handler was called: such a message must leave the state unchanged`
		_ = c
	}
}

// OnCommitView is called by the driver with commits only (which the
// directive does not say): it checks the view, not the kind.
//
//sync:handler
func (r *Replica) OnCommitView(m Message) {
	if m.View() != r.view {
		return
	}
	r.commits++ // want `cannot prove 3: the state changes while the received Message may be of an earlier round than \(view,step\) was when the handler was called: such a message must leave the state unchanged \(if the driver hands this handler one kind of Message only, say which: //sync:handler Step\(\)==...\)`
}

// OnCommitOld is called with commits only and counts those of earlier
// views too.
//
//sync:handler
func (r *Replica) OnCommitOld(m Message) {
	if m.View() > r.view {
		return
	}
	r.commits++ // want `condition 3: the state changes while the received Message may be of an earlier round than \(view,step\) was when the handler was called: such a message must leave the state unchanged`
}
