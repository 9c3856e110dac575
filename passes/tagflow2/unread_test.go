package tagflow2_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// TestUnread checks that what this engine does not follow (a getter's
// field set through a pointer) makes what depends on it "cannot prove",
// and that what it reads through methods (a getter, an interface
// message's methods) is not handed over as if the call could keep the
// message.
func TestUnread(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), report, "unread")
}
