//go:build !race

package fairness

// preshareRace: see preshare_race_attack_test.go.
const preshareRace = false
