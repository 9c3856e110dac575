package annotations

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A ChanRole says what the channels of a //sync:peers or //sync:inbox
// field are to the process that holds them.
type ChanRole int

// The roles of version 2 of the language.
const (
	// Peers: the field is a table (slice, array, or map with an integer
	// key) whose element at index q is process q's inbox: a channel, or a
	// struct (or pointer to one) of channels. A send to peers[q] sends to
	// process q, and the table holds the inbox of every process.
	Peers ChanRole = iota + 1
	// Inbox: the field is the process's own inbox: a channel, or a struct
	// (or pointer to one) of channels, on which the process receives the
	// messages that the others send to it through their peer tables.
	Inbox
)

func (r ChanRole) String() string {
	if r == Peers {
		return "//sync:peers"
	}
	return "//sync:inbox"
}

// A ChanField is a struct field annotated //sync:peers or //sync:inbox:
// what make-HO needs to know to turn channel operations into the sends
// and the mailbox of a round. Without it, an index into a slice of
// channels is just an index; with it, the index is the identity of the
// receiving process, which is what a round's Send needs.
type ChanField struct {
	Field *types.Var
	Role  ChanRole
	// Chans are the channel types the field reaches: the field's own
	// type (inbox) or element type (peers) if it is a channel, otherwise
	// the types of the channel fields of that struct.
	Chans []*types.Chan
	// From and Msg are the fields of the envelope struct that the
	// channels carry, as named by "//sync:inbox From,Msg": From holds the
	// identity of the sender, Msg the message. Both are nil when the
	// channels carry messages (a //sync:msg type, a pointer to one, or an
	// interface) directly.
	From, Msg *types.Var
	Pos       token.Pos
}

// resolveChan resolves //sync:peers and //sync:inbox, which must be in the
// doc comment or the line comment of a struct field.
func (r *resolver) resolveChan(d *Directive, attached map[*ast.CommentGroup]attachment) {
	role := Peers
	if d.Kind == KindInbox {
		role = Inbox
	}
	a := attached[d.Group]
	if a.field == nil {
		r.errorf(d.Pos(), d.Comment.End(),
			"%s is attached to no struct field: put it in the doc comment of the field, or at the end of its line", d.Kind)
		return
	}
	if len(a.field.Names) != 1 {
		r.errorf(d.Pos(), d.Comment.End(), "%s must annotate a field with exactly one name", d.Kind)
		return
	}
	v, _ := r.pass.TypesInfo.Defs[a.field.Names[0]].(*types.Var)
	if v == nil {
		return // a type-checking error; the compiler reports it
	}
	if r.ann.Chans == nil {
		r.ann.Chans = make(map[*types.Var]*ChanField)
	}
	if prev, ok := r.ann.Chans[v]; ok {
		p := r.errorf(d.Pos(), d.Comment.End(), "field %s is already annotated %s", v.Name(), prev.Role)
		p.Related = append(p.Related, Related{Pos: prev.Pos, Message: "first annotation"})
		return
	}
	pkg := r.pass.Pkg
	t := v.Type()
	if role == Peers {
		var elem types.Type
		switch u := t.Underlying().(type) {
		case *types.Slice:
			elem = u.Elem()
		case *types.Array:
			elem = u.Elem()
		case *types.Map:
			if !isInteger(u.Key()) {
				r.errorf(d.Pos(), d.Comment.End(), "//sync:peers: field %s is a map with key type %s: the key must be a process identity, of an integer type",
					v.Name(), typeString(u.Key(), pkg))
				return
			}
			elem = u.Elem()
		default:
			r.errorf(d.Pos(), d.Comment.End(), "//sync:peers: field %s has type %s: want a slice, array or map, indexed by process, of inboxes (channels, or structs of channels)",
				v.Name(), typeString(t, pkg))
			return
		}
		t = elem
	}
	chans := ChannelsOf(t)
	if len(chans) == 0 {
		r.errorf(d.Pos(), d.Comment.End(), "%s: field %s has type %s: want %s a channel, or a struct (or pointer to a struct) with channel fields",
			d.Kind, v.Name(), typeString(v.Type(), pkg), map[ChanRole]string{Peers: "a table whose elements are", Inbox: "the process's inbox,"}[role])
		return
	}
	for _, ch := range chans {
		if role == Peers && ch.Dir() == types.RecvOnly || role == Inbox && ch.Dir() == types.SendOnly {
			what := "send"
			if role == Inbox {
				what = "receive"
			}
			r.errorf(d.Pos(), d.Comment.End(), "%s: field %s reaches the channel type %s, on which the process cannot %s",
				d.Kind, v.Name(), typeString(ch, pkg), what)
			return
		}
	}
	cf := &ChanField{Field: v, Role: role, Chans: chans, Pos: d.Pos()}
	if len(d.List) == 2 {
		if !r.resolveEnvelope(d, cf) {
			return
		}
	} else {
		for _, ch := range chans {
			e := ch.Elem()
			if from, msg, ok := r.inferEnvelope(e); ok && (cf.From == nil || cf.From == from && cf.Msg == msg) {
				// An envelope with one integer field and one message
				// field says by itself which is which.
				cf.From, cf.Msg = from, msg
				continue
			}
			if r.ann.MsgOf(e) == nil && !types.IsInterface(e) {
				r.errorf(d.Pos(), d.Comment.End(),
					"%s: field %s carries %s, which is neither a //sync:msg type nor an interface: if it is an envelope, name its sender and message fields (%s From,Msg)",
					d.Kind, v.Name(), typeString(e, pkg), d.Kind)
				return
			}
		}
	}
	r.ann.Chans[v] = cf
}

// inferEnvelope reports the sender and message fields of e when e is a
// struct (not a message type) with exactly one field of an integer type
// and exactly one field of a //sync:msg type or an interface.
func (r *resolver) inferEnvelope(e types.Type) (from, msg *types.Var, ok bool) {
	if r.ann.MsgOf(e) != nil {
		return nil, nil, false
	}
	st, isStruct := e.Underlying().(*types.Struct)
	if !isStruct {
		return nil, nil, false
	}
	for f := range st.Fields() {
		switch {
		case isInteger(f.Type()):
			if from != nil {
				return nil, nil, false
			}
			from = f
		case r.ann.MsgOf(f.Type()) != nil || types.IsInterface(f.Type()):
			if msg != nil {
				return nil, nil, false
			}
			msg = f
		}
	}
	return from, msg, from != nil && msg != nil
}

// resolveEnvelope resolves the From,Msg list of d against the element type
// of every channel of cf.
func (r *resolver) resolveEnvelope(d *Directive, cf *ChanField) bool {
	pkg := r.pass.Pkg
	fromIt, msgIt := d.List[0], d.List[1]
	for _, ch := range cf.Chans {
		e := ch.Elem()
		st, ok := e.Underlying().(*types.Struct)
		if !ok {
			r.errorf(d.Pos(), d.Comment.End(), "%s: field %s carries %s, which is not an envelope struct", d.Kind, cf.Field.Name(), typeString(e, pkg))
			return false
		}
		find := func(it *Item) *types.Var {
			if len(it.Path) != 1 {
				r.itemErrorf(it, "%s: %s is not a field name of %s", d.Kind, it.Text, typeString(e, pkg))
				return nil
			}
			for i := 0; i < st.NumFields(); i++ {
				if f := st.Field(i); f.Name() == it.Text && (f.Exported() || f.Pkg() == pkg) {
					return f
				}
			}
			r.itemErrorf(it, "%s: %s has no field %s", d.Kind, typeString(e, pkg), it.Text)
			return nil
		}
		from, msg := find(fromIt), find(msgIt)
		if from == nil || msg == nil {
			return false
		}
		if !isInteger(from.Type()) {
			r.itemErrorf(fromIt, "%s: the sender field %s has type %s: want an integer type (a process identity)", d.Kind, from.Name(), typeString(from.Type(), pkg))
			return false
		}
		if r.ann.MsgOf(msg.Type()) == nil && !types.IsInterface(msg.Type()) {
			r.itemErrorf(msgIt, "%s: the message field %s has type %s: want a //sync:msg type or an interface", d.Kind, msg.Name(), typeString(msg.Type(), pkg))
			return false
		}
		if cf.From != nil && (cf.From != from || cf.Msg != msg) {
			r.errorf(d.Pos(), d.Comment.End(), "%s: the channels of field %s carry different envelope types", d.Kind, cf.Field.Name())
			return false
		}
		cf.From, cf.Msg = from, msg
	}
	return true
}

// ChannelsOf returns t if it is a channel type, or the channel types of
// the fields of t if it is a struct or a pointer to one (an inbox struct
// of typed channels).
func ChannelsOf(t types.Type) []*types.Chan {
	if ch, ok := t.Underlying().(*types.Chan); ok {
		return []*types.Chan{ch}
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var out []*types.Chan
	for i := 0; i < st.NumFields(); i++ {
		if ch, ok := st.Field(i).Type().Underlying().(*types.Chan); ok {
			out = append(out, ch)
		}
	}
	return out
}
