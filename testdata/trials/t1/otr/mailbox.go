package otr

import (
	"maps"
	"slices"
)

// Mailbox holds at most one message per sender for one round.
type Mailbox[T any] struct {
	bySender map[int]T
}

// NewMailbox returns an empty mailbox.
func NewMailbox[T any]() *Mailbox[T] {
	return &Mailbox[T]{bySender: make(map[int]T)}
}

// Put stores m as the message of sender from, replacing an earlier one.
func (mb *Mailbox[T]) Put(from int, m T) { mb.bySender[from] = m }

// Len is the number of senders heard of.
func (mb *Mailbox[T]) Len() int { return len(mb.bySender) }

// Messages returns the messages in increasing sender order.
func (mb *Mailbox[T]) Messages() []T {
	out := make([]T, 0, len(mb.bySender))
	for _, q := range slices.Sorted(maps.Keys(mb.bySender)) {
		out = append(out, mb.bySender[q])
	}
	return out
}
