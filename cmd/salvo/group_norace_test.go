//go:build !race

package main

// raceEnabled is false: the N-player tests run their whole set.
const raceEnabled = false
