package tagflow

import "github.com/ccvet/ccvet/annotations"

// SetTestHookAnalyse sets the hook run at the start of every loop's
// analysis, for the duration of a test.
func SetTestHookAnalyse(h func(*annotations.Loop)) (restore func()) {
	old := testHookAnalyse
	testHookAnalyse = h
	return func() { testHookAnalyse = old }
}

// SetFullKey makes every part of a state part of its key (fullkey.go), for
// the duration of a test.
func SetFullKey() (restore func()) { return setFullKey() }
