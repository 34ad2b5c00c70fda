//go:build !race

package adversary

// raceEnabled is false: the default run tries its whole budget.
const raceEnabled = false
