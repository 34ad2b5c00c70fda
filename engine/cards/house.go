package cards

// This file is the one place for the game's numbers: those DATA.md fixes and
// the house choices the rules leave open (listed in the package doc).

// Grid shape (text): coordinate cards lie facedown in 3 rows of 4.
const (
	GridRows = 3
	GridCols = 4
	// GridSize is the number of coordinate cards of a seat: 5 ships and 7 misses.
	GridSize = GridRows * GridCols
	// Misses is the number of miss cards among the coordinate cards.
	Misses = GridSize - NumShips + 1
)

// Hand sizes (text): reload to HandSize, or to CarrierHandSize while your
// Aircraft Carrier is revealed and afloat.
const (
	HandSize        = 5
	CarrierHandSize = 7
)

// ShieldStrength is the number of pegs that destroy a shield (text + found).
const ShieldStrength = 2

// PowerExtraPlays is the number of further plays "Play 2 more cards" grants;
// RepairExtraPlays and DrawExtraPlays those of "Repair a ship, then play a
// card" and "Draw 3 cards, then play one"; DrawPowerCards the cards drawn.
const (
	PowerExtraPlays  = 2
	RepairExtraPlays = 1
	DrawExtraPlays   = 1
	DrawPowerCards   = 3
)

// MaxTurns is a house limit: a match still running after this many turns (both
// seats together) ends in a draw, so that two stalling players cannot keep a
// match alive forever. Random bots need 74 turns on average (the longest of
// 1,000 random matches took 157).
const MaxTurns = 1000

// maxDrawBound is the largest Bound a single draw roll may have (house): a
// k-card draw whose mixed-radix bound R·(R−1)·…·(R−k+1) would exceed it is
// split into several rolls, so bounds fit a 32-bit int on every platform.
const maxDrawBound = 1<<31 - 1

// shipHits is the number of hits that sink each ship (DATA.md, found).
var shipHits = [NumShips]int{Carrier: 5, Battleship: 4, Destroyer: 3, Submarine: 3, PTBoat: 2}

// standardDeck is the 26-card destruction deck of each seat (DATA.md, found).
var standardDeck = [NumFaces]int{
	White:       10,
	Red1:        6,
	Red2:        3,
	Red4:        1,
	ShieldCard:  2,
	DiscardPlay: 2,
	RepairDraw:  2,
}

// beginnerDeck is the standard deck without its power cards (text: beginner rules).
var beginnerDeck = [NumFaces]int{
	White: 10,
	Red1:  6,
	Red2:  3,
	Red4:  1,
}

// coordCounts is the multiset of coordinate cards: one of each ship, 7 misses.
var coordCounts = [NumShips]int{NoShip: Misses, Carrier: 1, Battleship: 1, Destroyer: 1, Submarine: 1, PTBoat: 1}
