package synclex_test

import (
	"testing"

	"github.com/ccvet/ccvet/passes/synclex"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestSynclex checks the reported filters and the lexicographic forms that
// stay silent.
func TestSynclex(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), synclex.Analyzer, "lex")
}

// TestReceived checks that only comparisons of received messages are
// reported, not those of messages read from storage or built locally
// (FP-3).
func TestReceived(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), synclex.Analyzer, "recv")
}
