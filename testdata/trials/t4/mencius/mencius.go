package mencius

// Noop is the value a skipped slot is learned with.
const Noop = "<no-op>"

// Server is one Mencius server. Slot s is owned by server s mod n, which
// either suggests a client request in it or skips it. The driver calls the
// handler of each delivered message's kind.
//
//sync:tag slot,phase
type Server struct {
	id    int
	slot  uint64
	phase Phase

	//sync:peers
	peers []chan<- *Message

	accepted map[int32]bool // the owner's mailbox for Accepted in its slot
	proposed string         // what the owner suggested in its slot
	pending  []string

	// Log is what this server learned, by slot.
	Log map[uint64]string
}

// NewServer returns server id; peers[i] is the inbox of server i.
func NewServer(id int, peers []chan<- *Message) *Server {
	return &Server{id: id, peers: peers, Log: map[uint64]string{}}
}

// Submit queues a client request at this server, to be suggested in its
// next slot. It does not touch the slot or phase.
func (s *Server) Submit(v string) { s.pending = append(s.pending, v) }

func (s *Server) owner(slot uint64) int { return int(slot % uint64(len(s.peers))) }

func (s *Server) majority() int { return len(s.peers)/2 + 1 }

func (s *Server) broadcast(m *Message) {
	for _, p := range s.peers {
		p <- m
	}
}

// Start enters slot 0.
//
//sync:handler
func (s *Server) Start() { s.enter(0) }

// enter moves to the Suggest phase of slot; the owner of the slot suggests
// its next request or, having none, skips the slot.
func (s *Server) enter(slot uint64) {
	s.slot, s.phase = slot, PhaseSuggest
	s.accepted = map[int32]bool{}
	if s.owner(slot) != s.id {
		return
	}
	if len(s.pending) == 0 {
		s.broadcast(&Message{Slot: s.slot, Kind: KindSkip, From: int32(s.id)})
		return
	}
	s.proposed, s.pending = s.pending[0], s.pending[1:]
	s.broadcast(&Message{Slot: s.slot, Kind: KindSuggest, From: int32(s.id), Value: s.proposed})
}

// OnSuggest accepts the owner's suggestion for the slot.
//
//sync:handler
func (s *Server) OnSuggest(m *Message) {
	if int(m.GetFrom()) != s.owner(m.GetSlot()) {
		return
	}
	if m.GetSlot() < s.slot || (m.GetSlot() == s.slot && s.phase > PhaseSuggest) {
		return
	}
	if m.GetSlot() > s.slot {
		s.enter(m.GetSlot())
	}
	s.phase = PhaseAccept
	s.peers[s.owner(s.slot)] <- &Message{Slot: s.slot, Kind: KindAccepted, From: int32(s.id)}
}

// OnSkip learns a skipped slot: only its owner may suggest a real value, so
// its skip is chosen at once.
//
//sync:handler
func (s *Server) OnSkip(m *Message) {
	if int(m.GetFrom()) != s.owner(m.GetSlot()) {
		return
	}
	if m.GetSlot() < s.slot || (m.GetSlot() == s.slot && s.phase > PhaseSuggest) {
		return
	}
	if m.GetSlot() > s.slot {
		s.enter(m.GetSlot())
	}
	s.Log[s.slot] = Noop
	s.enter(s.slot + 1)
}

// OnAccepted counts acceptances at the owner; a majority chooses the value.
//
//sync:handler
func (s *Server) OnAccepted(m *Message) {
	if m.GetSlot() != s.slot || s.phase != PhaseAccept || s.owner(s.slot) != s.id {
		return
	}
	s.accepted[m.GetFrom()] = true
	if len(s.accepted) < s.majority() {
		return
	}
	s.phase = PhaseCommit
	s.accepted = map[int32]bool{}
	s.broadcast(&Message{Slot: s.slot, Kind: KindCommit, From: int32(s.id), Value: s.proposed})
}

// OnCommit learns the value chosen in a slot and moves to the next slot.
//
//sync:handler
func (s *Server) OnCommit(m *Message) {
	if m.GetSlot() < s.slot {
		return
	}
	if m.GetSlot() > s.slot || s.phase < PhaseCommit {
		s.slot, s.phase = m.GetSlot(), PhaseCommit
		s.accepted = map[int32]bool{}
	}
	s.Log[s.slot] = m.GetValue()
	s.enter(s.slot + 1)
}
