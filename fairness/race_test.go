//go:build race

package fairness_test

// raceEnabled: the race detector slows the shared deck's arithmetic about
// tenfold, so tests that give up on a silent seat wait longer under it.
const raceEnabled = true
