// Package narrow checks integer conversions of tags: a widening one is the
// value itself, a narrowing one wraps.
package narrow

//sync:msg Term
type Prepare struct{ Term uint8 }

//sync:msg Term
type Wide struct{ Term int64 }

type Node struct {
	term  int64
	small uint8
	out   chan Prepare
	in    chan Prepare
	outw  chan Wide
}

// After 256 terms the message no longer carries the current one.
func (n *Node) Truncates() {
	//sync:tag n.term
	for {
		n.term++
		n.out <- Prepare{Term: uint8(n.term)} // want `cannot prove 2: cannot tell that Prepare.Term of the Prepare sent here equals the current n.term`
	}
}

// Truncated values compared: a Prepare of term t-256 gets in at term t.
func (n *Node) FilterTruncates() {
	//sync:tag n.term
	for {
		n.term++
		var got []Prepare
		for range 3 {
			m := <-n.in
			if m.Term != uint8(n.term) {
				continue
			}
			got = append(got, m) // want `condition 3: Prepare stored without checking that its tag is >= \(n.term\)`
		}
		_ = got
	}
}

// A uint8 tag widened into the message's int64 field is the tag.
func (n *Node) Widens() {
	//sync:tag n.small
	for {
		n.small++
		n.outw <- Wide{Term: int64(n.small)}
	}
}
