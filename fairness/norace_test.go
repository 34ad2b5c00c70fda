//go:build !race

package fairness_test

// raceEnabled is false: see race_test.go.
const raceEnabled = false
