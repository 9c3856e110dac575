// Command ccvet checks that the annotated protocol loops of a Go program are
// communication-closed, so that every asynchronous execution is equivalent
// to a lock-step round-based one.
//
// Usage:
//
//	ccvet [flags] [packages]
//	ccvet help [analyzer]
//	go vet -vettool=$(which ccvet) [packages]
//
// Run 'ccvet -h' for the flags.
package main

import (
	"os"

	"github.com/ccvet/ccvet/analyzer"
	"github.com/ccvet/ccvet/internal/driver"
	"golang.org/x/tools/go/analysis/unitchecker"
)

func main() {
	if driver.IsVetInvocation(os.Args[1:]) {
		unitchecker.Main(analyzer.Suite...) // does not return
	}
	os.Exit(driver.Main(analyzer.Suite, os.Args[1:], os.Stdout, os.Stderr))
}
