package mencius

import (
	"maps"
	"testing"
)

// run connects n servers by buffered channels and delivers messages round
// robin over the inboxes, in one goroutine, until every server reached
// slot upto.
func run(t *testing.T, requests [][]string, upto uint64) []*Server {
	t.Helper()
	n := len(requests)
	inbox := make([]chan *Message, n)
	peers := make([]chan<- *Message, n)
	for i := range inbox {
		inbox[i] = make(chan *Message, 1024)
		peers[i] = inbox[i]
	}
	srv := make([]*Server, n)
	for i := range srv {
		srv[i] = NewServer(i, peers)
		for _, v := range requests[i] {
			srv[i].Submit(v)
		}
	}
	for _, s := range srv {
		s.Start()
	}
	done := func() bool {
		for _, s := range srv {
			if s.slot < upto {
				return false
			}
		}
		return true
	}
	for steps := 0; !done(); steps++ {
		if steps > 10000 {
			t.Fatalf("servers did not reach slot %d", upto)
		}
		i := steps % n
		select {
		case m := <-inbox[i]:
			switch m.GetKind() {
			case KindSuggest:
				srv[i].OnSuggest(m)
			case KindSkip:
				srv[i].OnSkip(m)
			case KindAccepted:
				srv[i].OnAccepted(m)
			case KindCommit:
				srv[i].OnCommit(m)
			}
		default:
		}
	}
	return srv
}

func TestLogsAgree(t *testing.T) {
	srv := run(t, [][]string{{"x0", "y0"}, {"x1"}, {}}, 9)
	want := map[uint64]string{0: "x0", 1: "x1", 2: Noop, 3: "y0", 4: Noop, 5: Noop, 6: Noop, 7: Noop, 8: Noop}
	for _, s := range srv {
		got := maps.Clone(s.Log)
		for slot := range got {
			if slot >= 9 {
				delete(got, slot)
			}
		}
		if !maps.Equal(got, want) {
			t.Fatalf("server %d learned %v, want %v", s.id, got, want)
		}
	}
}
