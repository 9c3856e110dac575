package driver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestVetFastPath(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := write("plain.go", "package p\n\n// A comment about syncing.\nfunc F() {}\n")
	directive := write("directive.go", "package p\n\n//sync:send\nfunc Send(m any) {}\n")
	nearMiss := write("near.go", "package p\n\n// sync:send\nfunc Send(m any) {}\n")
	emptyVetx := write("dep.vetx", "")
	factsVetx := write("facts.vetx", "\x0f\xff\x81facts")
	cfg := func(name string, files []string, vetx map[string]string) string {
		b, err := json.Marshal(map[string]any{"GoFiles": files, "PackageVetx": vetx, "VetxOutput": filepath.Join(dir, name+".out")})
		if err != nil {
			t.Fatal(err)
		}
		return write(name+".cfg", string(b))
	}
	for _, tc := range []struct {
		name  string
		args  []string
		taken bool
	}{
		{"plain", []string{cfg("plain", []string{plain}, map[string]string{"dep": emptyVetx})}, true},
		{"nodeps", []string{cfg("nodeps", []string{plain}, nil)}, true},
		{"directive", []string{cfg("directive", []string{plain, directive}, nil)}, false},
		{"nearmiss", []string{cfg("nearmiss", []string{nearMiss}, nil)}, false},
		{"depfacts", []string{cfg("depfacts", []string{plain}, map[string]string{"dep": emptyVetx, "other": factsVetx})}, false},
		{"missingdep", []string{cfg("missingdep", []string{plain}, map[string]string{"dep": filepath.Join(dir, "nosuch.vetx")})}, false},
		{"flags", []string{"-syncmono=false", cfg("flags", []string{plain}, nil)}, false},
		{"badcfg", []string{write("bad.cfg", "{")}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := VetFastPath(tc.args); got != tc.taken {
				t.Fatalf("VetFastPath = %v, want %v", got, tc.taken)
			}
			out := filepath.Join(dir, tc.name+".out")
			fi, err := os.Stat(out)
			switch {
			case tc.taken && (err != nil || fi.Size() != 0):
				t.Errorf("fact file %s: %v, want an empty file", out, err)
			case !tc.taken && err == nil:
				t.Errorf("fact file %s written on the full path", out)
			}
		})
	}
}
