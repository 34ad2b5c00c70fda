//go:build !race

package watch_test

// raceEnabled: see race_on_test.go.
const raceEnabled = false
