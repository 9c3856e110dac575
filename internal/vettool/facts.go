package vettool

import (
	"bytes"
	"cmp"
	"encoding/gob"
	"fmt"
	"go/types"
	"os"
	"reflect"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/objectpath"
)

// factsMagic starts every non-empty fact file written by this driver, so
// that a file written by another tool (unitchecker's, an older ccvet's) is
// rejected with a clear message instead of being misread.
const factsMagic = "ccvet facts v1\n"

// A factEntry is one fact in a fact file: the object it is about, named
// by its package path and its object path ("" for a package fact), the
// fact's type, and the fact itself, gob-encoded on its own. Facts stay
// encoded until a package that is analysed needs them, and the entries
// inherited from dependencies are passed on byte for byte, so a package
// that is not analysed merges its dependencies' facts without decoding
// (or even knowing the types of) any of them.
type factEntry struct {
	Pkg  string
	Obj  objectpath.Path
	Type string
	Data []byte
}

func (e *factEntry) key() string { return e.Pkg + "\x00" + string(e.Obj) + "\x00" + e.Type }

// factBox lets gob encode a fact through the analysis.Fact interface, so
// that the concrete type travels with it.
type factBox struct{ F analysis.Fact }

// readFacts reads the fact files of the dependencies and returns their
// entries, one per (object, fact type), in a deterministic order. A
// missing or empty file means no facts.
func readFacts(files map[string]string) ([]factEntry, error) {
	seen := make(map[string]bool)
	var all []factEntry
	// Visit the files in a fixed order: a diamond dependency contributes
	// the same entry twice, and the first one wins.
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		data, err := os.ReadFile(files[p])
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			return nil, fmt.Errorf("reading facts of %s: %v", p, err)
		}
		if len(data) == 0 {
			continue
		}
		rest, ok := bytes.CutPrefix(data, []byte(factsMagic))
		if !ok {
			return nil, fmt.Errorf("facts of %s (%s) were not written by this version of ccvet; clean the build cache (go clean -cache) if the vet tool changed", p, files[p])
		}
		var entries []factEntry
		if err := gob.NewDecoder(bytes.NewReader(rest)).Decode(&entries); err != nil {
			return nil, fmt.Errorf("decoding facts of %s (%s): %v", p, files[p], err)
		}
		for _, e := range entries {
			if k := e.key(); !seen[k] {
				seen[k] = true
				all = append(all, e)
			}
		}
	}
	return all, nil
}

// writeFacts writes entries to file; no entry makes an empty file, the
// common case, which costs the dependents nothing to read.
func writeFacts(file string, entries []factEntry) error {
	if file == "" {
		return nil
	}
	if len(entries) == 0 {
		return os.WriteFile(file, nil, 0o666)
	}
	slices.SortFunc(entries, func(a, b factEntry) int { return cmp.Compare(a.key(), b.key()) })
	var buf bytes.Buffer
	buf.WriteString(factsMagic)
	if err := gob.NewEncoder(&buf).Encode(entries); err != nil {
		return fmt.Errorf("encoding facts: %v", err)
	}
	return os.WriteFile(file, buf.Bytes(), 0o666)
}

// encodeFact makes the entry of one fact; ok is false for an object that
// has no object path (a local declaration), whose facts no other package
// can refer to.
func encodeFact(obj types.Object, pkg *types.Package, f analysis.Fact) (e factEntry, ok bool, err error) {
	if obj != nil {
		path, perr := objectpath.For(obj)
		if perr != nil {
			return factEntry{}, false, nil
		}
		e.Obj = path
		pkg = obj.Pkg()
	}
	e.Pkg = pkg.Path()
	e.Type = factTypeName(f)
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(factBox{f}); err != nil {
		return factEntry{}, false, fmt.Errorf("encoding fact %s: %v", e.Type, err)
	}
	e.Data = buf.Bytes()
	return e, true, nil
}

// decodeFact decodes the fact of an entry.
func decodeFact(e *factEntry) (analysis.Fact, error) {
	var box factBox
	if err := gob.NewDecoder(bytes.NewReader(e.Data)).Decode(&box); err != nil {
		return nil, fmt.Errorf("decoding fact %s about %s.%s: %v", e.Type, e.Pkg, e.Obj, err)
	}
	return box.F, nil
}

func factTypeName(f analysis.Fact) string {
	t := reflect.TypeOf(f)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.PkgPath() + "." + t.Name()
}
