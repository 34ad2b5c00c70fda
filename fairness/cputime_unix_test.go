//go:build unix

package fairness_test

import "syscall"

// cpuTime returns the CPU time the process has used, user and system, in
// nanoseconds: a benchmark figure that other processes on a shared machine
// disturb far less than wall time.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
