package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ccvet/ccvet/internal/testenv"
	"github.com/sourcegraph/jsonrpc2"
)

// fileURI is the file: URI of an absolute file name.
func fileURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// lspStream joins the server's standard output and input into the
// client's end of the connection.
type lspStream struct {
	io.ReadCloser
	io.WriteCloser
}

func (s lspStream) Close() error {
	s.WriteCloser.Close()
	return s.ReadCloser.Close()
}

// TestLSP runs 'ccvet lsp' as an editor would: it opens proc.go, whose
// loop sends a message of the other package with the wrong number of tag
// components, receives the diagnostic, fixes the text without saving it
// to disk, saves, receives an empty list, and shuts the server down.
func TestLSP(t *testing.T) {
	dir := testenv.TempModule(t, "example.com/two", map[string]string{"msgs/msgs.go": testenv.MsgsGo, "proc/proc.go": procGo})
	procPath := filepath.Join(dir, "proc", "proc.go")
	msgsPath := filepath.Join(dir, "msgs", "msgs.go")
	proc := fileURI(procPath)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, ccvet, "lsp")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()

	notes := make(chan *jsonrpc2.Request, 100)
	handler := jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		if req.Notif && req.Method == "textDocument/publishDiagnostics" {
			notes <- req
		}
		return nil, nil
	})
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(lspStream{stdout, stdin}, jsonrpc2.VSCodeObjectCodec{}), handler)
	defer conn.Close()

	type position struct{ Line, Character int }
	type lspRange struct{ Start, End position }
	type location struct {
		URI   string
		Range lspRange
	}
	type diagnostic struct {
		Range              lspRange
		Severity           int
		Code               string
		CodeDescription    struct{ Href string }
		Source             string
		Message            string
		RelatedInformation []struct {
			Location location
			Message  string
		}
	}
	next := func() []diagnostic {
		t.Helper()
		select {
		case req := <-notes:
			var p struct {
				URI         string
				Diagnostics []diagnostic
			}
			if err := json.Unmarshal(*req.Params, &p); err != nil {
				t.Fatal(err)
			}
			if p.URI != proc || p.Diagnostics == nil {
				t.Fatalf("publishDiagnostics %s, want a list for %s", *req.Params, proc)
			}
			return p.Diagnostics
		case <-ctx.Done():
			t.Fatalf("no diagnostics; stderr:\n%s", &stderr)
		}
		return nil
	}

	var init struct {
		Capabilities struct{ TextDocumentSync struct{ Change int } }
	}
	if err := conn.Call(ctx, "initialize", map[string]any{"processId": os.Getpid(), "rootUri": fileURI(dir), "capabilities": map[string]any{}}, &init); err != nil {
		t.Fatalf("initialize: %v; stderr:\n%s", err, &stderr)
	}
	if init.Capabilities.TextDocumentSync.Change != 1 {
		t.Fatalf("initialize: text document sync %+v, want full (1)", init.Capabilities.TextDocumentSync)
	}
	notify := func(method string, params any) {
		t.Helper()
		if err := conn.Notify(ctx, method, params); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
	}
	notify("initialized", map[string]any{})
	notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": proc, "languageId": "go", "version": 1, "text": procGo}})

	got := next()
	// proc.go:10:18, msgs/msgs.go:13:6 and proc.go:7:2 in the standalone
	// command's output; LSP counts from 0.
	want := []diagnostic{{
		Range:    lspRange{position{9, 17}, position{9, 17}},
		Severity: 1,
		Code:     "syncdirective",
		Source:   "ccvet",
		Message:  wantMsg,
	}}
	want[0].CodeDescription.Href = "https://github.com/ccvet/ccvet/blob/main/docs/analyzers.md#syncdirective"
	want[0].RelatedInformation = append(want[0].RelatedInformation,
		struct {
			Location location
			Message  string
		}{location{fileURI(msgsPath), lspRange{position{12, 5}, position{12, 5}}}, "msgs.Msg is declared here"},
		struct {
			Location location
			Message  string
		}{location{proc, lspRange{position{6, 1}, position{6, 1}}}, "//sync:tag of the loop"})
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("didOpen: diagnostics\n%+v\nwant\n%+v", got, want)
	}

	// The fix is in the editor only: the file on disk keeps the violation.
	// The loop gets the second tag variable that msgs.Msg carries (only
	// dropping the message would leave a loop in which nothing is checked,
	// itself a finding).
	fixed := strings.NewReplacer(
		"\t//sync:tag ballot\n", "\tvar step msgs.Step\n\t//sync:tag ballot,step\n",
		"msgs.Msg{Ballot: ballot}", "msgs.Msg{Ballot: ballot, Step: step}",
	).Replace(procGo)
	if !strings.Contains(fixed, "//sync:tag ballot,step") || !strings.Contains(fixed, "Step: step}") {
		t.Fatalf("the fix did not apply to procGo:\n%s", fixed)
	}
	notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": proc, "version": 2},
		"contentChanges": []any{map[string]any{"text": fixed}},
	})
	notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": proc}})
	if got := next(); len(got) != 0 {
		t.Fatalf("after the fix: diagnostics %+v, want none", got)
	}

	if err := conn.Call(ctx, "shutdown", nil, nil); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	notify("exit", nil)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("ccvet lsp: %v; stderr:\n%s", err, &stderr)
	}
}

func TestLSPUsage(t *testing.T) {
	_, stderr, code := run(t, ".", ccvet, "lsp", "-h")
	if code != 0 || !strings.Contains(stderr, "ccvet lsp [flags]") || !strings.Contains(stderr, "-tags") {
		t.Errorf("ccvet lsp -h: exit %d, stderr:\n%s", code, stderr)
	}
	_, stderr, code = run(t, ".", ccvet, "lsp", "extra")
	if code != 2 || !strings.Contains(stderr, `unexpected arguments ["extra"]`) {
		t.Errorf("ccvet lsp extra: exit %d, stderr:\n%s", code, stderr)
	}
}
