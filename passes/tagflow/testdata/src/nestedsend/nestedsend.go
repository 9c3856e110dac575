// Package nestedsend: messages whose tag lies in a nested header behind a
// pointer (protobuf's nested messages), built in place or by a helper.
package nestedsend

// Header is a nested message holding the tag.
type Header struct{ Term int64 }

// Prepare is sent at the start of each term.
//
//sync:msg Hdr.Term
type Prepare struct {
	Hdr *Header
	Txn string
}

// Node is a participant.
type Node struct {
	term int64
	out  chan *Prepare
}

func (n *Node) hdr() *Header { return &Header{Term: n.term} }

// InPlace builds the header in the message's literal.
func (n *Node) InPlace() {
	//sync:tag n.term
	for {
		n.term++
		n.out <- &Prepare{Hdr: &Header{Term: n.term}, Txn: "t"}
	}
}

// Helper builds the header in a helper.
func (n *Node) Helper() {
	//sync:tag n.term
	for {
		n.term++
		n.out <- &Prepare{Hdr: n.hdr(), Txn: "t"}
	}
}

// Stale builds the header before the term changes.
func (n *Node) Stale() {
	//sync:tag n.term
	for {
		h := n.hdr()
		n.term++
		n.out <- &Prepare{Hdr: h, Txn: "t"} // want `condition 2: Prepare sent with Hdr.Term from before n.term was set at line 47`
	}
}

// Rewritten writes the header through another pointer after the message
// was built: the equality of the two paths is forgotten, not kept stale.
func (n *Node) Rewritten() {
	//sync:tag n.term
	for {
		h := &Header{Term: n.term}
		m := &Prepare{Hdr: h, Txn: "t"}
		n.term++
		h.Term = n.term
		n.out <- m // want `cannot prove 2: cannot tell that Prepare.Hdr.Term of the Prepare sent here equals the current n.term`
	}
}
