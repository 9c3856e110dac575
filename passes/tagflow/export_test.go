package tagflow

import "github.com/ccvet/ccvet/annotations"

// SetTestHookAnalyse sets the hook run at the start of every loop's
// analysis, for the duration of a test.
func SetTestHookAnalyse(h func(*annotations.Loop)) (restore func()) {
	old := testHookAnalyse
	testHookAnalyse = h
	return func() { testHookAnalyse = old }
}
