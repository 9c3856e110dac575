package dagrider

import (
	"context"
	"fmt"
	"maps"
	"slices"
)

// Run builds the DAG through the last round of wave waves, committing
// leaders at the end of every wave. It returns early, with ctx's error, if
// ctx is done first.
func (p *Process) Run(ctx context.Context, waves int) error {
	p.wave, p.step = 1, 0
	next := &Vertex{Hdr: Header{Wave: 1, Step: 0}, Author: p.id, Block: p.block()}
	mbox := make(map[int]Vertex)

	//sync:tag p.wave,p.step
	for p.wave <= waves {
		if next != nil {
			p.net.Broadcast(*next)
			next = nil
		}
		select {
		case v := <-p.in:
			if v.Hdr.Wave < p.wave || v.Hdr.Wave == p.wave && v.Hdr.Step < p.step {
				continue // its round is over here
			}
			if old, ok := mbox[v.Author]; !ok || later(v.Hdr, old.Hdr) {
				mbox[v.Author] = v
			}
		case <-ctx.Done():
			return ctx.Err()
		}

		// Jump to the latest round of the mailbox: processes are ahead.
		// This process sends no vertex in the round it jumps to, having
		// no parents for it.
		for _, v := range mbox {
			if later(v.Hdr, Header{Wave: p.wave, Step: p.step}) {
				p.wave, p.step = v.Hdr.Wave, v.Hdr.Step
			}
		}
		maps.DeleteFunc(mbox, func(_ int, v Vertex) bool {
			return v.Hdr != Header{Wave: p.wave, Step: p.step}
		})

		if len(mbox) < 2*p.f+1 {
			continue
		}
		// The round is complete: add it to the DAG and move on.
		p.dag[abs(p.wave, p.step)] = maps.Clone(mbox)
		if p.step == Steps-1 {
			p.tryCommit(p.wave)
			p.wave++
			p.step = 0
		} else {
			p.step++
		}
		next = &Vertex{
			Hdr:     Header{Wave: p.wave, Step: p.step},
			Author:  p.id,
			Parents: slices.Sorted(maps.Keys(mbox)),
			Block:   p.block(),
		}
		clear(mbox)
	}
	return nil
}

// block returns the block this process proposes in its current round.
func (p *Process) block() string { return fmt.Sprintf("b%d-r%d", p.id, abs(p.wave, p.step)) }

// later reports whether round a comes after round b.
func later(a, b Header) bool {
	return a.Wave > b.Wave || a.Wave == b.Wave && a.Step > b.Step
}

// tryCommit commits the leader of wave w if 2f+1 vertices of the wave's last
// round reach it, together with the earlier uncommitted leaders it reaches,
// and delivers their causal histories. It reports whether it committed.
func (p *Process) tryCommit(w int) bool {
	leader, ok := p.dag[abs(w, 0)][p.leaderOf(w)]
	if !ok {
		return false
	}
	support := 0
	for u := range p.dag[abs(w, Steps-1)] {
		if p.reaches(abs(w, Steps-1), u, abs(w, 0), leader.Author) {
			support++
		}
	}
	if support < 2*p.f+1 {
		return false
	}
	// Earlier leaders reachable from this one are ordered first.
	stack := []int{w}
	cur := w
	for prev := w - 1; prev > p.committed; prev-- {
		if l, ok := p.dag[abs(prev, 0)][p.leaderOf(prev)]; ok && p.reaches(abs(cur, 0), p.leaderOf(cur), abs(prev, 0), l.Author) {
			stack = append(stack, prev)
			cur = prev
		}
	}
	for i := len(stack) - 1; i >= 0; i-- {
		p.deliverHistory(abs(stack[i], 0), p.leaderOf(stack[i]))
	}
	p.committed = w
	return true
}

// reaches reports whether vertex (r, a) of the DAG has a path of strong
// edges to vertex (target, b).
func (p *Process) reaches(r, a, target, b int) bool {
	frontier := map[int]bool{a: true}
	for ; r > target; r-- {
		prev := make(map[int]bool)
		for x := range frontier {
			for _, q := range p.dag[r][x].Parents {
				if _, ok := p.dag[r-1][q]; ok {
					prev[q] = true
				}
			}
		}
		frontier = prev
	}
	return frontier[b]
}

// deliverHistory delivers the causal history of vertex (r, a) not yet
// delivered, by round and then by author.
func (p *Process) deliverHistory(r, a int) {
	frontier := map[int]bool{a: true}
	var history [][2]int
	for ; r >= 0 && len(frontier) > 0; r-- {
		prev := make(map[int]bool)
		for x := range frontier {
			if p.delivered[[2]int{r, x}] {
				continue // and so is its own history
			}
			history = append(history, [2]int{r, x})
			for _, q := range p.dag[r][x].Parents {
				if _, ok := p.dag[r-1][q]; ok {
					prev[q] = true
				}
			}
		}
		frontier = prev
	}
	slices.SortFunc(history, func(x, y [2]int) int {
		if x[0] != y[0] {
			return x[0] - y[0]
		}
		return x[1] - y[1]
	})
	for _, v := range history {
		p.delivered[v] = true
		p.output = append(p.output, p.dag[v[0]][v[1]].Block)
	}
}
