// Command emptyvet is the lower baseline of vetcost: a go vet -vettool
// that speaks the vet tool protocol (-V=full, -flags, one *.cfg per
// package) but neither parses nor type-checks anything. For each package
// it writes an empty facts file and exits, so what it costs is the go
// command's own work plus starting one process per package, dependencies
// and standard library included.
package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	args := os.Args[1:]
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: go vet -vettool=emptyvet [packages]")
		os.Exit(2)
	}
	last := args[len(args)-1]
	switch {
	case last == "-flags":
		fmt.Println("[]")
	case strings.HasPrefix(last, "-V"):
		// The go command keys its vet cache by this line; "devel" makes it
		// use the build ID, here a hash of the executable.
		fmt.Printf("emptyvet version devel buildID=%s\n", selfHash())
	case strings.HasSuffix(last, ".cfg"):
		data, err := os.ReadFile(last)
		if err != nil {
			fatal(err)
		}
		var cfg struct{ VetxOutput string }
		if err := json.Unmarshal(data, &cfg); err != nil {
			fatal(err)
		}
		if cfg.VetxOutput != "" {
			if err := os.WriteFile(cfg.VetxOutput, nil, 0o666); err != nil {
				fatal(err)
			}
		}
	default:
		fmt.Fprintf(os.Stderr, "emptyvet: unexpected arguments %q\n", args)
		os.Exit(2)
	}
}

func selfHash() string {
	exe, err := os.Executable()
	if err != nil {
		fatal(err)
	}
	f, err := os.Open(exe)
	if err != nil {
		fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil)[:16])
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "emptyvet:", err)
	os.Exit(1)
}
