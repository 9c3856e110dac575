package lsp

// The few Language Server Protocol 3.17 structures the server reads and
// writes, with the JSON names of the specification. Fields the server
// does not use are omitted: encoding/json ignores unknown fields.

// Error codes of the LSP specification, beside JSON-RPC's own.
const (
	codeServerNotInitialized = -32002
)

// Text document synchronisation kinds.
const (
	syncFull = 1 // the client sends the whole text on every change
)

// Diagnostic severities.
const (
	severityError   = 1
	severityWarning = 2
)

// Message types of window/logMessage.
const (
	messageError = 1
)

// initializeParams are the parameters of initialize. The server needs
// none of them (it analyses the package of each file it is told about);
// decoding them only checks that they are an object.
type initializeParams struct{}

type initializeResult struct {
	Capabilities serverCapabilities `json:"capabilities"`
	ServerInfo   serverInfo         `json:"serverInfo"`
}

type serverInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

type serverCapabilities struct {
	TextDocumentSync textDocumentSyncOptions `json:"textDocumentSync"`
}

type textDocumentSyncOptions struct {
	OpenClose bool        `json:"openClose"`
	Change    int         `json:"change"`
	Save      saveOptions `json:"save"`
}

type saveOptions struct {
	IncludeText bool `json:"includeText"`
}

type textDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int32  `json:"version"`
	Text       string `json:"text"`
}

type textDocumentIdentifier struct {
	URI string `json:"uri"`
}

type versionedTextDocumentIdentifier struct {
	URI     string `json:"uri"`
	Version int32  `json:"version"`
}

type didOpenTextDocumentParams struct {
	TextDocument textDocumentItem `json:"textDocument"`
}

type didChangeTextDocumentParams struct {
	TextDocument   versionedTextDocumentIdentifier  `json:"textDocument"`
	ContentChanges []textDocumentContentChangeEvent `json:"contentChanges"`
}

// textDocumentContentChangeEvent is a change of a document. The server
// asks for full synchronisation, so Range is nil and Text is the whole
// new text.
type textDocumentContentChangeEvent struct {
	Range *lspRange `json:"range,omitempty"`
	Text  string    `json:"text"`
}

type didSaveTextDocumentParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Text         *string                `json:"text,omitempty"`
}

type didCloseTextDocumentParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

// documentURI returns the URI of the document that a text document
// notification is about.
func (p didOpenTextDocumentParams) documentURI() string   { return p.TextDocument.URI }
func (p didChangeTextDocumentParams) documentURI() string { return p.TextDocument.URI }
func (p didSaveTextDocumentParams) documentURI() string   { return p.TextDocument.URI }
func (p didCloseTextDocumentParams) documentURI() string  { return p.TextDocument.URI }

// position is a 0-based line and a 0-based offset in UTF-16 code units
// within that line.
type position struct {
	Line      uint32 `json:"line"`
	Character uint32 `json:"character"`
}

type lspRange struct {
	Start position `json:"start"`
	End   position `json:"end"`
}

type location struct {
	URI   string   `json:"uri"`
	Range lspRange `json:"range"`
}

type diagnostic struct {
	Range              lspRange                       `json:"range"`
	Severity           int                            `json:"severity"`
	Code               string                         `json:"code,omitempty"`
	CodeDescription    *codeDescription               `json:"codeDescription,omitempty"`
	Source             string                         `json:"source"`
	Message            string                         `json:"message"`
	RelatedInformation []diagnosticRelatedInformation `json:"relatedInformation,omitempty"`
}

type codeDescription struct {
	Href string `json:"href"`
}

type diagnosticRelatedInformation struct {
	Location location `json:"location"`
	Message  string   `json:"message"`
}

// publishDiagnosticsParams replaces all the diagnostics of one file:
// Diagnostics must be an empty list, not null, to clear them.
type publishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Diagnostics []diagnostic `json:"diagnostics"`
}

type logMessageParams struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}
