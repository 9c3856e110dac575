//go:build unix

package scaling

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used, all threads (the
// collector's included): on a shared machine, wall time per operation
// depends on the other load, CPU time much less.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
