package lsp

import (
	"bytes"
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// uriToPath returns the absolute file name of a file: URI.
func uriToPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("invalid document URI %q: %v", uri, err)
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("document URI %q: only file: URIs are supported", uri)
	}
	p := u.Path
	if runtime.GOOS == "windows" {
		switch {
		case u.Host != "": // UNC path: file://server/share/x
			p = "//" + u.Host + p
		case len(p) >= 3 && p[0] == '/' && p[2] == ':': // file:///C:/x
			p = p[1:]
		}
	}
	p = filepath.FromSlash(p)
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("document URI %q does not name an absolute file", uri)
	}
	return filepath.Clean(p), nil
}

// pathToURI returns the file: URI of an absolute file name.
func pathToURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// toPosition converts go/token's 1-based line and 1-based byte column in
// a file whose text is src to an LSP position: 0-based line, and 0-based
// column in UTF-16 code units. When src is nil (the file could not be
// read) or the line is not in src, the byte column is used as it is.
func toPosition(src []byte, line, col int) position {
	if line < 1 {
		return position{}
	}
	col = max(col-1, 0)
	text, ok := lineText(src, line)
	if !ok {
		return position{Line: uint32(line - 1), Character: uint32(col)}
	}
	return position{Line: uint32(line - 1), Character: utf16Len(text[:min(col, len(text))])}
}

// lineText returns the text of the 1-based line n of src, without its
// line terminator.
func lineText(src []byte, n int) ([]byte, bool) {
	if src == nil {
		return nil, false
	}
	for i := 1; i < n; i++ {
		nl := bytes.IndexByte(src, '\n')
		if nl < 0 {
			return nil, false
		}
		src = src[nl+1:]
	}
	if nl := bytes.IndexByte(src, '\n'); nl >= 0 {
		src = src[:nl]
	}
	return bytes.TrimSuffix(src, []byte("\r")), true
}

// utf16Len returns the length of the UTF-8 text b in UTF-16 code units.
// Each invalid byte counts as one unit, as it does once decoded to
// U+FFFD.
func utf16Len(b []byte) uint32 {
	var n uint32
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if k := utf16.RuneLen(r); k > 0 {
			n += uint32(k)
		} else {
			n++
		}
		b = b[size:]
	}
	return n
}
