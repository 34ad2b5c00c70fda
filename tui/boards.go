package tui

// The game boards the interface knows: each package registers itself with
// package board. A new game's board is one more import here.
import (
	_ "github.com/salvo-game/salvo/tui/airview"
	_ "github.com/salvo-game/salvo/tui/cardsview"
	_ "github.com/salvo-game/salvo/tui/oceansview"
	_ "github.com/salvo-game/salvo/tui/seaview"
	_ "github.com/salvo-game/salvo/tui/ubuildview"
)
