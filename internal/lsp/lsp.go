// Package lsp implements "ccvet lsp", a language server that speaks the
// Language Server Protocol over standard input and output and publishes
// ccvet's findings as diagnostics. gopls has no plugin mechanism
// (golang/go#59869), so an editor runs this server beside gopls, as a
// second server for Go files; it offers diagnostics and nothing else.
//
// # Behaviour
//
// The server asks for full text synchronisation. Opening or saving a Go
// file analyses the package in that file's directory (pattern "." with
// the file's directory as working directory, test files included unless
// Options.Tests is false) with [driver.Analyze], the same loader and
// checker as the standalone command. The text of every open document is
// passed as an overlay, so unsaved edits are analysed; changes only
// update the overlay, because every analysis runs the go command (see
// docs/architecture-loading.md for what is loaded from source), so it is
// run on open and on save only. After each analysis the server publishes the
// diagnostics of every file of the package that has findings now or had
// them after the previous analysis (an empty list clears a fixed file),
// and of every open file of the package. Closing a document clears its
// diagnostics.
//
// Each finding becomes a diagnostic with source "ccvet", the analyzer's
// name as code, its documentation URL as codeDescription, and its related
// positions as relatedInformation. Findings that start with "cannot
// prove" are warnings (the analysis found a gap, not a violation); the
// others are errors. Positions are converted from go/token's 1-based
// lines and byte columns to LSP's 0-based lines and UTF-16 columns by
// reading the line's text (from the overlay, or from disk).
//
// Packages that do not load or type-check are reported with
// window/logMessage and the server goes on; the files of such a package
// lose their ccvet diagnostics until it type-checks again, since there is
// nothing valid to say about them.
//
// # Concurrency
//
// The JSON-RPC connection handles messages one at a time and in order, so
// that a change is applied before the save that follows it. Handlers never
// wait for an analysis: they record the document and schedule the
// package. Analyses of one package are serialised, and requests that
// arrive while one is running are merged into a single re-run with the
// newest overlay; different packages are analysed in parallel, at most
// GOMAXPROCS at a time. The shutdown request waits for the analyses under
// way, so that exit leaves nothing running.
//
// # Library
//
// The base protocol (Content-Length framing and JSON-RPC 2.0) comes from
// github.com/sourcegraph/jsonrpc2, with the few LSP structures the server
// needs declared in protocol.go. It is maintained, used by several
// language servers, has no dependency beyond the standard library (its
// websocket subpackage, which we do not import, needs gorilla/websocket),
// and so leaves golang.org/x/tools, x/mod, x/sync and the go directive at
// the versions golangci-lint pins. Its connection calls the handler
// sequentially, which is the ordering LSP notifications need.
// go.lsp.dev/protocol, which offers all the protocol types, was last
// released in 2022 and brings zap and segmentio/encoding;
// github.com/creachadair/jrpc2 is maintained too but handles requests
// concurrently and pins x/sync and the go directive at its own versions.
// golang.org/x/tools/gopls/internal/protocol is internal to gopls.
package lsp

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/ccvet/ccvet/internal/driver"
	"github.com/sourcegraph/jsonrpc2"
	"golang.org/x/tools/go/analysis"
)

// Options configure a language server.
type Options struct {
	Analyzers []*analysis.Analyzer
	Tests     bool      // also analyse test files
	Tags      string    // comma-separated build tags
	Log       io.Writer // where to log protocol errors and analysis times; nil discards them
}

// ErrNoShutdown is returned by Serve when the client sent exit, or closed
// the connection, without a shutdown request first.
var ErrNoShutdown = errors.New("client exited without a shutdown request")

// Serve runs a language server that reads requests from in and writes
// responses and notifications to out. It returns nil after the client's
// exit notification (or end of input) that follows a shutdown request,
// ErrNoShutdown if the exit came without one, and ctx's error if ctx is
// cancelled first. It closes in and out if they are io.Closers.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := opts.Log
	if w == nil {
		w = io.Discard
	}
	s := newServer(opts, log.New(w, "ccvet lsp: ", log.LstdFlags))
	stream := jsonrpc2.NewBufferedStream(stdio{in, out}, jsonrpc2.VSCodeObjectCodec{})
	conn := jsonrpc2.NewConn(ctx, stream,
		jsonrpc2.HandlerWithError(s.handle).SuppressErrClosed(),
		jsonrpc2.SetLogger(s.log))
	select {
	case <-s.exited:
	case <-conn.DisconnectNotify():
	case <-ctx.Done():
	}
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.wg.Wait() // analyses still under way when the client left without shutdown
	conn.Close()
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.shutdown {
		return ErrNoShutdown
	}
	return nil
}

// stdio joins the two halves of the connection.
type stdio struct {
	io.Reader
	io.Writer
}

func (s stdio) Close() error {
	var errs []error
	if c, ok := s.Reader.(io.Closer); ok {
		errs = append(errs, c.Close())
	}
	if c, ok := s.Writer.(io.Closer); ok {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// Main runs "ccvet lsp" with args, the arguments after "lsp", and returns
// the exit status: 0 after shutdown and exit, 1 otherwise (as the LSP
// specification asks), 2 on bad usage.
func Main(suite []*analysis.Analyzer, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ccvet lsp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	tests := fs.Bool("test", true, "also analyse test files")
	tags := fs.String("tags", "", "comma-separated build tags")
	fs.Bool("stdio", true, "serve on standard input and output, the only transport (accepted because some clients pass it)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, `ccvet lsp runs a language server on standard input and output that
publishes ccvet's findings as diagnostics. Run it beside gopls, as a second
language server for Go files. It analyses the package of a Go file when the
file is opened or saved, including unsaved edits of open files. Load and
type errors go to the client's log (window/logMessage); protocol errors go
to standard error.

Usage:
  ccvet lsp [flags]

Flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "ccvet lsp: unexpected arguments %q: the client names the files\n", fs.Args())
		fs.Usage()
		return 2
	}
	// A stray print to os.Stdout (a pass's debugging output) would corrupt
	// the protocol stream: send it to standard error instead.
	if f, ok := stdout.(*os.File); ok && f == os.Stdout {
		os.Stdout = os.Stderr
	}
	err := Serve(context.Background(), stdin, stdout, Options{
		Analyzers: suite,
		Tests:     *tests,
		Tags:      *tags,
		Log:       stderr,
	})
	if err != nil {
		fmt.Fprintf(stderr, "ccvet lsp: %v\n", err)
		return 1
	}
	return 0
}

// version is the server version reported to the client.
func version() string { return driver.Version() }
