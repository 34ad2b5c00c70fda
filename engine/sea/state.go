package sea

import (
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// phase is what the game waits for; see Next.
type phase uint8

const (
	phCommit       phase = iota // NeedCommit strengths, seat commitSeat
	phOrder                     // NeedRandom order: one die each
	phPlace                     // NeedMove place
	phHarpoonPick               // NeedMove harpoon: which Harpoon moves next (step 1)
	phHarpoonRoll               // NeedRandom harpoon
	phHarpoonPath               // NeedMove path
	phReturn                    // NeedMove return (step 2)
	phScrambleRoll              // NeedRandom scramble
	phScramble                  // NeedMove scramble
	phLoad                      // NeedCommit load/<n>
	phDestroyer                 // NeedMove destroyers (step 3)
	phFireRoll                  // NeedRandom fire (steps 3 and 4)
	phDefense                   // NeedMove defense (step 4)
	phDamageRoll                // NeedRandom damage
	phDamageChoose              // NeedMove damage: the carrier's owner removes fighters
	phDefend                    // NeedMove dogfight/defender (step 5)
	phOpenDefender              // NeedOpen the defender's strength
	phAttack                    // NeedMove dogfight/attacker
	phOpenAttacker              // NeedOpen the attacker's strength
	phDogfightRoll              // NeedRandom dogfight
	phSidewinder                // NeedMove sidewinder
	phReroll                    // NeedRandom reroll
	phLaunch                    // NeedMove launch (step 6)
	phLaunchRoll                // NeedRandom launch
	phLaunchPath                // NeedMove launch/path
	phReveal                    // NeedOpen every remaining secret of revealSeat
	phOver                      // NeedNone
)

// FighterState is where a fighter is.
type FighterState uint8

// The places a fighter can be.
const (
	OnDeck   FighterState = iota // on the carrier's deck (the Admiral Card)
	InFlight                     // on the board
	Lost                         // removed from the game
)

// String names the state.
func (s FighterState) String() string {
	switch s {
	case OnDeck:
		return "on deck"
	case InFlight:
		return "in flight"
	}
	return "lost"
}

// fighter is one fighter's public state.
type fighter struct {
	state    FighterState
	cell     Cell // in flight only
	strength int  // 0 until opened
	load     int  // index into Game.loads of the missile it carries, or -1
	returned bool // returned to the deck this turn: cannot scramble again
}

// loadRec is one committed missile (a one-leaf commitment).
type loadRec struct {
	owner   engine.Seat
	name    string
	root    engine.Digest
	fighter int
	opened  bool
	missile Missile // known once opened
}

type carrier struct {
	bow     Cell
	facing  Dir
	placed  bool
	damaged bool
	sunk    bool
}

type destroyer struct {
	bow, stern Cell
	placed     bool
	alive      bool
	acted      bool // moved or fired in step 3 of this turn
	fired      bool // fired in step 4 of this turn
}

type side struct {
	committed  bool
	root       engine.Digest
	placed     int // pieces placed so far
	carrier    carrier
	destroyers [DestroyersPerSide]destroyer
	shallows   [ShallowsPerSide]Cell // top-left space, NoCell until placed
	fighters   [FightersPerSide]fighter
}

type harpoon struct {
	id    int
	owner engine.Seat
	cell  Cell
}

// Roll is one roll of dice: who acted on it, what it was for, and the faces
// (1-6) in the order rolled.
type Roll struct {
	Seat engine.Seat
	Name string
	Dice []int
}

type fireState struct {
	seat      engine.Seat
	destroyer int
	target    Target
	dist      int
}

type damageState struct {
	owner   engine.Seat // the carrier's owner
	by      engine.Seat // the seat that hit it and rolls
	count   int         // fighters to remove (phDamageChoose)
	resume  int         // step to continue
	pending bool
}

// dogfight is the dogfight in progress: index 0 is the defender, 1 the
// attacker.
type dogfight struct {
	fighter [2]int
	dice    [2][]int
	bonus   [2]int
	side    int // whose roll: 0 defender, 1 attacker
	reroll  int // die being rolled again
}

// Game is one match of Mission Command Sea. It implements engine.Game.
type Game struct {
	phase      phase
	step       int // 1-6 during a turn
	turn       int // turns started, from 1
	active     engine.Seat
	first      engine.Seat
	commitSeat engine.Seat
	placements int

	sides    [2]side
	harpoons []harpoon
	nextID   int // next Harpoon ID
	loads    []loadRec
	rolls    []Roll // this turn's rolls (setup rolls before the first turn)

	toMove     []int // Harpoon IDs still to move in step 1
	curHarpoon int   // Harpoon being moved (step 1)
	curRoll    int   // the die for the current Harpoon path
	dice       []int // scramble dice (faces)
	loadQueue  []int // fighters that took off and await their missile
	fire       fireState
	damage     damageState
	df         dogfight
	launching  int // fighter whose Harpoon is being launched
	revealSeat engine.Seat
	outcome    engine.Outcome // decided result (Done once the reveal is over)
	decided    bool
	events     []engine.Event // produced by the Apply in progress; not state
}

func other(s engine.Seat) engine.Seat { return 1 - s }

func (g *Game) clone() *Game {
	c := new(Game)
	*c = *g
	c.ownSlices()
	return c
}

// ownSlices gives the copy of a state its own copies of the slices it
// would otherwise share. It is never inlined so that clone stays small
// enough to inline, and Apply, which keeps its working copy to itself,
// builds it on its stack.
//
//go:noinline
func (g *Game) ownSlices() {
	g.harpoons = append([]harpoon(nil), g.harpoons...)
	g.loads = append([]loadRec(nil), g.loads...)
	// The turn's rolls are only ever appended to (and dropped at a new
	// turn): the copy shares them, clipped, so that its first append copies.
	g.rolls = slices.Clip(g.rolls)
	g.toMove = append([]int(nil), g.toMove...)
	g.dice = append([]int(nil), g.dice...)
	g.loadQueue = append([]int(nil), g.loadQueue...)
	for i := range g.df.dice {
		g.df.dice[i] = append([]int(nil), g.df.dice[i]...)
	}
	g.outcome.Winners = append([]engine.Seat(nil), g.outcome.Winners...)
	g.events = nil
}
