package seaview

import (
	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/tui/style"
)

// The board's glyphs: one character a space, each state its own shape so
// that the board reads the same without colour. Solid shapes are the
// viewer's pieces (the first seat in the audit viewer), hollow ones the
// other side's. These are the view's house choices; change them here.
const (
	gWater     = style.Water // open water
	gShallow   = "░"         // a shallow with its island: no-fly, no ships, blocks fire
	gLaunch    = "+"         // a carrier's launch space, in front of its bow
	gOwnHull   = "■"         // a space of one of your ships
	gFoeHull   = "□"         // a space of an enemy ship
	gDamaged   = "▣"         // a space of a damaged carrier (the bow says whose)
	gOwnHarp   = "◆"         // your Harpoon in the water
	gFoeHarp   = "◇"         // an enemy Harpoon in the water
	gFoeHidden = "?"         // an enemy fighter whose strength is hidden
	gReach     = "◦"         // a space the selected piece can reach
	gPath      = "•"         // the path to the cursor, or a line of fire
	gTarget    = style.Marked
	gReturn    = "↩" // a fighter marked to return to the carrier
	gLeft      = "∘" // where a fighter planned to fly leaves from
	gClash     = style.Clash
	gHit       = style.Hit
	gSunk      = style.Sunk
	gLost      = "×" // a lost fighter in the lists
	gPointer   = style.Pointer

	// Beside a fighter, in the gap after its glyph: its missile.
	gLoadHarpoon    = "h" // a Harpoon
	gLoadSidewinder = "s" // a Sidewinder
	gLoadHidden     = "m" // an enemy missile of unknown kind
)

// Bows by facing: a carrier's bow is a triangle, a destroyer's an arrow.
var (
	ownCarrierBow = [8]string{"▲", "◥", "▶", "◢", "▼", "◣", "◀", "◤"}
	foeCarrierBow = [8]string{"△", "◹", "▷", "◿", "▽", "◺", "◁", "◸"}
	destroyerBow  = [8]string{"↑", "↗", "→", "↘", "↓", "↙", "←", "↖"}
	// foeStrength draws a revealed enemy strength (2-4): circled digits,
	// so that an enemy fighter never looks like one of yours.
	foeStrength = [sea.MaxStrength + 1]string{"?", "①", "②", "③", "④"}
)

// legend lists the glyphs with a word or two each, in the order shown.
var legend = []struct{ glyph, text string }{
	{"▲△", "carrier yours/foe"},
	{"↑■", "destroyer"},
	{"3", "fighter"},
	{"h s m", "missile"},
	{"?③", "enemy fighter"},
	{"◆◇", "Harpoon"},
	{gShallow, "shallow"},
	{gLaunch, "launch"},
	{gDamaged, "damaged"},
	{gSunk, "sunk"},
	{gReach, "reach"},
	{gPath, "path"},
	{gTarget, "target"},
}

// legendHelp is the whole legend in words, for the help.
const legendHelp = "show the whole legend in the side pane (again: hide it): " +
	"▲△ a carrier's bow, yours solid, the enemy's hollow; ■□ a ship's other spaces; ↑↗→… a destroyer's bow and facing; " +
	"▣ a damaged carrier; 2 3 4 your fighters by strength, h or s beside one its Harpoon or Sidewinder; " +
	"? an enemy fighter, ②③④ once its strength is revealed, m beside it its hidden missile; " +
	"◆◇ Harpoons in the water; ░ a shallow with its island; + a launch space; ✖ where a ship sank; " +
	"◦ where the piece can go; • the path or line of fire; ◎ a ship a Harpoon can hit, or a target"

// bowGlyph returns the glyph of a ship's bow.
func bowGlyph(carrier, own bool, d sea.Dir) string {
	if !d.Valid() {
		d = sea.North
	}
	switch {
	case !carrier:
		return destroyerBow[d]
	case own:
		return ownCarrierBow[d]
	}
	return foeCarrierBow[d]
}

// fighterGlyph returns the glyph of a fighter: its strength for your own,
// a circled strength or "?" for the enemy's.
func fighterGlyph(f sea.FighterView, own bool) string {
	if f.Strength < sea.MinStrength || f.Strength > sea.MaxStrength {
		if own {
			return "f"
		}
		return gFoeHidden
	}
	if own {
		return string(rune('0' + f.Strength))
	}
	return foeStrength[f.Strength]
}
