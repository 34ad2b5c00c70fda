//go:build !windows

package main

import (
	"os"
	"os/signal"
	"syscall"
)

// stopSignals are the signals that stop a network command the orderly way
// (its context ends: the match is left or stored for resuming, the report
// and log are written): ctrl-c, SIGTERM, and SIGHUP, which a closed
// terminal window or a dropped ssh session sends and which would
// otherwise kill the process on the spot. A process started under nohup
// keeps ignoring SIGHUP, as asked.
func stopSignals() []os.Signal {
	sigs := []os.Signal{os.Interrupt, syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGHUP) {
		sigs = append(sigs, syscall.SIGHUP)
	}
	return sigs
}
