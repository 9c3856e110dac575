package annotations

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
)

// Kind is the kind of a //sync: directive.
type Kind int

// The directive kinds. Version 1 of the language has tag, msg, send,
// recv and ignore; version 2 adds peers and inbox, which only make-HO
// reads, and handler and local, of the process form.
const (
	KindTag     Kind = iota + 1 // //sync:tag V1,V2,...
	KindMsg                     // //sync:msg [pkg.Type] F1,F2,...
	KindSend                    // //sync:send [pkg.Func]
	KindRecv                    // //sync:recv [pkg.Func]
	KindIgnore                  // //sync:ignore ANALYZER reason
	KindPeers                   // //sync:peers [From,Msg], on a struct field
	KindInbox                   // //sync:inbox [From,Msg], on a struct field
	KindHandler                 // //sync:handler [pkg.(*T).Method | F==C]
	KindLocal                   // //sync:local [pkg.T] F==C
)

var kindNames = map[string]Kind{
	"tag":     KindTag,
	"msg":     KindMsg,
	"send":    KindSend,
	"recv":    KindRecv,
	"ignore":  KindIgnore,
	"peers":   KindPeers,
	"inbox":   KindInbox,
	"handler": KindHandler,
	"local":   KindLocal,
}

// String returns the directive as written, e.g. "//sync:tag".
func (k Kind) String() string {
	for name, kk := range kindNames {
		if kk == k {
			return "//sync:" + name
		}
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Prefix starts every directive. Like //go: directives it has no space
// after the slashes.
const Prefix = "//sync:"

// A Directive is one //sync: comment, split into its arguments but not yet
// resolved against the package's types.
type Directive struct {
	Kind    Kind
	Comment *ast.Comment
	Group   *ast.CommentGroup
	// Target is the first, space-separated argument of the forms that
	// name a declaration elsewhere (//sync:msg pkg.Type F1,F2,
	// //sync:send pkg.Func); nil when absent.
	Target *Item
	// List holds the comma-separated items: tag variables for tag, message
	// components for msg, analyzer names for ignore, the sender and
	// message fields of an envelope for peers and inbox.
	List []*Item
	// Reason is the free text of //sync:ignore.
	Reason string
	// Stamps reports "//sync:send stamps": the send puts the process's
	// current tag on every message it sends.
	Stamps bool
}

// Pos is the position of the directive's comment.
func (d *Directive) Pos() token.Pos { return d.Comment.Slash }

// An Item is one argument of a directive: a dotted path such as p.ballot,
// View.Round, pkg.(*T).Method, the blank _, a method call Height(), an
// enum mapping Type{PrevoteType:RoundStepPrevote}, or (the right-hand side
// of //sync:local) an integer literal.
type Item struct {
	Text string
	Pos  token.Pos
	// Path is Text split at dots; for a method expression (*T).M the
	// receiver segment keeps its parentheses and star: ["pkg", "(*T)", "M"].
	// It leaves out the parentheses of Call and the braces of Map, and is
	// nil for an integer literal.
	Path []string
	// Call reports a method component written with parentheses: Height().
	Call bool
	// Map holds the pairs of an enum mapping Path{From:To,...}, in order;
	// nil when the item has no braces.
	Map []*MapPair
}

// A MapPair is one From:To of an enum mapping: a constant of the
// message's enum and the round constant it stands for.
type MapPair struct {
	From, To *Item
}

// End is the position just after the item.
func (it *Item) End() token.Pos { return it.Pos + token.Pos(len(it.Text)) }

// A Problem is a malformed or unresolvable directive, reported by the
// syncdirective analyzer.
type Problem struct {
	Pos, End token.Pos
	Message  string
	Related  []Related
	// Fixes are the suggested fixes of the problem, set only where the
	// repair is mechanical and certain (a near miss of the prefix, a
	// misspelt directive name).
	Fixes []analysis.SuggestedFix
}

// Related is a secondary position of a Problem.
type Related struct {
	Pos     token.Pos
	Message string
}

func problemf(pos, end token.Pos, format string, args ...any) Problem {
	return Problem{Pos: pos, End: end, Message: fmt.Sprintf(format, args...)}
}

// HasDirective reports whether any comment of file mentions the prefix; it
// is the fast path that lets un-annotated packages skip all further work.
func HasDirective(file *ast.File) bool {
	for _, g := range file.Comments {
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, Prefix) || looksLikeDirective(c.Text) {
				return true
			}
		}
	}
	return false
}

// looksLikeDirective recognises near misses such as "// sync:tag" that a
// user meant as a directive but that Go's directive convention ignores.
func looksLikeDirective(text string) bool {
	rest, ok := strings.CutPrefix(text, "//")
	if !ok {
		return false
	}
	rest = strings.TrimLeft(rest, " \t")
	if !strings.HasPrefix(rest, "sync:") || strings.HasPrefix(text, Prefix) {
		return false
	}
	name, _, _ := strings.Cut(rest[len("sync:"):], " ")
	_, known := kindNames[name]
	return known
}

// ScanFile parses every //sync: comment of file. Syntax errors come back as
// problems; the returned directives are well-formed.
func ScanFile(file *ast.File) ([]*Directive, []Problem) {
	var dirs []*Directive
	var probs []Problem
	for _, g := range file.Comments {
		for _, c := range g.List {
			if !strings.HasPrefix(c.Text, Prefix) {
				if looksLikeDirective(c.Text) {
					name := "sync:" + nearMissName(c.Text)
					p := problemf(c.Slash, c.End(),
						"comment is not read as a directive: write //%s, with no space after //", name)
					// The bad prefix is "//", the blanks, and "sync:".
					bad := len(c.Text) - len(strings.TrimLeft(c.Text[2:], " \t")) + len("sync:")
					p.Fixes = []analysis.SuggestedFix{{
						Message:   "remove the space so that Go reads it as a directive",
						TextEdits: []analysis.TextEdit{{Pos: c.Slash, End: c.Slash + token.Pos(bad), NewText: []byte(Prefix)}},
					}}
					probs = append(probs, p)
				}
				continue
			}
			d, errs := parseDirective(c)
			probs = append(probs, errs...)
			if d != nil {
				d.Group = g
				dirs = append(dirs, d)
			}
		}
	}
	return dirs, probs
}

// nearMissName returns the directive name of a near miss such as
// "// sync:tag a,b" ("tag").
func nearMissName(text string) string {
	rest := strings.TrimLeft(text[2:], " \t")[len("sync:"):]
	name, _, _ := strings.Cut(rest, " ")
	return name
}

// parseDirective splits one comment. The text after the arguments may hold
// an ordinary trailing comment introduced by " //".
func parseDirective(c *ast.Comment) (*Directive, []Problem) {
	body := c.Text[len(Prefix):]
	name, args, _ := strings.Cut(body, " ")
	kind, ok := kindNames[name]
	if !ok {
		p := problemf(c.Slash, c.End(),
			"unknown directive %s%s (known: //sync:tag, //sync:msg, //sync:send, //sync:recv, //sync:ignore, //sync:peers, //sync:inbox, //sync:handler, //sync:local)", Prefix, name)
		p.Fixes = nameFixes(c, body)
		return nil, []Problem{p}
	}
	if strings.HasPrefix(args, "//") {
		args = ""
	} else if i := strings.Index(args, " //"); i >= 0 {
		args = args[:i]
	}
	// argsPos is the position of args[0] in the file.
	argsPos := c.Slash + token.Pos(len(Prefix)+len(name)+1)
	d := &Directive{Kind: kind, Comment: c}
	fields := splitFields(args, argsPos)
	// rest is the text from fields[i] on, for lists that may contain
	// spaces after their commas.
	rest := func(i int) field {
		return field{strings.TrimSpace(args[fields[i].Pos-argsPos:]), fields[i].Pos}
	}

	switch kind {
	case KindTag:
		if len(fields) == 0 {
			return nil, []Problem{usage(c, kind, "//sync:tag V1,V2[,...] lists the loop's (or, in a struct type's doc comment, the process type's) synchronization variables, phase first, or //sync:tag pkg.T F1,F2[,...]")}
		}
		first := 0
		if isTargetForm(fields) {
			t, err := parseTarget(fields[0])
			if err != nil {
				return nil, []Problem{*err}
			}
			d.Target = t
			first = 1
		}
		list, probs := parseList(rest(first), false)
		if probs != nil {
			return nil, probs
		}
		d.List = list
	case KindMsg:
		if len(fields) == 0 {
			return nil, []Problem{usage(c, kind, "//sync:msg F1,F2[,...] in a type's doc comment, or //sync:msg pkg.Type F1,F2[,...]")}
		}
		first := 0
		if isTargetForm(fields) {
			t, err := parseTarget(fields[0])
			if err != nil {
				return nil, []Problem{*err}
			}
			d.Target = t
			first = 1
		}
		list, probs := parseList(rest(first), true)
		if probs != nil {
			return nil, probs
		}
		d.List = list
	case KindSend, KindRecv:
		if n := len(fields); n > 0 && fields[n-1].Text == "stamps" {
			if kind == KindRecv {
				return nil, []Problem{problemf(fields[n-1].Pos, fields[n-1].Pos+token.Pos(len("stamps")),
					"stamps on //sync:recv: only a send stamps the messages it sends (//sync:send stamps)")}
			}
			d.Stamps = true
			fields = fields[:n-1]
		}
		switch len(fields) {
		case 0:
		case 1:
			t, err := parseTarget(fields[0])
			if err != nil {
				return nil, []Problem{*err}
			}
			d.Target = t
		default:
			return nil, []Problem{usage(c, kind, kind.String()+" in a function's doc comment, or "+kind.String()+" pkg.Func, pkg.T.Method or pkg.(*T).Method, optionally followed by stamps for a send")}
		}
	case KindHandler:
		switch {
		case strings.Contains(args, "=="):
			// //sync:handler Kind==Promise: what every message the
			// driver hands the handler satisfies.
			if probs := parseLocal(d, args, argsPos); probs != nil {
				return nil, []Problem{usage(c, kind, "//sync:handler F==C in a method's doc comment, with F a field path or method Name() of the message the handler receives and C a constant or an integer literal")}
			}
			if d.Target != nil {
				return nil, []Problem{usage(c, kind, "//sync:handler F==C in a method's doc comment: a condition is not given with a method's name")}
			}
		case len(fields) == 0:
		case len(fields) == 1:
			t, err := parseTarget(fields[0])
			if err != nil {
				return nil, []Problem{*err}
			}
			d.Target = t
		default:
			return nil, []Problem{usage(c, kind, "//sync:handler [F==C] in a method's doc comment, or //sync:handler pkg.(*T).Method")}
		}
	case KindLocal:
		probs := parseLocal(d, args, argsPos)
		if probs != nil {
			return nil, probs
		}
	case KindPeers, KindInbox:
		switch len(fields) {
		case 0:
		case 1:
			list, probs := parseList(fields[0], false)
			if probs != nil {
				return nil, probs
			}
			if len(list) != 2 {
				return nil, []Problem{usage(c, kind, kind.String()+" on a struct field, or "+kind.String()+" From,Msg naming the sender and message fields of the envelope its channels carry")}
			}
			d.List = list
		default:
			return nil, []Problem{usage(c, kind, kind.String()+" on a struct field, or "+kind.String()+" From,Msg naming the sender and message fields of the envelope its channels carry")}
		}
	case KindIgnore:
		if len(fields) < 2 {
			return nil, []Problem{usage(c, kind, "//sync:ignore ANALYZER reason: the reason is mandatory")}
		}
		list, probs := parseList(fields[0], false)
		if probs != nil {
			return nil, probs
		}
		d.List = list
		d.Reason = rest(1).Text
	}
	return d, nil
}

// nameFixes returns the fix of an unknown directive name whose repair is
// certain: blanks between "//sync:" and a known name ("//sync: tag"), or a
// name that is within two edits (insertions, deletions, substitutions or
// transpositions of adjacent letters) of exactly one known name
// ("//sync:tags", "//sync:mgs"). body is the comment's text after the
// prefix.
func nameFixes(c *ast.Comment, body string) []analysis.SuggestedFix {
	at := c.Slash + token.Pos(len(Prefix)) // the position of body[0]
	if rest := strings.TrimLeft(body, " \t"); len(rest) < len(body) {
		name, _, _ := strings.Cut(rest, " ")
		if _, known := kindNames[name]; !known {
			return nil
		}
		return []analysis.SuggestedFix{{
			Message:   "remove the space after //sync: so that Go reads it as a directive",
			TextEdits: []analysis.TextEdit{{Pos: at, End: at + token.Pos(len(body)-len(rest))}},
		}}
	}
	name, _, _ := strings.Cut(body, " ")
	if name == "" {
		return nil
	}
	var match string
	for known := range kindNames {
		if editDistance(name, known) <= 2 {
			if match != "" {
				return nil // ambiguous
			}
			match = known
		}
	}
	if match == "" {
		return nil
	}
	return []analysis.SuggestedFix{{
		Message:   "replace " + Prefix + name + " with " + Prefix + match,
		TextEdits: []analysis.TextEdit{{Pos: at, End: at + token.Pos(len(name)), NewText: []byte(match)}},
	}}
}

// editDistance is the optimal string alignment distance between a and b:
// the number of rune insertions, deletions, substitutions and
// transpositions of adjacent runes that turn a into b.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}

func usage(c *ast.Comment, k Kind, form string) Problem {
	return problemf(c.Slash, c.End(), "malformed %s: expected %s", k, form)
}

type field struct {
	Text string
	Pos  token.Pos
}

// splitFields splits s at runs of white space, keeping positions.
func splitFields(s string, pos token.Pos) []field {
	var out []field
	start := -1
	for i, r := range s {
		if unicode.IsSpace(r) {
			if start >= 0 {
				out = append(out, field{s[start:i], pos + token.Pos(start)})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, field{s[start:], pos + token.Pos(start)})
	}
	return out
}

// isTargetForm reports whether a directive's first argument names a
// declaration (//sync:msg pkg.T F1,F2): it is followed by another argument
// and neither is part of a comma-separated list.
func isTargetForm(fields []field) bool {
	return len(fields) >= 2 && !strings.Contains(fields[0].Text, ",") && !strings.HasPrefix(fields[1].Text, ",")
}

// parseLocal parses the arguments of //sync:local [pkg.T] F==C into
// d.Target and d.List = [F, C].
func parseLocal(d *Directive, args string, argsPos token.Pos) []Problem {
	malformed := func() []Problem {
		return []Problem{usage(d.Comment, KindLocal, "//sync:local F==C in a message type's doc comment, or //sync:local pkg.T F==C, with F a field path or method Name() of the message and C a constant or an integer literal")}
	}
	i := strings.Index(args, "==")
	if i < 0 || strings.Count(args, "==") != 1 {
		return malformed()
	}
	left := splitFields(args[:i], argsPos)
	right := splitFields(args[i+2:], argsPos+token.Pos(i+2))
	if len(left) == 0 || len(left) > 2 || len(right) != 1 {
		return malformed()
	}
	if len(left) == 2 {
		t, err := parseTarget(left[0])
		if err != nil {
			return []Problem{*err}
		}
		d.Target = t
		left = left[1:]
	}
	f, probs := parseItem(left[0].Text, left[0].Pos, true)
	if probs != nil {
		return probs
	}
	if f.Map != nil {
		return []Problem{problemf(f.Pos, f.End(), "//sync:local tests a field or method of the message, not an enum mapping")}
	}
	c := &Item{Text: right[0].Text, Pos: right[0].Pos}
	if !isIntLiteral(c.Text) {
		path := strings.Split(c.Text, ".")
		for _, seg := range path {
			if !isIdent(seg) || len(path) > 2 {
				return []Problem{problemf(c.Pos, c.End(), "%q is not a constant or an integer literal (want a name such as 0, MsgHup or raftpb.MsgHup)", c.Text)}
			}
		}
		c.Path = path
	}
	d.List = []*Item{f, c}
	return nil
}

// isIntLiteral reports whether s is a decimal, hexadecimal, octal or
// binary integer literal, possibly negative.
func isIntLiteral(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" || s[0] < '0' || s[0] > '9' {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F' || r == 'x' || r == 'X' || r == 'o' || r == 'O' || r == '_') {
			return false
		}
	}
	return true
}

// splitTop splits s at the commas outside braces.
func splitTop(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// parseItem parses one element of a list: a dotted path, optionally
// followed by () (a method) and then by an enum mapping {A:B,...}, both
// only where allowCall is set.
func parseItem(part string, pos token.Pos, allowCall bool) (*Item, []Problem) {
	it := &Item{Text: part, Pos: pos}
	bad := func() []Problem {
		return []Problem{problemf(pos, pos+token.Pos(len(part)),
			"%q is not a variable, field path or constant (want a name such as ballot, p.ballot or View.Round)", part)}
	}
	head := part
	if i := strings.IndexByte(part, '{'); i >= 0 {
		if !allowCall {
			return nil, bad()
		}
		if !strings.HasSuffix(part, "}") {
			return nil, []Problem{problemf(pos, pos+token.Pos(len(part)), "enum mapping %q does not end with }", part)}
		}
		pairs, probs := parseMap(part[i+1:len(part)-1], pos+token.Pos(i+1))
		if probs != nil {
			return nil, probs
		}
		it.Map = pairs
		head = strings.TrimSpace(part[:i])
	}
	if h, ok := strings.CutSuffix(head, "()"); ok {
		if !allowCall {
			return nil, []Problem{problemf(pos, pos+token.Pos(len(part)),
				"%q is a method call: a synchronization variable must be a variable or a field path", part)}
		}
		it.Call, head = true, h
	}
	it.Path = strings.Split(head, ".")
	for _, seg := range it.Path {
		if !isIdent(seg) {
			return nil, bad()
		}
	}
	if it.Call && len(it.Path) > 1 {
		return nil, []Problem{problemf(pos, pos+token.Pos(len(part)),
			"method component %q must be a method of the message itself (Name()), not of one of its fields", part)}
	}
	return it, nil
}

// parseMap parses the pairs From:To of an enum mapping; s is the text
// between the braces, at pos.
func parseMap(s string, pos token.Pos) ([]*MapPair, []Problem) {
	var pairs []*MapPair
	off := 0
	for _, raw := range strings.Split(s, ",") {
		at := pos + token.Pos(off)
		off += len(raw) + 1
		from, to, ok := strings.Cut(raw, ":")
		if !ok {
			return nil, []Problem{problemf(at, at+token.Pos(len(raw)), "enum mapping element %q is not From:To (a constant of the message's enum, a colon, a round constant)", strings.TrimSpace(raw))}
		}
		var items [2]*Item
		for k, side := range []string{from, to} {
			lead := len(side) - len(strings.TrimLeft(side, " \t"))
			text := strings.TrimSpace(side)
			p := at + token.Pos(lead)
			if k == 1 {
				p += token.Pos(len(from) + 1)
			}
			path := strings.Split(text, ".")
			for _, seg := range path {
				if !isIdent(seg) || len(path) > 2 {
					return nil, []Problem{problemf(p, p+token.Pos(max(len(text), 1)), "%q in an enum mapping is not a constant name (want Name or pkg.Name)", text)}
				}
			}
			items[k] = &Item{Text: text, Pos: p, Path: path}
		}
		pairs = append(pairs, &MapPair{From: items[0], To: items[1]})
	}
	return pairs, nil
}

// parseList splits a comma-separated list of dotted paths; spaces may
// follow the commas. allowBlank admits the forms of //sync:msg: _, method
// components and enum mappings.
func parseList(f field, allowBlank bool) ([]*Item, []Problem) {
	var items []*Item
	off := 0
	for _, raw := range splitTop(f.Text) {
		lead := len(raw) - len(strings.TrimLeft(raw, " \t"))
		part := strings.TrimSpace(raw)
		pos := f.Pos + token.Pos(off+lead)
		off += len(raw) + 1
		if part == "" {
			return nil, []Problem{problemf(pos, pos+1, "empty element in list %q", f.Text)}
		}
		if part == "_" {
			if !allowBlank {
				return nil, []Problem{problemf(pos, pos+1, "_ is only allowed in //sync:msg")}
			}
			items = append(items, &Item{Text: part, Pos: pos, Path: []string{"_"}})
			continue
		}
		it, probs := parseItem(part, pos, allowBlank)
		if probs != nil {
			return nil, probs
		}
		items = append(items, it)
	}
	return items, nil
}

// parseTarget parses pkg.Func, pkg.T.Method, pkg.(*T).Method, or the same
// without the package qualifier.
func parseTarget(f field) (*Item, *Problem) {
	path := strings.Split(f.Text, ".")
	ok := len(path) <= 3
	for _, seg := range path {
		if isIdent(seg) {
			continue
		}
		if strings.HasPrefix(seg, "(*") && strings.HasSuffix(seg, ")") && isIdent(seg[2:len(seg)-1]) {
			continue
		}
		ok = false
	}
	if !ok {
		p := problemf(f.Pos, f.Pos+token.Pos(len(f.Text)),
			"%q is not a declaration name (want Name, pkg.Name, pkg.T.Method or pkg.(*T).Method)", f.Text)
		return nil, &p
	}
	return &Item{Text: f.Text, Pos: f.Pos, Path: path}, nil
}

func isIdent(s string) bool {
	if s == "" || s == "_" {
		return false
	}
	for i, r := range s {
		if r == utf8.RuneError || !(unicode.IsLetter(r) || r == '_' || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}
