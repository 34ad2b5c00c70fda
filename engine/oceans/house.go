package oceans

// The numbers of the game, in one place. Each is marked as in
// shared/rules/DATA.md: "text" is the rulebook's, "house" is a choice of ours
// (from DATA.md or made here where the rules are silent); every house value is
// listed in the package documentation.
const (
	// DeckSize is the number of fleet cards in each player's deck (text).
	DeckSize = 36
	// NumOceans is the number of ocean cards on the table (text).
	NumOceans = 5
	// MaxTaskForce is the most cards a task force may hold (text).
	MaxTaskForce = 5
	// FirstHand and SecondHand are the starting hands of player #1 and #2 (text).
	FirstHand, SecondHand = 6, 5
	// FirstDeploy and SecondDeploy are the faceup opening cards of player #1
	// and #2 (text).
	FirstDeploy, SecondDeploy = 3, 2
	// DrawPerTurn is the number of cards drawn at the start of a turn (text).
	DrawPerTurn = 2
	// OceansToWin is the number of controlled oceans that wins at once (text).
	OceansToWin = 3
	// AttackFactor: a voluntary attack needs a fleet of at least
	// AttackFactor times the oceans still in play (text).
	AttackFactor = 2
	// CarrierReveals is how many facedown cards of one opposing task force
	// the Carrier's special command reveals (house, DATA.md).
	CarrierReveals = 2
	// FighterReveals is how many facedown opposing cards the Fighter
	// Plane's special command reveals (house, DATA.md).
	FighterReveals = 1
)

// deckCounts is the contents of each 36-card fleet deck (house, DATA.md).
var deckCounts = [numCards]int{
	Battleship:   4,
	Carrier:      4,
	Fighter:      6,
	Submarine:    5,
	Destroyer:    5,
	PTBoat:       4,
	Minefield:    3,
	DepthCharges: 2,
	Surprise:     3,
}

// baseValue is each card's battle value on its own (Carrier, Fighter,
// Submarine, Minefield, Depth Charges: text; the rest house, DATA.md).
// Element of Surprise cannot join a task force and has no value.
var baseValue = [numCards]int{
	Battleship:   4,
	Carrier:      2,
	Fighter:      1,
	Submarine:    2,
	Destroyer:    2,
	PTBoat:       1,
	Minefield:    0,
	DepthCharges: 0,
}

const (
	// fighterWithCarrier is a Fighter Plane's value when its task force also
	// holds a Carrier (text).
	fighterWithCarrier = 3
	// submarineUnopposed is a Submarine's value when the opposing task force
	// holds no Destroyer (text).
	submarineUnopposed = 5
)

// surfaceShip marks the cards a Minefield can destroy (house: the
// Submarine is excluded by the text; the Fighter Plane is an aircraft and the
// zero-valued cards are not ships).
var surfaceShip = [numCards]bool{
	Battleship: true,
	Carrier:    true,
	Destroyer:  true,
	PTBoat:     true,
}

// oceanNames names the five oceans (North Atlantic: text; the rest house).
var oceanNames = [NumOceans]string{"North Atlantic", "South Atlantic", "Pacific", "Indian", "Arctic"}
