//go:build unix

package explore

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used (user and system),
// so that a benchmark can report it beside the wall time on a shared
// machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
