// Command trials runs ccvet's analyzers on a blind trial corpus and prints
// its figures: correct packages with no finding, mutants caught by the
// analyzer of the condition they break, false violations, misses and
// give-ups (see package eval/trials).
//
// Usage:
//
//	go run ./eval/cmd/trials [-v] [-w] testdata/trials/t1
//
// -v also prints every result that is not the expected outcome with its
// findings; -w writes the verdicts to the corpus's verdicts.txt, which the
// slow tests compare against.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ccvet/ccvet/analyzer"
	"github.com/ccvet/ccvet/eval/trials"
)

func main() {
	verbose := flag.Bool("v", false, "print the findings of every result that is not the expected outcome")
	write := flag.Bool("w", false, "write the verdicts to DIR/verdicts.txt")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: trials [-v] [-w] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	dir := flag.Arg(0)
	rs, err := trials.Run(dir, analyzer.Suite)
	if err != nil {
		fmt.Fprintln(os.Stderr, "trials:", err)
		os.Exit(2)
	}
	if *verbose {
		trials.WriteDetails(os.Stdout, rs)
		fmt.Println()
	}
	fmt.Print(trials.Summarize(rs))
	if *write {
		var b bytes.Buffer
		if err := trials.WriteVerdicts(&b, rs); err != nil {
			fmt.Fprintln(os.Stderr, "trials:", err)
			os.Exit(2)
		}
		if err := os.WriteFile(filepath.Join(dir, "verdicts.txt"), b.Bytes(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "trials:", err)
			os.Exit(2)
		}
	}
}
