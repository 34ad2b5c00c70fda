package main

import (
	"fmt"
	"io"
)

// runInteractive opens the terminal interface for the lobby, play, host and
// join.
func runInteractive(cmd string, args []string, stdout, stderr io.Writer) int {
	switch cmd {
	case "", "play", "host", "join":
		fmt.Fprintln(stderr, "salvo: the terminal interface is not built yet; try `salvo selfplay`")
		return exitUsage
	}
	fmt.Fprintf(stderr, "salvo: unknown command %q\n\n%s", cmd, usageText())
	return exitUsage
}
