// Package gctune sets the garbage collector for a one-shot analysis, as
// the ccvet command runs it. The dataflow copies many short-lived states:
// with the default GOGC=100 about half its CPU time goes to collecting
// them (dBFT, CometBFT's consensus: a third less CPU at 400, with twice the
// peak memory). The soft limit makes the collector work harder again past
// 2 GiB, so a large module does not grow four times. The language server,
// which lives long, and the explorer, whose memory is its state space,
// keep the defaults. Benchmarks that run an analysis in a child process
// apply it too, so that they measure what a user runs.
package gctune

import (
	"os"
	"runtime/debug"
)

// GCPercent and MemoryLimit are the settings Apply makes.
const (
	GCPercent   = 400
	MemoryLimit = 2 << 30
)

// Apply sets GCPercent and MemoryLimit unless the user set GOGC or
// GOMEMLIMIT.
func Apply() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(GCPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(MemoryLimit)
	}
}
