//go:build race

package main

// raceEnabled: the race detector slows the shared deck's group arithmetic
// about tenfold, so the N-player tests keep to a smaller set under it
// (the whole set runs without it, or with -long).
const raceEnabled = true
