// Command ccvet checks that the annotated protocol loops of a Go program are
// communication-closed, so that every asynchronous execution is equivalent
// to a lock-step round-based one.
//
// Usage:
//
//	ccvet [flags] [packages]
//	ccvet help [analyzer]
//	ccvet lsp
//	ccvet makeho [-o dir] [-check] [packages]
//	go vet -vettool=$(which ccvet) [packages]
//
// Run 'ccvet -h' for the flags; 'ccvet -v' also prints, per tagged loop,
// what was checked and the verdict of each condition, and 'ccvet help
// NAME' an analyzer's rules. 'ccvet lsp' is a language server that
// publishes the findings as diagnostics in an editor, beside gopls.
// 'ccvet makeho' generates the round-based (CompHO) machine of every loop
// that ccvet proves communication-closed (see package makeho).
package main

import (
	"os"

	"github.com/ccvet/ccvet/analyzer"
	"github.com/ccvet/ccvet/compho/explore/explorecmd"
	"github.com/ccvet/ccvet/internal/driver"
	"github.com/ccvet/ccvet/internal/gctune"
	"github.com/ccvet/ccvet/internal/lsp"
	"github.com/ccvet/ccvet/internal/vettool"
	"github.com/ccvet/ccvet/makeho"
)

func main() {
	if vettool.IsInvocation(os.Args[1:]) {
		gctune.Apply()
		os.Exit(vettool.Main(analyzer.Suite, analyzer.Advisory, os.Args[1:], os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "lsp" {
		os.Exit(lsp.Main(analyzer.Suite, os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "makeho" {
		gctune.Apply()
		os.Exit(makeho.Main(os.Args[2:], os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "explore" {
		os.Exit(explorecmd.Main(os.Args[2:], os.Stdout, os.Stderr))
	}
	gctune.Apply()
	os.Exit(driver.MainAdvisory(analyzer.Suite, analyzer.Advisory, os.Args[1:], os.Stdout, os.Stderr))
}
