package abd

import (
	"context"
	"errors"
)

// Phase is the round part of the client's tag.
type Phase int

// The phases of an operation, in order.
const (
	// Query collects timestamped values from a majority.
	Query Phase = iota
	// Update installs a value at a majority.
	Update
)

// Timestamp orders the values of the register: by sequence number, then by
// writer id.
type Timestamp struct {
	Seq    int
	Writer int
}

// Less reports whether t is older than u.
func (t Timestamp) Less(u Timestamp) bool {
	return t.Seq < u.Seq || t.Seq == u.Seq && t.Writer < u.Writer
}

// QueryReq asks a replica for its value, in phase Query of operation Op.
//
//sync:msg Op,Query
type QueryReq struct {
	Op     int
	Client int
}

// QueryResp answers a QueryReq.
//
//sync:msg Op,Query
type QueryResp struct {
	Op   int
	From int
	TS   Timestamp
	Val  string
}

// UpdateReq asks a replica to install Val unless it holds a newer value.
//
//sync:msg Op,Update
type UpdateReq struct {
	Op     int
	Client int
	TS     Timestamp
	Val    string
}

// UpdateAck acknowledges an UpdateReq.
//
//sync:msg Op,Update
type UpdateAck struct {
	Op   int
	From int
}

// Operation is one client request: a read, or a write of Val.
type Operation struct {
	Write bool
	Val   string
}

// Result is what an operation returned, with the timestamp of that value.
type Result struct {
	Val string
	TS  Timestamp
}

// ErrStopped is returned when the context ends an operation.
var ErrStopped = errors.New("abd: stopped")

type client struct {
	id     int
	quorum int

	//sync:peers
	replicas []chan<- any
	//sync:inbox
	inbox <-chan any

	op    int   // number of the current operation
	phase Phase // phase of the current operation
}

func (c *client) broadcast(m any) {
	for _, r := range c.replicas {
		r <- m
	}
}

// Run executes ops in order as client id, talking to replicas and receiving
// their answers on inbox, and returns one result per operation.
func Run(ctx context.Context, id int, replicas []chan<- any, inbox <-chan any, ops []Operation) ([]Result, error) {
	c := &client{id: id, quorum: len(replicas)/2 + 1, replicas: replicas, inbox: inbox, op: 0, phase: Query}
	results := make([]Result, 0, len(ops))

	//sync:tag c.op,c.phase
	for _, o := range ops {
		c.op++
		c.phase = Query
		c.broadcast(QueryReq{Op: c.op, Client: c.id})
		replies := make(map[int]QueryResp)
		for len(replies) < c.quorum {
			select {
			case m := <-c.inbox:
				r, ok := m.(QueryResp)
				if !ok || r.Op != c.op {
					continue // not a reply to this query: drop
				}
				replies[r.From] = r
			case <-ctx.Done():
				return results, ErrStopped
			}
		}

		ts, val := freshest(replies)
		if o.Write {
			ts, val = Timestamp{Seq: ts.Seq + 1, Writer: c.id}, o.Val
		}

		c.phase = Update
		c.broadcast(UpdateReq{Op: c.op, Client: c.id, TS: ts, Val: val})
		acks := make(map[int]bool)
		for len(acks) < c.quorum {
			select {
			case m := <-c.inbox:
				a, ok := m.(UpdateAck)
				if !ok || a.Op != c.op {
					continue
				}
				acks[a.From] = true
			case <-ctx.Done():
				return results, ErrStopped
			}
		}
		results = append(results, Result{Val: val, TS: ts})
	}
	return results, nil
}

// freshest returns the value with the largest timestamp among the replies.
func freshest(replies map[int]QueryResp) (Timestamp, string) {
	var best QueryResp
	for _, r := range replies {
		if best.TS.Less(r.TS) {
			best = r
		}
	}
	return best.TS, best.Val
}

// Replica is one storage server.
type Replica struct {
	id      int
	clients []chan<- any
	ts      Timestamp
	val     string
}

// NewReplica returns replica id, which answers client i on clients[i].
func NewReplica(id int, clients []chan<- any) *Replica {
	return &Replica{id: id, clients: clients}
}

// Serve answers requests from in until ctx ends.
func (r *Replica) Serve(ctx context.Context, in <-chan any) {
	for {
		select {
		case <-ctx.Done():
			return
		case m := <-in:
			switch m := m.(type) {
			case QueryReq:
				r.clients[m.Client] <- QueryResp{Op: m.Op, From: r.id, TS: r.ts, Val: r.val}
			case UpdateReq:
				if r.ts.Less(m.TS) {
					r.ts, r.val = m.TS, m.Val
				}
				r.clients[m.Client] <- UpdateAck{Op: m.Op, From: r.id}
			}
		}
	}
}
