// Package tags exercises //sync:tag: valid forms get no diagnostic about
// the tag, each invalid form gets its diagnostic. The loops exchange no
// message, so each well-formed one is reported as checking nothing.
package tags

type Step int

const (
	Prepare Step = iota
	Ack
	Commit
)

type View struct{ Number, Round uint64 }

type State struct {
	*View
	height int64
}

type Proc struct {
	ballot int
	step   Step
	state  State
	name   string
	votes  map[int]int
}

func (p *Proc) Ballot() int { return p.ballot }

var globalPhase int32

const limit = 10

// Valid forms.

func (p *Proc) fields(in chan int) {
	//sync:tag p.ballot,p.step // want `nothing is checked`
	for range in {
	}
	//sync:tag p.ballot, p.step // want `nothing is checked`
	for range in {
	}
}

func (p *Proc) trailing() {
	for p.ballot < limit { //sync:tag p.ballot,p.step // want `nothing is checked`
		p.ballot++
	}
}

func (p *Proc) embedded() {
	//sync:tag p.state.height,p.state.View.Number,p.state.Round
	for {
	}
}

func locals() {
	var height, round int
	//sync:tag height,round,globalPhase // want `nothing is checked`
	for {
		height++
		round = 0
		_ = round
	}
}

func forInit() {
	var step Step
	//sync:tag ballot,step // the ballot is the loop counter // want `nothing is checked`
	for ballot := 0; ballot < limit; ballot++ {
		step = Prepare
		_ = step
	}
}

// documented has a doc comment, which lies before the function's extent.
func (p *Proc) documented() {
	//sync:tag p.ballot,p.step
	for {
	}
}

func (p *Proc) labeled() {
	//sync:tag p.ballot,p.step
outer:
	for {
		break outer
	}
}

func (p *Proc) nested(slots []int) {
	var slot, sstep int
	//sync:tag p.ballot,p.step // want `nothing is checked`
	for {
		//sync:tag p.ballot,p.step,slot,sstep
		for range slots {
			slot++
			sstep = 0
		}
		_ = slot + sstep
		func() {
			// A loop of another function does not nest in p.ballot's.
			//sync:tag slot,sstep
			for {
			}
		}()
	}
}

// Invalid forms.

func (p *Proc) undefined() {
	//sync:tag p.balot,p.step // want `unknown field p\.balot: \*Proc has no field balot`
	for {
	}
	//sync:tag ballot,p.step // want `undefined: ballot \(a synchronization variable must be in scope at the loop\)`
	for {
	}
}

func (p *Proc) notVariables() {
	//sync:tag limit,p.step // want `limit is a constant, not addressable`
	for {
	}
	//sync:tag p.Ballot,p.step // want `p\.Ballot is a method, not a field`
	for {
	}
	//sync:tag fields,p.step // want `undefined: fields`
	for {
	}
	//sync:tag Step,p.step // want `Step is not addressable: a synchronization variable must be a variable, not a type`
	for {
	}
}

func (p *Proc) notIntegers() {
	//sync:tag p.name,p.votes // want `p\.name has type string: a synchronization variable must have an integer type` `p\.votes has type map\[int\]int`
	for {
	}
}

func (p *Proc) twice() {
	//sync:tag p.ballot,p.ballot // want `p\.ballot appears twice in the tag`
	for {
	}
}

func (p *Proc) badNesting(slots []int) {
	var slot int
	//sync:tag p.ballot,p.step // want `nothing is checked`
	for {
		slot = 0
		_ = slot
		//sync:tag slot,p.step // want `nested //sync:tag slot,p\.step does not extend its enclosing loop's tag p\.ballot,p\.step`
		for range slots {
		}
		//sync:tag p.ballot // want `nested //sync:tag p\.ballot does not extend`
		for range slots {
		}
	}
}

func (p *Proc) detached() {
	//sync:tag p.ballot,p.step // want `//sync:tag is attached to no for statement`

	for {
	}
	//sync:tag p.ballot,p.step // want `//sync:tag is attached to no for statement`
	p.ballot++
}

func (p *Proc) doubled() {
	//sync:tag p.ballot,p.step
	//sync:tag p.ballot,p.step // want `loop already has a //sync:tag`
	for {
	}
}

func (p *Proc) malformed() {
	//sync:tag // want `malformed //sync:tag: expected //sync:tag V1,V2\[,\.\.\.\]`
	for {
	}
	//sync:tag p.ballot,,p.step // want `empty element in list "p\.ballot,,p\.step"`
	for {
	}
	//sync:tag p.ballot,_ // want `_ is only allowed in //sync:msg`
	for {
	}
	//sync:tag p.ballot,p[0] // want `"p\[0\]" is not a variable, field path or constant`
	for {
	}
	// sync:tag p.ballot,p.step // want `comment is not read as a directive: write //sync:tag, with no space after //`
	for {
	}
	//sync:tags p.ballot // want `unknown directive //sync:tags`
	for {
	}
}
