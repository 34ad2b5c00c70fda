package sea

// The numbers of the game in one place. Values marked "house" in DATA.md, and
// the choices this package adds where the rulebook is silent, are listed in
// the package documentation; change them here and nowhere else.
const (
	// Cols is the board's width in spaces (house, DATA.md).
	Cols = 12
	// Rows is the board's length in spaces; the players sit at the short
	// ends (house, DATA.md).
	Rows = 16
	// HalfRows is the depth of each player's half: seat 0 owns rows 1-8,
	// seat 1 rows 9-16 (house, DATA.md).
	HalfRows = Rows / 2

	// CarrierLen is the carrier's length, straight along a row or column.
	CarrierLen = 4
	// DestroyersPerSide is the number of destroyers each player has.
	DestroyersPerSide = 2
	// DestroyerGap is the exact distance from one end of a newly placed
	// destroyer to its own carrier.
	DestroyerGap = 2
	// DestroyerSteps is how many spaces a destroyer may move in a turn.
	DestroyerSteps = 2
	// ShallowsPerSide is the number of shallows (each with an island) a
	// player places.
	ShallowsPerSide = 2
	// ShallowSize is a shallow's side: a ShallowSize x ShallowSize block
	// (house, DATA.md).
	ShallowSize = 2

	// FightersPerSide is the size of each squadron.
	FightersPerSide = 8
	// ScrambleDice is the number of dice rolled to scramble, one fewer per
	// fighter returned to the carrier.
	ScrambleDice = 4
	// DieFaces is the number of faces of every die (ordinary six-sided).
	DieFaces = 6
	// FireRange is the greatest distance a destroyer may fire at: a hit
	// needs a roll greater than the distance, so anything farther is out of
	// range (house: firing out of range is refused rather than wasted).
	FireRange = DieFaces - 1

	// MaxTurns ends a match that has lasted this many turns (both players'
	// turns counted) as if both fleets were destroyed: an undamaged carrier
	// beats a damaged one, otherwise a tie (house: the rulebook has no
	// limit, but two destroyers stuck against the edge out of range could
	// otherwise play forever).
	MaxTurns = 400
)

// StrengthMultiset is the strengths under the wings of one squadron, two 2s,
// four 3s and two 4s (house, DATA.md), in ascending order.
var StrengthMultiset = [FightersPerSide]int{2, 2, 3, 3, 3, 3, 4, 4}

// MinStrength and MaxStrength bound a fighter's strength.
const (
	MinStrength = 2
	MaxStrength = 4
)

// PlacementOrder is the order in which each player places its pieces; the
// players alternate, one piece at a time (house: the rulebook numbers the
// pieces 1 carrier, 2 destroyers, 3 shallows, and destroyers must be placed
// relative to the carrier).
var PlacementOrder = [...]Piece{PieceCarrier, PieceDestroyer, PieceDestroyer, PieceShallow, PieceShallow}

// strengthCount returns how many fighters of one squadron have strength s.
func strengthCount(s int) int {
	n := 0
	for _, v := range StrengthMultiset {
		if v == s {
			n++
		}
	}
	return n
}
