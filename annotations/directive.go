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
// reads.
const (
	KindTag    Kind = iota + 1 // //sync:tag V1,V2,...
	KindMsg                    // //sync:msg [pkg.Type] F1,F2,...
	KindSend                   // //sync:send [pkg.Func]
	KindRecv                   // //sync:recv [pkg.Func]
	KindIgnore                 // //sync:ignore ANALYZER reason
	KindPeers                  // //sync:peers [From,Msg], on a struct field
	KindInbox                  // //sync:inbox [From,Msg], on a struct field
)

var kindNames = map[string]Kind{
	"tag":    KindTag,
	"msg":    KindMsg,
	"send":   KindSend,
	"recv":   KindRecv,
	"ignore": KindIgnore,
	"peers":  KindPeers,
	"inbox":  KindInbox,
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
}

// Pos is the position of the directive's comment.
func (d *Directive) Pos() token.Pos { return d.Comment.Slash }

// An Item is one argument of a directive: a dotted path such as p.ballot,
// View.Round, pkg.(*T).Method, or the blank _.
type Item struct {
	Text string
	Pos  token.Pos
	// Path is Text split at dots; for a method expression (*T).M the
	// receiver segment keeps its parentheses and star: ["pkg", "(*T)", "M"].
	Path []string
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
			"unknown directive %s%s (known: //sync:tag, //sync:msg, //sync:send, //sync:recv, //sync:ignore, //sync:peers, //sync:inbox)", Prefix, name)
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
			return nil, []Problem{usage(c, kind, "//sync:tag V1,V2[,...] lists the loop's synchronization variables, phase first")}
		}
		list, probs := parseList(rest(0), false)
		if probs != nil {
			return nil, probs
		}
		d.List = list
	case KindMsg:
		if len(fields) == 0 {
			return nil, []Problem{usage(c, kind, "//sync:msg F1,F2[,...] in a type's doc comment, or //sync:msg pkg.Type F1,F2[,...]")}
		}
		first := 0
		if len(fields) >= 2 && !strings.Contains(fields[0].Text, ",") && !strings.HasPrefix(fields[1].Text, ",") {
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
		switch len(fields) {
		case 0:
		case 1:
			t, err := parseTarget(fields[0])
			if err != nil {
				return nil, []Problem{*err}
			}
			d.Target = t
		default:
			return nil, []Problem{usage(c, kind, kind.String()+" in a function's doc comment, or "+kind.String()+" pkg.Func, pkg.T.Method or pkg.(*T).Method")}
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

// parseList splits a comma-separated list of dotted paths; spaces may
// follow the commas.
func parseList(f field, allowBlank bool) ([]*Item, []Problem) {
	var items []*Item
	off := 0
	for _, raw := range strings.Split(f.Text, ",") {
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
		path := strings.Split(part, ".")
		for _, seg := range path {
			if !isIdent(seg) {
				return nil, []Problem{problemf(pos, pos+token.Pos(len(part)),
					"%q is not a variable, field path or constant (want a name such as ballot, p.ballot or View.Round)", part)}
			}
		}
		items = append(items, &Item{Text: part, Pos: pos, Path: path})
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
