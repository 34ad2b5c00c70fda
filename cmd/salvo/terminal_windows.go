//go:build windows

package main

import (
	"fmt"
	"os"
)

// openTerminal checks that the interface can draw: tcell opens the
// console's input and output, CONIN$ and CONOUT$ (Windows has no
// /dev/tty), which fails in a process without a console (started detached,
// or by a service). Standard input or output redirected to a file or pipe
// does not matter, as with /dev/tty.
func openTerminal() error {
	for _, name := range []string{"CONIN$", "CONOUT$"} {
		f, err := os.OpenFile(name, os.O_RDWR, 0)
		if err != nil {
			return fmt.Errorf("no console: %w", err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("console: %w", err)
		}
	}
	return nil
}
