package nophase

import (
	"time"

	"transport"
)

//sync:msg Height,Round,Step
type HMsg struct {
	Height, Round int
	Step          Step
}

type HProc struct {
	net           transport.Net
	height, round int
	step          Step
	x             int
}

// Run increases the phase (height,round) on every path of a switch.
func (p *HProc) Run() {
	//sync:tag p.height,p.round,p.step
	for {
		switch {
		case p.x > 0:
			p.height++
			p.round = 0
		default:
			p.round++
		}
		p.step = A
		p.net.Broadcast(HMsg{Height: p.height, Round: p.round, Step: p.step})
		var got1 []HMsg
		for len(got1) < 3 {
			raw, _, ok := p.net.Recv(time.Now())
			if !ok {
				break
			}
			m, isMsg := raw.(HMsg)
			if !isMsg || m.Height != p.height || m.Round != p.round || m.Step != p.step {
				continue
			}
			got1 = append(got1, m)
		}
		p.step = B
		p.net.Broadcast(HMsg{Height: p.height, Round: p.round, Step: p.step})
		var got2 []HMsg
		for len(got2) < 3 {
			raw, _, ok := p.net.Recv(time.Now())
			if !ok {
				break
			}
			m, isMsg := raw.(HMsg)
			if !isMsg || m.Height != p.height || m.Round != p.round || m.Step != p.step {
				continue
			}
			got2 = append(got2, m)
		}
		p.x = len(got2)
	}
}
