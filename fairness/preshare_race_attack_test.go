//go:build race

package fairness

// preshareRace: the pre-share properties run fewer matches under the race
// detector, which slows them about tenfold.
const preshareRace = true
