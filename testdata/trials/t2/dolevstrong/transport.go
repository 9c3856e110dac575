package dolevstrong

import (
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"sync"
	"time"
)

// Transport connects a process to the others.
type Transport interface {
	// Multicast sends m to every process, the sender included.
	//
	//sync:send
	Multicast(m Relay)
	// Recv returns the next message, or false at the deadline.
	//
	//sync:recv
	Recv(deadline time.Time) (Relay, bool)
}

// Network is an in-memory network; multicasts are atomic and inboxes FIFO.
type Network struct {
	mu    sync.Mutex
	inbox []chan Relay
}

// NewNetwork returns a network of n processes.
func NewNetwork(n int) *Network {
	nw := &Network{inbox: make([]chan Relay, n)}
	for i := range nw.inbox {
		nw.inbox[i] = make(chan Relay, 4096)
	}
	return nw
}

// Endpoint returns process id's Transport.
func (nw *Network) Endpoint(id int) Transport { return endpoint{nw, id} }

type endpoint struct {
	nw *Network
	id int
}

func (e endpoint) Multicast(m Relay) {
	e.nw.mu.Lock()
	defer e.nw.mu.Unlock()
	for _, ch := range e.nw.inbox {
		select {
		case ch <- m:
		default:
		}
	}
}

func (e endpoint) Recv(deadline time.Time) (Relay, bool) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case m := <-e.nw.inbox[e.id]:
		return m, true
	case <-t.C:
		return Relay{}, false
	}
}

// Keyring holds every process's signing key (a stand-in for a PKI).
type Keyring struct{ keys [][]byte }

// NewKeyring returns keys for n processes.
func NewKeyring(n int) *Keyring {
	k := &Keyring{keys: make([][]byte, n)}
	for i := range k.keys {
		k.keys[i] = fmt.Appendf(nil, "key-of-%d", i)
	}
	return k
}

func (k *Keyring) mac(signer, slot int, value string, prefix []Sig) []byte {
	h := hmac.New(sha256.New, k.keys[signer])
	fmt.Fprintf(h, "%d|%q", slot, value)
	for _, s := range prefix {
		fmt.Fprintf(h, "|%d", s.Signer)
	}
	return h.Sum(nil)
}
