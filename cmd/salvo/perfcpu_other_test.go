//go:build !unix

package main

import "time"

// perfCPU falls back to wall time where CPU time is not measured.
func perfCPU() int64 { return time.Now().UnixNano() }
