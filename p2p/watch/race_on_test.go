//go:build race

package watch_test

// raceEnabled: the race detector slows the shared deck's group arithmetic
// about thirtyfold (a 4-player Air match takes two minutes under it), so
// the 4-player test runs under it only with -long.
const raceEnabled = true
