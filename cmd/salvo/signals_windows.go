//go:build windows

package main

import (
	"os"
	"syscall"
)

// stopSignals are the signals that stop a network command the orderly way
// (its context ends: the match is left or stored for resuming, the report
// and log are written). Windows has no SIGHUP; Go delivers ctrl-c and
// ctrl-break as os.Interrupt, and a closed console window, a logoff or a
// shutdown as SIGTERM, after which Windows ends the process within a few
// seconds whatever it does.
func stopSignals() []os.Signal { return []os.Signal{os.Interrupt, syscall.SIGTERM} }
