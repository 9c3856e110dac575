package evalrepro

// TG-2 (libocr's outcome generation): the writer is reached from the
// interface method's implementation through a call of another method of
// the generic type. Without monomorphisation, SSA calls a method of
// G[T] from generic code through an instantiation wrapper that belongs
// to no package; the summary must follow it to the generic method.

type GEvent[T any] interface{ process(*G[T]) }

type G[T any] struct {
	e  uint64
	ch chan GEvent[T]
}

type newEpoch[T any] struct{ epoch uint64 }

func (ev newEpoch[T]) process(g *G[T]) { g.startEpoch(ev.epoch) }

func (g *G[T]) startEpoch(e uint64) { g.e = e } // want `condition 1: g\.e is set lower than it was at receive \(line 42\)`

func (g *G[T]) Run() {
	//sync:tag g.e
	for {
		ev := <-g.ch
		ev.process(g) // want `cannot prove 1: the call to the method process of an interface may change g\.e and ccvet cannot follow it`
	}
}

// A direct call of a writing method of the generic type is interpreted.
func (g *G[T]) Direct() {
	//sync:tag g.e
	for {
		<-g.ch
		g.startEpoch(g.e + 1)
	}
}

func (g *G[T]) Lower() {
	//sync:tag g.e
	for {
		<-g.ch
		g.startEpoch(g.e - 1)
	}
}

// The interface call inside a helper of the package (libocr's
// messageToOutcomeGeneration calling msg.msg.processOutcomeGeneration):
// the helper may write the tag, so it is followed.
func (g *G[T]) handle(ev GEvent[T]) { ev.process(g) } // want `cannot prove 1: the call to the method process of an interface may change g\.e and ccvet cannot follow it`

func (g *G[T]) Helper() {
	//sync:tag g.e
	for {
		ev := <-g.ch
		g.handle(ev)
	}
}

// The same without generics.

type HEv interface{ apply(*H) }

type H struct {
	e  uint64
	ch chan HEv
}

type hreset struct{}

func (hreset) apply(h *H) { h.e = 0 }

func (h *H) handle(ev HEv) { ev.apply(h) } // want `cannot prove 1: the call to the method apply of an interface may change h\.e and ccvet cannot follow it`

func (h *H) Run() {
	//sync:tag h.e
	for {
		ev := <-h.ch
		h.handle(ev)
	}
}
