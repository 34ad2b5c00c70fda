//go:build race

package session

// raceDetector: the race detector slows the shared deck's arithmetic of an
// Air match about tenfold, so the live attack tests keep to one match
// under it (all of them run without it).
const raceDetector = true
