// Package depth: a call that may write the tag and that ccvet does not
// follow says why — too deep in the loop's code, or recursive.
package depth

type P struct {
	round int
	in    chan int
}

func (p *P) deep() {
	//sync:tag p.round
	for {
		<-p.in
		p.a()
	}
}

func (p *P) a() { p.b() }
func (p *P) b() { p.c() }
func (p *P) c() { p.d() }
func (p *P) d() { p.e() } // want `cannot prove 1: the call to e may change p.round and ccvet cannot follow it \(it is 5 calls deep in the loop's code, and ccvet follows 4\)`
func (p *P) e() { p.round = 0 }

func (p *P) recursive() {
	//sync:tag p.round
	for {
		<-p.in
		p.reset(3)
	}
}

func (p *P) reset(n int) {
	if n == 0 {
		p.round = 0
		return
	}
	p.reset(n - 1) // want `cannot prove 1: the call to reset may change p.round and ccvet cannot follow it \(a recursive call\)`
}
