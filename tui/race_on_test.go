//go:build race

package tui

// raceEnabled: the race detector slows the shared deck's group arithmetic
// about tenfold (a table's first shuffle takes minutes), so the tests that
// only lay out a table's screens leave the tables out under it.
const raceEnabled = true
