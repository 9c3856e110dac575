// Package ignores exercises //sync:ignore.
package ignores

type P struct{ ballot, step int }

func (p *P) run() {
	//sync:ignore syncdirective the field is renamed in the next change
	//sync:tag p.balot,p.step
	for {
	}
}

func (p *P) unmatched() {
	//sync:ignore syncmono,syncsend nothing here to suppress // want `//sync:ignore syncmono,syncsend matches no diagnostic on this line or the next: remove it`
	for {
	}
}

func (p *P) tooFar() {
	//sync:ignore syncdirective two lines above is too far // want `matches no diagnostic`

	//sync:tag p.balot,p.step // want `unknown field p\.balot`
	for {
	}
}

func (p *P) otherAnalyzer() {
	//sync:ignore syncmono names another analyzer // want `matches no diagnostic`
	//sync:tag p.balot,p.step // want `unknown field p\.balot`
	for {
	}
}

//sync:ignore syncmono // want `malformed //sync:ignore: expected //sync:ignore ANALYZER reason: the reason is mandatory`
//sync:ignore vet it is fine // want `unknown analyzer vet in //sync:ignore \(known: syncdirective, syncmono, syncsend, syncrecv, syncjump\)`
