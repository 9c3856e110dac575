package tagflow2_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// TestUnread checks that the components this engine does not read (a
// method, an enum mapping, an interface message's methods) make what
// depends on them "cannot prove".
func TestUnread(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), report, "unread")
}
