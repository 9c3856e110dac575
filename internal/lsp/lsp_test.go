package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ccvet/ccvet/analyzer"
	"github.com/ccvet/ccvet/internal/testenv"
	"github.com/sourcegraph/jsonrpc2"
)

// timeout bounds every wait of the tests, so that they fail rather than
// hang; an analysis of the small test package takes about a second.
const timeout = 2 * time.Minute

// protoBroken is a one-loop protocol whose message maps one tag component
// to a loop tagged with two variables. Its diagnostic is on line 31 (30 in
// LSP's 0-based numbering), after
// a comment holding characters of two and four UTF-8 bytes (one and two
// UTF-16 units): byte column 20 is UTF-16 column 14.
const protoBroken = `// Package proto is a one-loop protocol.
package proto

// Step is the round inside a ballot.
type Step int

// The rounds.
const (
	Prepare Step = iota
	Ack
)

// Vote acknowledges a ballot.
//
//sync:msg Ballot
type Vote struct {
	Ballot int
}

// Replica is one process.
type Replica struct {
	ballot int
	round  Step
	inbox  chan Vote
}

// Wait waits for one vote per round.
func (r *Replica) Wait() {
	//sync:tag r.ballot,r.round
	for r.round = Prepare; r.round <= Ack; r.round++ {
		/* «ü😀» */ <-r.inbox
	}
}
`

// protoFixed says that Vote carries no round.
var protoFixed = strings.Replace(protoBroken, "//sync:msg Ballot\n", "//sync:msg Ballot,_\n", 1)

// protoIllTyped does not type-check.
var protoIllTyped = protoFixed + "\nfunc f() int { return \"x\" }\n"

const msgBroken = "message Vote maps 1 tag component(s) but is used in a loop tagged r.ballot,r.round (2 variables): give one component per variable, _ for one it does not carry"

// waitGo, a second file of the package, writes //sync:tag with a space.
const waitGo = `package proto

// Again waits once more.
func (r *Replica) Again() {
	// sync:tag r.ballot,r.round
	for r.round = Prepare; r.round <= Ack; r.round++ {
		<-r.inbox
	}
}
`

// A client is the test's end of a connection to a server run by Serve.
type client struct {
	t     *testing.T
	conn  *jsonrpc2.Conn
	notes chan *jsonrpc2.Request
	done  chan struct{} // closed when Serve returns
	err   error         // Serve's result, once done is closed
	logs  []logMessageParams
}

// pipe is one direction of an in-process connection.
type pipe struct {
	io.Reader
	io.Writer
	closers []io.Closer
}

func (p pipe) Close() error {
	for _, c := range p.closers {
		c.Close()
	}
	return nil
}

// startServer runs Serve on in-process pipes with the ccvet suite.
func startServer(t *testing.T) *client {
	t.Helper()
	toServerR, toServerW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &client{t: t, notes: make(chan *jsonrpc2.Request, 1000), done: make(chan struct{})}
	go func() {
		c.err = Serve(ctx, toServerR, toClientW, Options{Analyzers: analyzer.Suite, Tests: true})
		close(c.done)
	}()
	handler := jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		if req.Notif {
			select {
			case c.notes <- req:
			default:
				t.Errorf("notification %s dropped: the test does not read them", req.Method)
			}
			return nil, nil
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: req.Method}
	})
	stream := jsonrpc2.NewBufferedStream(pipe{toClientR, toServerW, []io.Closer{toClientR, toServerW}}, jsonrpc2.VSCodeObjectCodec{})
	c.conn = jsonrpc2.NewConn(ctx, stream, handler, jsonrpc2.SetLogger(testLogger{t}))
	t.Cleanup(func() {
		cancel()
		c.conn.Close()
		select {
		case <-c.done:
		case <-time.After(timeout):
			t.Errorf("Serve did not return after its connection was closed")
		}
	})
	return c
}

type testLogger struct{ t *testing.T }

func (l testLogger) Printf(format string, args ...any) { l.t.Logf(format, args...) }

// call sends a request and decodes its result into result.
func (c *client) call(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return c.conn.Call(ctx, method, params, result)
}

// notify sends a notification.
func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// edit replaces the whole text of the open document uri in the editor,
// as its version, and saves it.
func (c *client) edit(uri string, version int32, text string) {
	c.t.Helper()
	c.notify("textDocument/didChange", didChangeTextDocumentParams{
		TextDocument:   versionedTextDocumentIdentifier{URI: uri, Version: version},
		ContentChanges: []textDocumentContentChangeEvent{{Text: text}},
	})
	c.save(uri)
}

// save tells the server that the document uri was saved: it analyses the
// document's package again.
func (c *client) save(uri string) {
	c.t.Helper()
	c.notify("textDocument/didSave", didSaveTextDocumentParams{TextDocument: textDocumentIdentifier{URI: uri}})
}

// initialize performs the handshake and checks the capabilities.
func (c *client) initialize(root string) {
	c.t.Helper()
	var res json.RawMessage
	if err := c.call("initialize", map[string]any{"processId": nil, "rootUri": pathToURI(root), "capabilities": map[string]any{}}, &res); err != nil {
		c.t.Fatalf("initialize: %v", err)
	}
	var got struct {
		Capabilities map[string]any `json:"capabilities"`
		ServerInfo   struct{ Name string }
	}
	if err := json.Unmarshal(res, &got); err != nil {
		c.t.Fatal(err)
	}
	want := map[string]any{"textDocumentSync": map[string]any{
		"openClose": true,
		"change":    float64(1),
		"save":      map[string]any{"includeText": false},
	}}
	if !reflect.DeepEqual(got.Capabilities, want) || got.ServerInfo.Name != "ccvet" {
		c.t.Fatalf("initialize result %s, want capabilities %v and server ccvet", res, want)
	}
	c.notify("initialized", map[string]any{})
}

// waitPublish reads notifications until each of uris has been published,
// and returns their diagnostics. A publication for another URI fails the
// test. Log messages are kept in c.logs.
func (c *client) waitPublish(uris ...string) map[string][]diagnostic {
	c.t.Helper()
	got := make(map[string][]diagnostic)
	deadline := time.After(timeout)
	for len(got) < len(uris) {
		select {
		case req := <-c.notes:
			switch req.Method {
			case "window/logMessage":
				var p logMessageParams
				if err := json.Unmarshal(*req.Params, &p); err != nil {
					c.t.Fatal(err)
				}
				c.logs = append(c.logs, p)
			case "textDocument/publishDiagnostics":
				var p struct {
					URI         string          `json:"uri"`
					Diagnostics json.RawMessage `json:"diagnostics"`
				}
				if err := json.Unmarshal(*req.Params, &p); err != nil {
					c.t.Fatal(err)
				}
				if string(p.Diagnostics) == "null" {
					c.t.Fatalf("diagnostics of %s are null, want a list", p.URI)
				}
				var diags []diagnostic
				if err := json.Unmarshal(p.Diagnostics, &diags); err != nil {
					c.t.Fatal(err)
				}
				if _, ok := got[p.URI]; ok || !contains(uris, p.URI) {
					c.t.Fatalf("unexpected diagnostics for %s: %+v (waiting for %v)", p.URI, diags, uris)
				}
				got[p.URI] = diags
			default:
				c.t.Fatalf("unexpected notification %s", req.Method)
			}
		case <-deadline:
			c.t.Fatalf("no diagnostics for %v within %v (got %v)", uris, timeout, got)
		}
	}
	return got
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// syncdirective is the diagnostic that the server publishes for a finding
// of syncdirective from start to end.
func syncdirective(start, end position, msg string, related ...diagnosticRelatedInformation) diagnostic {
	return diagnostic{
		Range:              lspRange{Start: start, End: end},
		Severity:           severityError,
		Code:               "syncdirective",
		CodeDescription:    &codeDescription{Href: "https://github.com/ccvet/ccvet/blob/main/docs/analyzers.md#syncdirective"},
		Source:             "ccvet",
		Message:            msg,
		RelatedInformation: related,
	}
}

// relatedAt is the related information msg at a point of document uri.
func relatedAt(uri string, at position, msg string) diagnosticRelatedInformation {
	return diagnosticRelatedInformation{Location: location{URI: uri, Range: lspRange{Start: at, End: at}}, Message: msg}
}

// TestServe drives a server through a session: open a file whose unsaved
// text has a violation, fix it without writing it, have a file that is not
// open break and be fixed on disk, save text that does not type-check,
// close, shut down, exit.
func TestServe(t *testing.T) {
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	dir := testenv.TempModule(t, "example.com/proto", map[string]string{"proto/proto.go": protoFixed})
	protoPath := filepath.Join(dir, "proto", "proto.go")
	waitPath := filepath.Join(dir, "proto", "wait.go")
	proto, wait := pathToURI(protoPath), pathToURI(waitPath)

	c := startServer(t)
	c.initialize(dir)

	// The file on disk is correct: the violation is in the editor's text.
	c.notify("textDocument/didOpen", didOpenTextDocumentParams{TextDocument: textDocumentItem{URI: proto, LanguageID: "go", Version: 1, Text: protoBroken}})
	got := c.waitPublish(proto)
	want := []diagnostic{syncdirective(position{Line: 30, Character: 14}, position{Line: 30, Character: 14}, msgBroken,
		relatedAt(proto, position{Line: 14, Character: 0}, "//sync:msg of Vote"),
		relatedAt(proto, position{Line: 28, Character: 1}, "//sync:tag of the loop"))}
	if !reflect.DeepEqual(got[proto], want) {
		t.Fatalf("didOpen: diagnostics\n%s\nwant\n%s", jsonText(got[proto]), jsonText(want))
	}

	// Fixing the text in the editor and saving clears them.
	c.edit(proto, 2, protoFixed)
	if got := c.waitPublish(proto); len(got[proto]) != 0 {
		t.Fatalf("after the fix: diagnostics %s, want none", jsonText(got[proto]))
	}

	// A file of the package that is not open, written on disk, gets its
	// diagnostics when the package is analysed again...
	if err := os.WriteFile(waitPath, []byte(waitGo), 0o644); err != nil {
		t.Fatal(err)
	}
	c.save(proto)
	got = c.waitPublish(proto, wait)
	wantWait := []diagnostic{syncdirective(position{Line: 4, Character: 1}, position{Line: 4, Character: 29},
		"comment is not read as a directive: write //sync:tag, with no space after //")}
	if len(got[proto]) != 0 || !reflect.DeepEqual(got[wait], wantWait) {
		t.Fatalf("after writing wait.go: diagnostics of proto.go %s, of wait.go\n%s\nwant none and\n%s", jsonText(got[proto]), jsonText(got[wait]), jsonText(wantWait))
	}
	// ... and an empty list once it is fixed.
	if err := os.WriteFile(waitPath, []byte(strings.Replace(waitGo, "// sync:tag", "//sync:tag", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	c.save(proto)
	if got := c.waitPublish(proto, wait); len(got[proto])+len(got[wait]) != 0 {
		t.Fatalf("after fixing wait.go: diagnostics %v, want none", got)
	}

	// Text that does not type-check is logged, and the server goes on.
	c.logs = nil
	c.edit(proto, 3, protoIllTyped)
	if got := c.waitPublish(proto); len(got[proto]) != 0 {
		t.Fatalf("ill-typed: diagnostics %s, want none", jsonText(got[proto]))
	}
	wantLog := protoPath + `:35:23: cannot use "x" (untyped string constant) as int value in return statement`
	if len(c.logs) != 1 || c.logs[0].Type != messageError || c.logs[0].Message != wantLog {
		t.Fatalf("ill-typed: log messages %+v, want one error %q", c.logs, wantLog)
	}
	c.edit(proto, 4, protoBroken)
	got = c.waitPublish(proto, wait)
	wantWait = []diagnostic{syncdirective(position{Line: 6, Character: 2}, position{Line: 6, Character: 2}, msgBroken,
		want[0].RelatedInformation[0],
		relatedAt(wait, position{Line: 4, Character: 1}, "//sync:tag of the loop"))}
	if !reflect.DeepEqual(got[proto], want) || !reflect.DeepEqual(got[wait], wantWait) {
		t.Fatalf("broken again: diagnostics of proto.go\n%s\nof wait.go\n%s\nwant\n%s\nand\n%s", jsonText(got[proto]), jsonText(got[wait]), jsonText(want), jsonText(wantWait))
	}

	// Closing clears the file's diagnostics, and only those.
	c.notify("textDocument/didClose", didCloseTextDocumentParams{TextDocument: textDocumentIdentifier{URI: proto}})
	if got := c.waitPublish(proto); len(got[proto]) != 0 {
		t.Fatalf("didClose: diagnostics %s, want none", jsonText(got[proto]))
	}

	if err := c.call("shutdown", nil, nil); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	var res json.RawMessage
	err := c.call("textDocument/hover", map[string]any{}, &res)
	if e, ok := err.(*jsonrpc2.Error); !ok || e.Code != jsonrpc2.CodeInvalidRequest {
		t.Errorf("request after shutdown: %v, want an InvalidRequest error", err)
	}
	c.notify("exit", nil)
	select {
	case <-c.done:
		if c.err != nil {
			t.Fatalf("Serve: %v", c.err)
		}
	case <-time.After(timeout):
		t.Fatal("Serve did not return after exit")
	}
	if len(c.notes) > 0 {
		t.Errorf("%d notification(s) left unread", len(c.notes))
	}
}

// TestProtocolErrors checks the answers to requests out of order and to
// bad parameters, and the result of an exit without shutdown.
func TestProtocolErrors(t *testing.T) {
	c := startServer(t)
	var res json.RawMessage
	if err := c.call("shutdown", nil, &res); !isCode(err, codeServerNotInitialized) {
		t.Errorf("shutdown before initialize: %v, want ServerNotInitialized", err)
	}
	if err := c.call("initialize", "not an object", &res); !isCode(err, jsonrpc2.CodeInvalidParams) {
		t.Errorf("initialize with a string: %v, want InvalidParams", err)
	}
	c.initialize(t.TempDir())
	if err := c.call("initialize", map[string]any{}, &res); !isCode(err, jsonrpc2.CodeInvalidRequest) {
		t.Errorf("second initialize: %v, want InvalidRequest", err)
	}
	if err := c.call("textDocument/hover", map[string]any{}, &res); !isCode(err, jsonrpc2.CodeMethodNotFound) {
		t.Errorf("hover: %v, want MethodNotFound", err)
	}

	// Bad notifications are logged, and do not stop the server.
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "untitled:Untitled-1", "text": "package x"}})
	c.notify("textDocument/didChange", map[string]any{"textDocument": 7})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "file:///tmp/notes.txt"}}) // not Go: ignored
	c.notify("$/cancelRequest", map[string]any{"id": 1})
	wantLogs := []string{
		`ccvet: textDocument/didOpen: document URI "untitled:Untitled-1": only file: URIs are supported`,
		`ccvet: textDocument/didChange: jsonrpc2: code -32602 message: textDocument/didChange: invalid params: json: cannot unmarshal number into Go struct field didChangeTextDocumentParams.textDocument of type lsp.versionedTextDocumentIdentifier`,
	}
	for _, want := range wantLogs {
		select {
		case req := <-c.notes:
			var p logMessageParams
			if req.Method != "window/logMessage" || json.Unmarshal(*req.Params, &p) != nil || p.Message != want || p.Type != messageError {
				t.Errorf("got %s %s, want window/logMessage %q", req.Method, *req.Params, want)
			}
		case <-time.After(timeout):
			t.Fatalf("no log message %q", want)
		}
	}

	c.notify("exit", nil)
	select {
	case <-c.done:
		if !errors.Is(c.err, ErrNoShutdown) {
			t.Fatalf("Serve after exit without shutdown: %v, want ErrNoShutdown", c.err)
		}
	case <-time.After(timeout):
		t.Fatal("Serve did not return after exit")
	}
}

func isCode(err error, code int64) bool {
	e, ok := err.(*jsonrpc2.Error)
	return ok && e.Code == code
}

func jsonText(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func TestToPosition(t *testing.T) {
	src := []byte("package p\n\tx := \"«ü😀»\" + y\r\nlast")
	for _, tc := range []struct {
		line, col int
		want      position
	}{
		{1, 1, position{0, 0}},
		{1, 9, position{0, 8}},
		{2, 2, position{1, 1}},
		{2, 8, position{1, 7}},   // the opening quote
		{2, 10, position{1, 8}},  // after « (2 bytes, 1 unit)
		{2, 12, position{1, 9}},  // after ü
		{2, 16, position{1, 11}}, // after 😀 (4 bytes, 2 units)
		{2, 22, position{1, 16}}, // y, after »" +
		{2, 23, position{1, 17}}, // end of line, before \r\n
		{2, 40, position{1, 17}}, // past the end: clamped
		{3, 5, position{2, 4}},
		{4, 3, position{3, 2}}, // past the last line: byte column
		{0, 0, position{0, 0}},
	} {
		if got := toPosition(src, tc.line, tc.col); got != tc.want {
			t.Errorf("toPosition(%d:%d) = %v, want %v", tc.line, tc.col, got, tc.want)
		}
	}
	if got, want := toPosition(nil, 3, 7), (position{2, 6}); got != want {
		t.Errorf("toPosition without text = %v, want %v", got, want)
	}
	// An invalid byte is one unit, as U+FFFD.
	if got, want := toPosition([]byte("a\xffb"), 1, 3), (position{0, 2}); got != want {
		t.Errorf("toPosition after an invalid byte = %v, want %v", got, want)
	}
}

func TestURI(t *testing.T) {
	if filepath.Separator != '/' {
		t.Skip("Unix file names")
	}
	for path, uri := range map[string]string{
		"/tmp/a.go":              "file:///tmp/a.go",
		"/tmp/with space/ü#?.go": "file:///tmp/with%20space/%C3%BC%23%3F.go",
	} {
		if got := pathToURI(path); got != uri {
			t.Errorf("pathToURI(%q) = %q, want %q", path, got, uri)
		}
		if got, err := uriToPath(uri); err != nil || got != path {
			t.Errorf("uriToPath(%q) = %q, %v; want %q", uri, got, err, path)
		}
	}
	for uri, want := range map[string]string{
		"untitled:Untitled-1": `document URI "untitled:Untitled-1": only file: URIs are supported`,
		"file:a.go":           `document URI "file:a.go" does not name an absolute file`,
		"%zz":                 `invalid document URI "%zz": parse "%zz": invalid URL escape "%zz"`,
	} {
		if _, err := uriToPath(uri); err == nil || err.Error() != want {
			t.Errorf("uriToPath(%q): error %v, want %q", uri, err, want)
		}
	}
}

func TestSeverity(t *testing.T) {
	if got := severity("cannot prove condition 2: m.Ballot is not related to the tag"); got != severityWarning {
		t.Errorf("cannot prove: severity %d, want Warning", got)
	}
	if got := severity(msgBroken); got != severityError {
		t.Errorf("violation: severity %d, want Error", got)
	}
}
