package tagflow2_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// TestUnread checks that the components this engine does not read (an
// enum mapping) make what depends on them "cannot prove", and that what
// it reads through methods (a getter, an interface message's methods) is
// not handed over as if the call could keep the message.
func TestUnread(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), report, "unread")
}
