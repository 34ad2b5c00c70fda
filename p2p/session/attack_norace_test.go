//go:build !race

package session

// raceDetector is false: every live attack test runs.
const raceDetector = false
