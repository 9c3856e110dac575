package dolevstrong

import (
	"crypto/hmac"
	"slices"
	"time"
)

// Sig is one signature of a chain.
type Sig struct {
	Signer int
	MAC    []byte
}

// Chain is a value with the signatures of the processes that relayed it,
// the dealer's first.
type Chain struct {
	Value string
	Sigs  []Sig
}

// Relay is the one message a process sends in a round of a slot.
//
//sync:msg Slot,Round
type Relay struct {
	Slot   int
	Round  int
	From   int
	Chains []Chain
}

// Process is one Dolev-Strong participant.
type Process struct {
	id, n, f int
	tr       Transport
	keys     *Keyring
	roundDur time.Duration
	input    func(slot int) string // the value this process deals in its slots
}

// NewProcess returns process id of n, tolerating f Byzantine processes.
func NewProcess(id, n, f int, tr Transport, keys *Keyring, roundDur time.Duration, input func(int) string) *Process {
	return &Process{id: id, n: n, f: f, tr: tr, keys: keys, roundDur: roundDur, input: input}
}

func (p *Process) dealer(slot int) int { return slot % p.n }

// Run runs slots slots and returns the value output in each.
func (p *Process) Run(slots int) []string {
	var decisions []string
	var relay []Chain
	extracted := make(map[string]bool)
	slot, r := 0, 1
	//sync:tag slot,r
	for slot < slots {
		if r == 1 && p.dealer(slot) == p.id {
			relay = append(relay, Chain{Value: p.input(slot)})
		}
		p.tr.Multicast(Relay{Slot: slot, Round: r, From: p.id, Chains: p.sign(slot, relay)})
		relay = nil

		for _, m := range p.receive(slot, r) {
			for _, c := range m.Chains {
				if !p.valid(m.Slot, m.Round, c) || extracted[c.Value] {
					continue
				}
				extracted[c.Value] = true
				if r <= p.f {
					relay = append(relay, c) // relayed, signed, in the next round
				}
			}
		}
		if r <= p.f {
			r++
			continue
		}
		decisions = append(decisions, decide(extracted))
		clear(extracted)
		slot++
		r = 1
	}
	return decisions
}

// receive gathers the messages of round r of slot from all n processes, or
// those that arrived before the round's time-out.
func (p *Process) receive(slot, r int) map[int]Relay {
	mbox := make(map[int]Relay)
	deadline := time.Now().Add(p.roundDur)
	for len(mbox) < p.n {
		m, ok := p.tr.Recv(deadline)
		if !ok {
			break
		}
		if m.Slot != slot || m.Round != r {
			continue
		}
		mbox[m.From] = m
	}
	return mbox
}

// sign appends this process's signature to each chain.
func (p *Process) sign(slot int, chains []Chain) []Chain {
	out := make([]Chain, 0, len(chains))
	for _, c := range chains {
		sigs := slices.Clone(c.Sigs)
		sigs = append(sigs, Sig{Signer: p.id, MAC: p.keys.mac(p.id, slot, c.Value, c.Sigs)})
		out = append(out, Chain{Value: c.Value, Sigs: sigs})
	}
	return out
}

// valid reports whether c is a valid chain of round round of slot: exactly
// round signatures by distinct processes, the dealer's first, none of them
// this process's.
func (p *Process) valid(slot, round int, c Chain) bool {
	if round < 1 || len(c.Sigs) != round || c.Sigs[0].Signer != p.dealer(slot) {
		return false
	}
	seen := make(map[int]bool)
	for i, s := range c.Sigs {
		if s.Signer < 0 || s.Signer >= p.n || seen[s.Signer] || s.Signer == p.id && i > 0 {
			return false
		}
		seen[s.Signer] = true
		if !hmac.Equal(s.MAC, p.keys.mac(s.Signer, slot, c.Value, c.Sigs[:i])) {
			return false
		}
	}
	return true
}

// decide is the output of a slot: the only extracted value, or "".
func decide(extracted map[string]bool) string {
	if len(extracted) != 1 {
		return ""
	}
	for v := range extracted {
		return v
	}
	return ""
}
