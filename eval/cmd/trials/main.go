// Command trials runs ccvet's analyzers on a blind trial corpus and prints
// its figures: correct packages with no finding, mutants caught by the
// analyzer of the condition they break, false violations, misses and
// give-ups (see package eval/trials).
//
// Usage:
//
//	go run ./eval/cmd/trials [-v] [-w] [-engine v1|v2|both] testdata/trials/t1
//
// -v also prints every result that is not the expected outcome with its
// findings; -w writes the verdicts to the corpus's verdicts.txt, which the
// slow tests compare against (those of the default engine). -engine both
// runs the first and the second tag dataflow side by side and lists every
// verdict on which they differ.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ccvet/ccvet/analyzer"
	"github.com/ccvet/ccvet/eval/trials"
	"github.com/ccvet/ccvet/internal/engine"
)

func main() {
	verbose := flag.Bool("v", false, "print the findings of every result that is not the expected outcome")
	write := flag.Bool("w", false, "write the verdicts to DIR/verdicts.txt")
	engineName := flag.String("engine", "v1", "the tag dataflow: v1, v2, or both to compare them")
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
	if *engineName == "both" {
		os.Exit(compare(dir))
	}
	rs, err := trials.Run(dir, analyzer.SuiteWith(engine.Select(*engineName)))
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

// compare runs both engines on the corpus at dir and prints their figures
// and every verdict on which they differ.
func compare(dir string) int {
	v1, err := trials.Run(dir, analyzer.SuiteWith(engine.Select("v1")))
	if err != nil {
		fmt.Fprintln(os.Stderr, "trials:", err)
		return 2
	}
	v2, err := trials.Run(dir, analyzer.SuiteWith(engine.Select("v2")))
	if err != nil {
		fmt.Fprintln(os.Stderr, "trials:", err)
		return 2
	}
	fmt.Printf("v1:\n%s\nv2:\n%s\n", trials.Summarize(v1), trials.Summarize(v2))
	for i := range v1 {
		if v1[i].Verdict != v2[i].Verdict || v1[i].GaveUp != v2[i].GaveUp {
			fmt.Printf("%s: v1 %s, v2 %s\n", v1[i].Name(), v1[i].Verdict, v2[i].Verdict)
			for _, f := range v2[i].New {
				fmt.Printf("\tv2 %s\n", f)
			}
		}
	}
	return 0
}
