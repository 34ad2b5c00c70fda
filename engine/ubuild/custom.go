package ubuild

import (
	"fmt"
	"strconv"
	"strings"
)

// customPrefix starts the name of a custom variant with a total other than
// [MaxFleetWeapons]: "custom-17".
const customPrefix = Custom + "-"

// CustomVariant names the custom variant whose fleets total n weapons:
// "custom" for [MaxFleetWeapons] (the name every earlier transcript
// carries), "custom-17" and so on below it. One name per total, so a
// transcript header has one byte form.
func CustomVariant(n int) string {
	if n == MaxFleetWeapons {
		return Custom
	}
	return fmt.Sprintf("%s%d", customPrefix, n)
}

// customVariants lists the custom variants from the fewest weapons up.
func customVariants() []string {
	var vs []string
	for n := MinFleetWeapons; n <= MaxFleetWeapons; n++ {
		vs = append(vs, CustomVariant(n))
	}
	return vs
}

// FleetTotal returns the weapons each fleet of a custom variant totals, and
// false for a variant that is not custom (or a total out of range, or a
// spelling other than [CustomVariant]'s).
func FleetTotal(variant string) (int, bool) {
	if variant == Custom {
		return MaxFleetWeapons, true
	}
	rest, ok := strings.CutPrefix(variant, customPrefix)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < MinFleetWeapons || n > MaxFleetWeapons || CustomVariant(n) != variant {
		return 0, false
	}
	return n, true
}

// StandardBuild is the build a custom fleet of total weapons starts from,
// and the build screen's "standard counts": each ship its plate number, and
// the spare weapons above the standard 17 one each on the biggest ships
// first (a 20 fleet: 6, 5, 4, 3, 2). It is always a build [ValidateWeapons]
// accepts for a total from [MinFleetWeapons] to [MaxFleetWeapons].
func StandardBuild(total int) [NumShips]int {
	w := StandardWeapons()
	for i := 0; i < total-MinFleetWeapons; i++ {
		w[i%NumShips]++
	}
	return w
}
