// Package analysisdoc reads an analyzer's documentation from the package
// comment of its doc.go, so that the rules are written once: go doc shows
// them, and so do the Doc field of the analyzer, ccvet help NAME, SARIF
// rule descriptions and editors.
//
// The convention is x/tools' own: a section of the package comment headed
// "# Analyzer NAME", whose first paragraph is "NAME: one-line summary".
package analysisdoc

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
)

// Extract returns the Doc string of analyzer name from the Go source of
// its doc.go: the "# Analyzer name" section of the package comment,
// without the heading and the "name: " prefix of its summary line, up to
// the next heading.
func Extract(src, name string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return "", fmt.Errorf("doc of %s: %v", name, err)
	}
	if f.Doc == nil {
		return "", fmt.Errorf("doc of %s: the file has no package comment", name)
	}
	text := "\n" + f.Doc.Text()
	heading := "\n# Analyzer " + name + "\n"
	i := strings.Index(text, heading)
	if i < 0 {
		return "", fmt.Errorf("doc of %s: no %q heading in the package comment", name, strings.TrimSpace(heading))
	}
	body := text[i+len(heading):]
	if j := strings.Index(body, "\n# "); j >= 0 {
		body = body[:j]
	}
	body = strings.TrimSpace(body)
	rest, ok := strings.CutPrefix(body, name+":")
	if !ok {
		return "", fmt.Errorf("doc of %s: the section does not start with %q", name, name+": summary")
	}
	return strings.TrimSpace(rest), nil
}

// MustExtract is [Extract] for package initialisation: a doc.go without
// the section is a bug of ccvet, caught by any test that loads it.
func MustExtract(src, name string) string {
	doc, err := Extract(src, name)
	if err != nil {
		panic(err)
	}
	return doc
}
