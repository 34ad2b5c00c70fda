//go:build !windows

package main

import "os"

// openTerminal checks that the interface can draw: tcell opens /dev/tty,
// which fails in a process without a controlling terminal (cron, a pipe
// from ssh without -t, CI).
func openTerminal() error {
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return err
	}
	return f.Close()
}
