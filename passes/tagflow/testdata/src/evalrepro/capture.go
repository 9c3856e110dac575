package evalrepro

// A receiver captured by a closure is spilled to memory at the function's
// entry and read from there (hashicorp/raft's runCandidate and leaderLoop
// defer closures that use r): the tag is still the tag.

type C struct {
	term uint64
	in   chan *Req
}

func (c *C) Run() {
	defer func() { _ = c.term }()
	//sync:tag c.term
	for {
		<-c.in
		c.term-- // want `condition 1: c\.term is set lower than it was at receive \(line 16\)`
	}
}
