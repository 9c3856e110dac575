package driver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
)

// SARIF output (-sarif), for GitHub code scanning and other SARIF 2.1.0
// consumers.
//
// Mapping:
//   - one rule per analyzer run, with ruleId the analyzer's name, the first
//     line of its Doc as shortDescription, the whole Doc as fullDescription
//     and its URL as helpUri;
//   - one result per finding, of level "warning" when its message starts
//     with "cannot prove" (the analysis could not decide) and "error"
//     otherwise (a violation or a broken annotation);
//   - file URIs relative to the root directory, with uriBaseId %SRCROOT%
//     (whose absolute file: URI is in the run's originalUriBaseIds); files
//     outside the root get absolute file: URIs;
//   - columns in UTF-16 code units, SARIF's default columnKind: Go counts
//     columns in bytes, so each column is converted by reading its line from
//     the file (left in bytes if the file cannot be read);
//   - related positions as relatedLocations, suggested fixes as fixes,
//     packages that failed to load or analyse as error notifications of the
//     invocation, which is then not successful;
//   - findings suppressed by //sync:ignore as results with a suppression of
//     kind "inSource" whose justification is the ignore's reason.

const (
	sarifSchema    = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	sarifVersion   = "2.1.0"
	srcRoot        = "%SRCROOT%"
	informationURI = "https://github.com/ccvet/ccvet"
)

// WriteSARIF writes res as a SARIF 2.1.0 log with one run of the given
// analyzers. File locations are relative to root, an absolute directory
// (normally the working directory: the repository root for code
// scanning). Columns are converted to UTF-16 from the files on disk, so an
// overlay given to [Analyze] is not seen here.
func WriteSARIF(w io.Writer, res *Result, analyzers []*analysis.Analyzer, root string) error {
	log := newSARIF(res, analyzers, root)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                        `json:"tool"`
	Invocations        []sarifInvocation                `json:"invocations"`
	OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                           `json:"columnKind"`
	Results            []sarifResult                    `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string             `json:"id"`
	Name                 string             `json:"name"`
	ShortDescription     sarifMessage       `json:"shortDescription"`
	FullDescription      sarifMessage       `json:"fullDescription"`
	HelpURI              string             `json:"helpUri,omitempty"`
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string       `json:"level"`
	Message sarifMessage `json:"message"`
}

type sarifResult struct {
	RuleID           string             `json:"ruleId"`
	RuleIndex        *int               `json:"ruleIndex,omitempty"`
	Level            string             `json:"level"`
	Message          sarifMessage       `json:"message"`
	Locations        []sarifLocation    `json:"locations"`
	RelatedLocations []sarifLocation    `json:"relatedLocations,omitempty"`
	Fixes            []sarifFix         `json:"fixes,omitempty"`
	Suppressions     []sarifSuppression `json:"suppressions,omitempty"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifMessage         `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           sarifRegion           `json:"region"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// sarifRegion is a region of lines and columns, both 1-based. Zero end
// fields are left out: the region then ends at the end of its start line.
type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type sarifFix struct {
	Description     sarifMessage          `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Replacements     []sarifReplacement    `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion  `json:"deletedRegion"`
	InsertedContent sarifMessage `json:"insertedContent"`
}

type sarifSuppression struct {
	Kind          string         `json:"kind"`
	Justification string         `json:"justification"`
	Location      *sarifLocation `json:"location,omitempty"`
}

// sarifWriter holds what the conversion of one Result needs.
type sarifWriter struct {
	root    string
	columns *utf16Columns
	rules   map[string]int // ruleId -> index in the driver's rules
}

func newSARIF(res *Result, analyzers []*analysis.Analyzer, root string) *sarifLog {
	w := &sarifWriter{root: root, columns: newUTF16Columns(), rules: make(map[string]int)}
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "ccvet",
			Version:        Version(),
			InformationURI: informationURI,
			Rules:          []sarifRule{},
		}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: len(res.Errors) == 0}},
		OriginalURIBaseIDs: map[string]sarifArtifactLocation{
			srcRoot: {URI: fileURI(root, true)},
		},
		ColumnKind: "utf16CodeUnits",
		Results:    []sarifResult{},
	}
	for _, a := range analyzers {
		title, _, _ := strings.Cut(a.Doc, "\n")
		w.rules[a.Name] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID:                   a.Name,
			Name:                 a.Name,
			ShortDescription:     sarifMessage{Text: title},
			FullDescription:      sarifMessage{Text: strings.TrimSpace(a.Doc)},
			HelpURI:              a.URL,
			DefaultConfiguration: sarifConfiguration{Level: "error"},
		})
	}
	for _, e := range res.Errors {
		inv := &run.Invocations[0]
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{Level: "error", Message: sarifMessage{Text: e}})
	}
	for i := range res.Findings {
		run.Results = append(run.Results, w.result(&res.Findings[i]))
	}
	for i := range res.Suppressed {
		s := &res.Suppressed[i]
		r := w.result(&s.Finding)
		loc := w.location(s.Ignore.Path, s.Ignore.Line, s.Ignore.Column, nil)
		r.Suppressions = []sarifSuppression{{Kind: "inSource", Justification: s.Reason, Location: &loc}}
		run.Results = append(run.Results, r)
	}
	return &sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}}
}

// SARIFLevel returns the SARIF level of a finding's message: "warning" for what
// the analysis could not prove, "error" for everything else.
func SARIFLevel(message string) string {
	if strings.HasPrefix(message, "cannot prove") {
		return "warning"
	}
	return "error"
}

func (w *sarifWriter) result(f *Finding) sarifResult {
	r := sarifResult{
		RuleID:    f.Analyzer,
		Level:     SARIFLevel(f.Message),
		Message:   sarifMessage{Text: f.Message},
		Locations: []sarifLocation{w.location(f.Path, f.Line, f.Column, f.End)},
	}
	if i, ok := w.rules[f.Analyzer]; ok {
		r.RuleIndex = &i
	}
	for i, rel := range f.Related {
		loc := w.location(rel.Path, rel.Line, rel.Column, nil)
		id := i + 1
		loc.ID = &id
		loc.Message = &sarifMessage{Text: rel.Message}
		r.RelatedLocations = append(r.RelatedLocations, loc)
	}
	for _, fix := range f.Fixes {
		sf := sarifFix{Description: sarifMessage{Text: fix.Message}}
		byFile := make(map[string]int) // path -> index in ArtifactChanges
		for _, e := range fix.Edits {
			k, ok := byFile[e.Path]
			if !ok {
				k = len(sf.ArtifactChanges)
				byFile[e.Path] = k
				sf.ArtifactChanges = append(sf.ArtifactChanges, sarifArtifactChange{ArtifactLocation: w.artifact(e.Path)})
			}
			ch := &sf.ArtifactChanges[k]
			ch.Replacements = append(ch.Replacements, sarifReplacement{
				DeletedRegion: sarifRegion{
					StartLine:   e.Start.Line,
					StartColumn: w.columns.convert(e.Path, e.Start.Line, e.Start.Column),
					EndLine:     e.End.Line,
					EndColumn:   w.columns.convert(e.Path, e.End.Line, e.End.Column),
				},
				InsertedContent: sarifMessage{Text: e.New},
			})
		}
		r.Fixes = append(r.Fixes, sf)
	}
	return r
}

// location is a physical location at line:col of path, extending to end
// when end is not nil.
func (w *sarifWriter) location(path string, line, col int, end *Position) sarifLocation {
	reg := sarifRegion{StartLine: max(line, 1)}
	if col > 0 {
		reg.StartColumn = w.columns.convert(path, line, col)
	}
	if end != nil && end.Line > 0 && end.Column > 0 {
		reg.EndLine = end.Line
		reg.EndColumn = w.columns.convert(path, end.Line, end.Column)
	}
	return sarifLocation{PhysicalLocation: sarifPhysicalLocation{ArtifactLocation: w.artifact(path), Region: reg}}
}

// artifact locates the file path: relative to %SRCROOT% when below the
// root, by absolute URI otherwise.
func (w *sarifWriter) artifact(path string) sarifArtifactLocation {
	if rel, err := filepath.Rel(w.root, path); err == nil && filepath.IsAbs(path) && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return sarifArtifactLocation{URI: relURI(rel), URIBaseID: srcRoot}
	}
	if filepath.IsAbs(path) {
		return sarifArtifactLocation{URI: fileURI(path, false)}
	}
	return sarifArtifactLocation{URI: relURI(path)}
}

// relURI is the relative URI reference of a relative file name.
func relURI(rel string) string {
	u := &url.URL{Path: filepath.ToSlash(rel)}
	return u.String()
}

// fileURI is the file: URI of an absolute file name, ending in a slash
// when dir is set (as a uriBaseId's URI must).
func fileURI(abs string, dir bool) string {
	p := filepath.ToSlash(abs)
	if runtime.GOOS == "windows" || !strings.HasPrefix(p, "/") {
		p = "/" + p // file:///C:/...
	}
	if dir && !strings.HasSuffix(p, "/") {
		p += "/"
	}
	u := &url.URL{Scheme: "file", Path: p}
	return u.String()
}

// utf16Columns converts 1-based byte columns into 1-based UTF-16 columns,
// reading each file once.
type utf16Columns struct {
	files map[string][][]byte // lines of each file; nil if unreadable
}

func newUTF16Columns() *utf16Columns {
	return &utf16Columns{files: make(map[string][][]byte)}
}

func (c *utf16Columns) convert(path string, line, col int) int {
	lines, ok := c.files[path]
	if !ok {
		if data, err := os.ReadFile(path); err == nil {
			lines = bytes.SplitAfter(data, []byte("\n"))
		}
		c.files[path] = lines
	}
	if line < 1 || line > len(lines) || col < 1 {
		return col
	}
	text := lines[line-1]
	if col-1 > len(text) {
		return col
	}
	units := 0
	for prefix := text[:col-1]; len(prefix) > 0; {
		r, size := utf8.DecodeRune(prefix)
		if n := utf16.RuneLen(r); n > 0 {
			units += n
		} else {
			units++
		}
		prefix = prefix[size:]
	}
	return units + 1
}
