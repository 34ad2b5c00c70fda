package ubuild

// House values: the numbers the rulebook leaves open (see DATA.md and the
// package documentation). Change them here and nowhere else. The one house
// rule that is not a number, that a coordinate may be called only once, is
// enforced in fire.go.
const (
	// Rows and Cols give the size of the grid.
	Rows = 10
	// Cols is the number of columns of the grid.
	Cols = 10
	// NumCells is the number of cells of a grid, and the size of the "grid"
	// commitment.
	NumCells = Rows * Cols

	// MinFleetWeapons and MaxFleetWeapons bound the weapons of a custom
	// fleet, the same total for both seats, which the host sets by choosing
	// the variant (see [CustomVariant]). The rulebook asks only that "both
	// players must have the same number of weapons per fleet"; its spares
	// are added "to make your ships more powerful", so a fleet starts from
	// the standard 17 (the plates' sum: the standard weapons moved around)
	// and the box's spares allow up to 20 a fleet (DATA.md: text; 20
	// inferred).
	MinFleetWeapons = 17
	// MaxFleetWeapons is the most weapons a custom fleet may total: the
	// variant "custom".
	MaxFleetWeapons = 20
	// MinWeapons is the fewest weapons a custom ship may carry.
	MinWeapons = 1
	// MaxWeapons is the most weapons a custom ship may carry.
	MaxWeapons = 10

	// ClassicShots is the number of shots of a turn in the classic variant.
	ClassicShots = 1
)

// Names of the committed vectors, the roll and the variants.
const (
	// GridName names the committed vector of 100 cells.
	GridName = "grid"
	// WeaponsName names the committed vector of 5 weapon counts (custom).
	WeaponsName = "weapons"
	// FirstPlayerRoll names the joint coin flip that picks the first attacker.
	FirstPlayerRoll = "first player"

	// Standard is the default variant: weapons equal plate numbers.
	Standard = "standard"
	// Custom is the variant with hidden custom weapon counts,
	// [MaxFleetWeapons] a fleet. The variants "custom-17" to "custom-19"
	// ([CustomVariant]) are the same game with fewer weapons a fleet.
	Custom = "custom"
	// Classic is the variant with one shot per turn.
	Classic = "classic"

	// WinReason is the Outcome reason of a finished match.
	WinReason = "sank the whole fleet"
)
