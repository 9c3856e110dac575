package tagflow2_test

import (
	"os"
	"testing"

	"github.com/ccvet/ccvet/passes/tagflow2"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestProfTmp(t *testing.T) {
	dir := os.Getenv("TF2DIR")
	if dir == "" {
		t.Skip()
	}
	analysistest.Run(&testing.T{}, dir, tagflow2.Analyzer, os.Getenv("TF2PKG"))
}
