package slicembox

// Mailbox collects the messages of one round.
type Mailbox[T any] struct {
	items []T
}

// NewMailbox returns an empty mailbox.
func NewMailbox[T any]() *Mailbox[T] { return &Mailbox[T]{} }

// Put adds a message.
func (b *Mailbox[T]) Put(x T) { b.items = append(b.items, x) }

// Len is the number of messages held.
func (b *Mailbox[T]) Len() int { return len(b.items) }

// A mailbox made each round by a constructor, filled through a method.
func (p *Proc) Method() {
	//sync:tag p.round
	for {
		p.out <- Vote{Round: p.round}
		mb := NewMailbox[Vote]()
		for mb.Len() < p.n {
			m := <-p.in
			if m.Round != p.round {
				continue
			}
			mb.Put(m)
		}
		p.heard = mb.Len()
		p.round++
	}
}
