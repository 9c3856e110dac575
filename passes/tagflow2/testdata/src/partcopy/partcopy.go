// Package partcopy reads a message's tag through a copy of the part that
// holds it (b := p.Block; b.Round), and through methods: a getter of that
// field (Round()) and a method returning the type's constant kind
// (Kind()). The copy's fields are the message's components.
package partcopy

type Step int

const (
	StepPropose Step = iota
	StepVote
)

type Block struct {
	Round  uint64
	Author int
}

//sync:msg Round(),Kind()
type Proposal struct {
	Block Block
}

func (m *Proposal) Round() uint64 { return m.Block.Round }
func (m *Proposal) Kind() Step    { return StepPropose }

type Net interface {
	//sync:send
	Send(m *Proposal)
}

//sync:tag round,step
type Node struct {
	net    Net
	round  uint64
	step   Step
	blocks map[int]Block
}

// Propose sends the round's proposal.
//
//sync:handler
func (nd *Node) Propose() {
	nd.round++
	nd.step = StepPropose
	nd.net.Send(&Proposal{Block: Block{Round: nd.round}})
}

// OnProposal keeps a proposal of its round or a later one, moving to the
// latter: clean.
//
//sync:handler
func (nd *Node) OnProposal(p *Proposal) {
	b := p.Block
	if b.Round < nd.round || b.Round == nd.round && nd.step > StepPropose {
		return
	}
	if b.Round > nd.round {
		nd.round, nd.step = b.Round, StepPropose
		nd.blocks = map[int]Block{}
	}
	nd.blocks[b.Author] = b
}

// OnAnyProposal keeps a proposal of any round.
//
//sync:handler
func (nd *Node) OnAnyProposal(p *Proposal) {
	b := p.Block
	if b.Round > nd.round {
		return
	}
	nd.blocks[b.Author] = b // want `condition 3: the state changes while the received Proposal may be of an earlier round than \(round,step\) was when the handler was called: such a message must leave the state unchanged`
}
