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

	// FleetWeapons is the total number of weapons of a custom fleet, the
	// same for both seats.
	FleetWeapons = 20
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
	// Custom is the variant with hidden custom weapon counts.
	Custom = "custom"
	// Classic is the variant with one shot per turn.
	Classic = "classic"

	// WinReason is the Outcome reason of a finished match.
	WinReason = "sank the whole fleet"
)
