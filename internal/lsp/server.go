package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ccvet/ccvet/internal/driver"
	"github.com/sourcegraph/jsonrpc2"
)

// A server is the state of one connection.
type server struct {
	opts Options
	log  *log.Logger
	sem  chan struct{} // bounds the analyses that run at once
	wg   sync.WaitGroup

	mu          sync.Mutex
	conn        *jsonrpc2.Conn
	initialized bool
	shutdown    bool                         // shutdown was requested
	closing     bool                         // Serve is returning: schedule nothing more
	exited      chan struct{}                // closed by the exit notification
	docs        map[string]*document         // open documents, by absolute file name
	pkgs        map[string]*pkgState         // by package directory
	published   map[string]map[string]string // by package directory: files whose last published diagnostics were not empty, file name -> URI
}

// A document is an open text document.
type document struct {
	uri     string
	version int32
	text    []byte // never modified in place: an overlay may share it
}

// pkgState serialises the analyses of one package directory.
type pkgState struct {
	running bool // an analysis is under way
	again   bool // and another must follow it
}

func newServer(opts Options, logger *log.Logger) *server {
	return &server{
		opts:      opts,
		log:       logger,
		sem:       make(chan struct{}, runtime.GOMAXPROCS(0)),
		exited:    make(chan struct{}),
		docs:      make(map[string]*document),
		pkgs:      make(map[string]*pkgState),
		published: make(map[string]map[string]string),
	}
}

// handle is the connection's handler. The connection calls it for one
// message at a time, in the order received; it must not block on an
// analysis.
func (s *server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	s.mu.Lock()
	s.conn = conn
	initialized, shutdown := s.initialized, s.shutdown
	s.mu.Unlock()

	if req.Notif {
		if req.Method == "exit" {
			s.mu.Lock()
			select {
			case <-s.exited:
			default:
				close(s.exited)
			}
			s.mu.Unlock()
			return nil, nil
		}
		if !initialized || shutdown {
			return nil, nil // dropped, as the specification asks
		}
		if err := s.notification(req); err != nil {
			s.logMessage(messageError, fmt.Sprintf("ccvet: %s: %v", req.Method, err))
		}
		return nil, nil
	}

	switch {
	case req.Method == "initialize":
		if initialized {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: "initialize was already received"}
		}
		var params initializeParams
		if err := unmarshal(req, &params); err != nil {
			return nil, err
		}
		s.mu.Lock()
		s.initialized = true
		s.mu.Unlock()
		return initializeResult{
			Capabilities: serverCapabilities{
				TextDocumentSync: textDocumentSyncOptions{
					OpenClose: true,
					Change:    syncFull,
					Save:      saveOptions{IncludeText: false},
				},
			},
			ServerInfo: serverInfo{Name: "ccvet", Version: version()},
		}, nil
	case !initialized:
		return nil, &jsonrpc2.Error{Code: codeServerNotInitialized, Message: "the server is not initialized"}
	case shutdown:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: "the server is shutting down"}
	case req.Method == "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		s.wg.Wait()
		return nil, nil
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not supported: " + req.Method}
}

// notification handles the text document notifications; it ignores the
// others ($/cancelRequest, $/setTrace, workspace notifications, ...).
func (s *server) notification(req *jsonrpc2.Request) error {
	switch req.Method {
	case "textDocument/didOpen":
		p, path, err := goDocument[didOpenTextDocumentParams](req)
		if path == "" {
			return err
		}
		s.mu.Lock()
		s.docs[path] = &document{uri: p.TextDocument.URI, version: p.TextDocument.Version, text: []byte(p.TextDocument.Text)}
		s.mu.Unlock()
		s.schedule(filepath.Dir(path))

	case "textDocument/didChange":
		p, path, err := goDocument[didChangeTextDocumentParams](req)
		if path == "" {
			return err
		}
		if len(p.ContentChanges) == 0 {
			return nil
		}
		last := p.ContentChanges[len(p.ContentChanges)-1]
		if last.Range != nil {
			return fmt.Errorf("%s: incremental change received, but the server asked for full text synchronisation", p.TextDocument.URI)
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		doc := s.docs[path]
		if doc == nil {
			return fmt.Errorf("%s: change of a document that is not open", p.TextDocument.URI)
		}
		doc.version, doc.text = p.TextDocument.Version, []byte(last.Text)

	case "textDocument/didSave":
		p, path, err := goDocument[didSaveTextDocumentParams](req)
		if path == "" {
			return err
		}
		if p.Text != nil {
			s.mu.Lock()
			if doc := s.docs[path]; doc != nil {
				doc.text = []byte(*p.Text)
			}
			s.mu.Unlock()
		}
		s.schedule(filepath.Dir(path))

	case "textDocument/didClose":
		p, path, err := goDocument[didCloseTextDocumentParams](req)
		if path == "" {
			return err
		}
		s.mu.Lock()
		delete(s.docs, path)
		delete(s.published[filepath.Dir(path)], path)
		s.mu.Unlock()
		s.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: p.TextDocument.URI, Diagnostics: []diagnostic{}})
	}
	return nil
}

// goDocument decodes the params of a text document notification and
// returns them with the file name of the document, or with "" if the
// document is not a Go file. The error says why when the params do not
// decode or the URI is not a file name; it is nil for a file that is
// simply not Go, which the server ignores.
func goDocument[P interface{ documentURI() string }](req *jsonrpc2.Request) (p P, path string, err error) {
	if err := unmarshal(req, &p); err != nil {
		return p, "", err
	}
	path, err = uriToPath(p.documentURI())
	if err != nil || !strings.HasSuffix(path, ".go") {
		return p, "", err
	}
	return p, path, nil
}

func unmarshal(req *jsonrpc2.Request, v any) error {
	if req.Params == nil {
		return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: req.Method + ": missing params"}
	}
	if err := json.Unmarshal(*req.Params, v); err != nil {
		return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: fmt.Sprintf("%s: invalid params: %v", req.Method, err)}
	}
	return nil
}

// schedule analyses the package in dir, now or after the analysis of that
// package under way.
func (s *server) schedule(dir string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shutdown || s.closing {
		return
	}
	p := s.pkgs[dir]
	if p == nil {
		p = new(pkgState)
		s.pkgs[dir] = p
	}
	if p.running {
		p.again = true
		return
	}
	p.running = true
	s.wg.Add(1)
	go s.run(dir, p)
}

// run analyses the package in dir until no new request for it is
// pending.
func (s *server) run(dir string, p *pkgState) {
	defer s.wg.Done()
	for {
		s.sem <- struct{}{}
		s.analyse(dir)
		<-s.sem
		s.mu.Lock()
		if !p.again || s.shutdown || s.closing {
			p.running, p.again = false, false
			s.mu.Unlock()
			return
		}
		p.again = false
		s.mu.Unlock()
	}
}

// analyse runs the analyzers on the package in dir, with the open
// documents as overlay, and publishes the diagnostics.
func (s *server) analyse(dir string) {
	s.mu.Lock()
	overlay := make(map[string][]byte, len(s.docs))
	for path, doc := range s.docs {
		overlay[path] = doc.text
	}
	s.mu.Unlock()

	start := time.Now()
	res, err := driver.Analyze(driver.Options{
		Analyzers: s.opts.Analyzers,
		Patterns:  []string{"."},
		Dir:       dir,
		Tests:     s.opts.Tests,
		Tags:      s.opts.Tags,
		Overlay:   overlay,
	})
	if err != nil {
		s.logMessage(messageError, fmt.Sprintf("ccvet: %s: %v", dir, err))
		return
	}
	for _, e := range res.Errors {
		s.logMessage(messageError, e)
	}
	s.log.Printf("analysed %s in %v: %d finding(s), %d error(s)", dir, time.Since(start).Round(time.Millisecond), len(res.Findings), len(res.Errors))

	files := fileCache{overlay: overlay}
	byFile := make(map[string][]diagnostic)
	for _, f := range res.Findings {
		byFile[f.Path] = append(byFile[f.Path], s.toDiagnostic(f, &files))
	}

	s.mu.Lock()
	// Publish the files that had diagnostics, those that have them now,
	// and the open files of the package, so that opening a clean file
	// says so.
	targets := make(map[string]string) // file name -> URI
	maps.Copy(targets, s.published[dir])
	for path := range byFile {
		targets[path] = s.uri(path)
	}
	for path, doc := range s.docs {
		if filepath.Dir(path) == dir {
			targets[path] = doc.uri
		}
	}
	now := make(map[string]string)
	for path := range byFile {
		now[path] = targets[path]
	}
	s.published[dir] = now
	s.mu.Unlock()

	for _, path := range slices.Sorted(maps.Keys(targets)) {
		diags := byFile[path]
		if diags == nil {
			diags = []diagnostic{}
		}
		s.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: targets[path], Diagnostics: diags})
	}
}

// uri returns the URI of a file: the client's own if the file is open.
// s.mu must be held.
func (s *server) uri(path string) string {
	if doc := s.docs[path]; doc != nil {
		return doc.uri
	}
	return pathToURI(path)
}

// toDiagnostic converts a finding.
func (s *server) toDiagnostic(f driver.Finding, files *fileCache) diagnostic {
	src := files.get(f.Path)
	start := toPosition(src, f.Line, f.Column)
	end := start
	if f.End != nil {
		end = toPosition(src, f.End.Line, f.End.Column)
	}
	d := diagnostic{
		Range:    lspRange{Start: start, End: end},
		Severity: severity(f.Message),
		Code:     f.Analyzer,
		Source:   "ccvet",
		Message:  f.Message,
	}
	if f.URL != "" {
		d.CodeDescription = &codeDescription{Href: f.URL}
	}
	for _, r := range f.Related {
		pos := toPosition(files.get(r.Path), r.Line, r.Column)
		s.mu.Lock()
		uri := s.uri(r.Path)
		s.mu.Unlock()
		d.RelatedInformation = append(d.RelatedInformation, diagnosticRelatedInformation{
			Location: location{URI: uri, Range: lspRange{Start: pos, End: pos}},
			Message:  r.Message,
		})
	}
	return d
}

// severity is Warning for the findings that report what the analysis
// cannot prove, and Error for violations.
func severity(msg string) int {
	if strings.HasPrefix(msg, "cannot prove") {
		return severityWarning
	}
	return severityError
}

// fileCache reads each file once per analysis: from the overlay if the
// file is open, else from disk.
type fileCache struct {
	overlay map[string][]byte
	read    map[string][]byte
}

// get returns the text of a file, or nil if it cannot be read.
func (c *fileCache) get(path string) []byte {
	if src, ok := c.overlay[path]; ok {
		return src
	}
	if src, ok := c.read[path]; ok {
		return src
	}
	src, _ := os.ReadFile(path) // nil on error: byte columns are then used as they are
	if c.read == nil {
		c.read = make(map[string][]byte)
	}
	c.read[path] = src
	return src
}

// notify sends a notification to the client, logging a failure.
func (s *server) notify(method string, params any) {
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	if conn == nil {
		return
	}
	if err := conn.Notify(context.Background(), method, params); err != nil && err != jsonrpc2.ErrClosed {
		s.log.Printf("sending %s: %v", method, err)
	}
}

// logMessage shows msg in the client's log, and in ours.
func (s *server) logMessage(typ int, msg string) {
	s.log.Print(msg)
	s.notify("window/logMessage", logMessageParams{Type: typ, Message: msg})
}
