package streamlet

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Step is the round part of the tag (epoch, step).
type Step int

// The two rounds of an epoch.
const (
	// Proposing: the epoch's leader broadcasts a block.
	Proposing Step = iota
	// Voting: replicas broadcast their vote for that block.
	Voting
)

// Block is a block of the chain. Hash is computed by hashBlock.
type Block struct {
	Epoch  int
	Parent string
	Txs    string
	Hash   string
}

// Proposal is the leader's block for an epoch.
//
//sync:msg Epoch,Proposing
type Proposal struct {
	Epoch int
	From  int
	Block Block
}

// Vote is a replica's vote for the block of an epoch.
//
//sync:msg Epoch,Voting
type Vote struct {
	Epoch int
	From  int
	Hash  string
}

const genesis = "genesis"

// Replica is one Streamlet replica.
type Replica struct {
	id       int
	n        int
	epochDur time.Duration

	//sync:peers
	peers  []chan<- any
	sendMu *sync.Mutex // shared by the group: a broadcast is atomic
	//sync:inbox
	inbox <-chan any

	blocks    map[string]Block
	height    map[string]int // chain length of each notarized block
	finalized []Block        // the final chain, genesis excluded
	trace     []string       // the rounds this replica went through
}

// NewReplica returns replica id, which sends to peers[q] and receives on
// inbox. All the replicas of a group share sendMu, which makes broadcasts
// atomic: a replica's vote never overtakes the proposal it answers.
func NewReplica(id int, peers []chan<- any, sendMu *sync.Mutex, inbox <-chan any, epochDur time.Duration) *Replica {
	return &Replica{
		id: id, n: len(peers), epochDur: epochDur,
		peers: peers, sendMu: sendMu, inbox: inbox,
		blocks: map[string]Block{genesis: {Hash: genesis}},
		height: map[string]int{genesis: 0},
	}
}

// Trace returns the rounds the replica went through, as "epoch/step".
func (r *Replica) Trace() []string { return slices.Clone(r.trace) }

// enter records that the replica is in round (epoch, step).
func (r *Replica) enter(epoch int, step Step) {
	r.trace = append(r.trace, fmt.Sprintf("%d/%d", epoch, step))
}

// Finalized returns the final chain, oldest block first.
func (r *Replica) Finalized() []Block { return slices.Clone(r.finalized) }

func (r *Replica) leader(epoch int) int { return epoch % r.n }

func (r *Replica) quorum() int { return (2*r.n + 2) / 3 }

func (r *Replica) broadcast(m any) {
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	for _, ch := range r.peers {
		select {
		case ch <- m:
		default: // full inbox: lost
		}
	}
}

func hashBlock(b Block) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%d|%s|%s", b.Epoch, b.Parent, b.Txs))
	return hex.EncodeToString(sum[:8])
}

// Run takes part in epochs 1..epochs.
func (r *Replica) Run(ctx context.Context, epochs int) error {
	epoch, step := 1, Proposing
	//sync:tag epoch,step
	for epoch <= epochs {
		r.enter(epoch, step)
		timer := time.NewTimer(r.epochDur / 2)
		if r.leader(epoch) == r.id {
			tip := r.longestTip()
			b := Block{Epoch: epoch, Parent: tip, Txs: fmt.Sprintf("txs of %d", epoch)}
			b.Hash = hashBlock(b)
			r.broadcast(&Proposal{Epoch: epoch, From: r.id, Block: b})
		}

		var prop *Proposal
	proposals:
		for prop == nil {
			select {
			case m := <-r.inbox:
				p, ok := m.(*Proposal)
				if !ok || p.Epoch < epoch || p.From != r.leader(p.Epoch) {
					continue // a vote, or an old epoch: drop
				}
				prop = p
			case <-timer.C:
				break proposals
			case <-ctx.Done():
				timer.Stop()
				return ctx.Err()
			}
		}
		if prop != nil && prop.Epoch > epoch {
			epoch = prop.Epoch // we fell behind: skip to the leader's epoch
		}

		step = Voting
		r.enter(epoch, step)
		if prop != nil && r.extendsLongest(prop.Block) {
			r.blocks[prop.Block.Hash] = prop.Block
			r.broadcast(&Vote{Epoch: epoch, From: r.id, Hash: prop.Block.Hash})
		}

		timer.Reset(r.epochDur / 2)
		votes := make(map[int]string)
	ballots:
		for !hasQuorum(votes, r.quorum()) {
			select {
			case m := <-r.inbox:
				switch v := m.(type) {
				case *Vote:
					if v.Epoch != epoch {
						continue
					}
					votes[v.From] = v.Hash
				case *Proposal:
					continue // a duplicate or another epoch's proposal
				}
			case <-timer.C:
				break ballots
			case <-ctx.Done():
				timer.Stop()
				return ctx.Err()
			}
		}
		timer.Stop()
		if hash, ok := quorumHash(votes, r.quorum()); ok {
			r.notarize(hash)
		}
		// The epoch is over, whatever happened in it.
		epoch++
		step = Proposing
	}
	return nil
}

// longestTip returns the hash of the tip of a longest notarized chain
// (ties broken by hash, so all replicas agree).
func (r *Replica) longestTip() string {
	best := genesis
	for h, l := range r.height {
		if l > r.height[best] || l == r.height[best] && h < best {
			best = h
		}
	}
	return best
}

// extendsLongest reports whether b's parent is the tip of a longest
// notarized chain.
func (r *Replica) extendsLongest(b Block) bool {
	l, ok := r.height[b.Parent]
	if !ok || b.Hash != hashBlock(b) {
		return false
	}
	for _, o := range r.height {
		if o > l {
			return false
		}
	}
	return true
}

// notarize records a notarized block and finalizes by the three-chain rule.
func (r *Replica) notarize(hash string) {
	b, ok := r.blocks[hash]
	if !ok {
		return // votes for a block we never saw
	}
	r.height[hash] = r.height[b.Parent] + 1
	b1, ok1 := r.blocks[b.Parent]
	if !ok1 || b1.Hash == genesis {
		return
	}
	b0 := r.blocks[b1.Parent]
	if b0.Hash == genesis || b0.Epoch+1 != b1.Epoch || b1.Epoch+1 != b.Epoch {
		return
	}
	var chain []Block
	for h := b1.Hash; h != genesis; h = r.blocks[h].Parent {
		chain = append(chain, r.blocks[h])
	}
	slices.Reverse(chain)
	if len(chain) > len(r.finalized) {
		r.finalized = chain
	}
}

func hasQuorum(votes map[int]string, q int) bool {
	_, ok := quorumHash(votes, q)
	return ok
}

func quorumHash(votes map[int]string, q int) (string, bool) {
	count := make(map[string]int)
	for _, h := range votes {
		count[h]++
		if count[h] >= q {
			return h, true
		}
	}
	return "", false
}
