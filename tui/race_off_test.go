//go:build !race

package tui

// raceEnabled is false: every test runs its tables too.
const raceEnabled = false
