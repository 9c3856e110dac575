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
	"runtime/debug"

	"github.com/ccvet/ccvet/analyzer"
	"github.com/ccvet/ccvet/compho/explore/explorecmd"
	"github.com/ccvet/ccvet/internal/driver"
	"github.com/ccvet/ccvet/internal/lsp"
	"github.com/ccvet/ccvet/internal/vettool"
	"github.com/ccvet/ccvet/makeho"
)

func main() {
	if vettool.IsInvocation(os.Args[1:]) {
		tuneGC()
		os.Exit(vettool.Main(analyzer.Suite, analyzer.Advisory, os.Args[1:], os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "lsp" {
		os.Exit(lsp.Main(analyzer.Suite, os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "makeho" {
		tuneGC()
		os.Exit(makeho.Main(os.Args[2:], os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "explore" {
		os.Exit(explorecmd.Main(os.Args[2:], os.Stdout, os.Stderr))
	}
	tuneGC()
	os.Exit(driver.MainAdvisory(analyzer.Suite, analyzer.Advisory, os.Args[1:], os.Stdout, os.Stderr))
}

// gcPercent and memoryLimit tune the garbage collector of a one-shot
// analysis. The dataflow copies many short-lived states: with the default
// GOGC=100 about half its CPU time goes to collecting them (dBFT, CometBFT's
// consensus: a third less CPU at 400, with twice the peak memory). The soft
// limit makes the collector work harder again past 2 GiB, so a large
// module does not grow four times. The language server, which lives long,
// and the explorer, whose memory is its state space, keep the defaults.
const (
	gcPercent   = 400
	memoryLimit = 2 << 30
)

// tuneGC applies gcPercent and memoryLimit unless the user set GOGC or
// GOMEMLIMIT.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}
