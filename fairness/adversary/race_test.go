//go:build race

package adversary

// raceEnabled: the race detector slows the shared deck's arithmetic about
// tenfold, so the default run tries fewer records under it.
const raceEnabled = true
