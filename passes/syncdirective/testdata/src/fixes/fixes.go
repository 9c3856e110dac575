// Package fixes exercises the suggested fixes of syncdirective; fixes.go.golden
// is this file with every fix applied.
package fixes

type P struct{ ballot, step int }

// Near misses of the prefix: the fix rewrites the prefix to //sync:.

func (p *P) space() {
	// sync:tag p.ballot,p.step // want `comment is not read as a directive: write //sync:tag, with no space after //`
	for {
	}
}

func (p *P) blanks() {
	//  	sync:tag p.ballot,p.step // want `comment is not read as a directive: write //sync:tag, with no space after //`
	for {
	}
}

// Trailing is a near miss after code.
func (p *P) trailing() {
	for p.ballot < 10 { // sync:tag p.ballot,p.step // want `comment is not read as a directive: write //sync:tag, with no space after //`
		p.ballot++
	}
}

func (p *P) afterColon() {
	//sync: tag p.ballot,p.step // want `unknown directive //sync: \(known: //sync:tag, //sync:msg, //sync:send, //sync:recv, //sync:ignore, //sync:peers, //sync:inbox, //sync:handler, //sync:local\)`
	for {
	}
	//sync:  tag p.ballot,p.step // want `unknown directive //sync: \(known: //sync:tag, //sync:msg, //sync:send, //sync:recv, //sync:ignore, //sync:peers, //sync:inbox, //sync:handler, //sync:local\)`
	for {
	}
}

// Misspelt names within two edits of exactly one known name.

func (p *P) misspelt() {
	//sync:tags p.ballot,p.step // want `unknown directive //sync:tags \(known: //sync:tag, //sync:msg, //sync:send, //sync:recv, //sync:ignore, //sync:peers, //sync:inbox, //sync:handler, //sync:local\)`
	for {
	}
	//sync:tga p.ballot,p.step // want `unknown directive //sync:tga \(known:`
	for {
	}
}

// M is a message.
//
//sync:mgs Ballot // want `unknown directive //sync:mgs \(known:`
type M struct{ Ballot int }

// Send sends.
//
//sync:sned // want `unknown directive //sync:sned \(known:`
func Send(m M) {}

// No fix: rend is within two edits of both send and recv, Tag of both tag
// and msg; foo and the blank name of //sync: alone are near nothing.

func (p *P) ambiguous() {
	//sync:Tag p.ballot,p.step // want `unknown directive //sync:Tag \(known:`
	for {
	}
}

//sync:rend // want `unknown directive //sync:rend \(known:`
func Rend(m M) {}

//sync:foo p.ballot // want `unknown directive //sync:foo \(known:`
var _ int

func (p *P) blank() {
	//sync: // want `unknown directive //sync: \(known:`
	for {
	}
}

// Stale ignores: the fix deletes the whole line, or only the comment after
// code.

func (p *P) stale() {
	//sync:ignore syncmono,syncsend nothing here to suppress // want `//sync:ignore syncmono,syncsend matches no diagnostic on this line or the next: remove it`
	p.step++
	p.ballot++ //sync:ignore syncjump nothing here either // want `//sync:ignore syncjump matches no diagnostic on this line or the next: remove it`
	p.step++   //sync:ignore syncrecv nor here // want `//sync:ignore syncrecv matches no diagnostic on this line or the next: remove it`
}

// A near miss of //sync:ignore is fixed, and the ignore it becomes
// then suppresses nothing: a second run of the fixes removes it.

func (p *P) nearIgnore() {
	// sync:ignore syncmono for later // want `comment is not read as a directive: write //sync:ignore, with no space after //`
	p.step++
}

// A used ignore stays, and the problem it suppresses has no fix applied.

func (p *P) used() {
	//sync:ignore syncdirective kept on purpose
	//sync:tags p.ballot,p.step
	for {
	}
}
