// Package style holds the look of the Salvo terminal interface: a theme of
// semantic styles, the glyphs that give every state a shape as well as a
// colour, and small helpers to print text into a tcell screen.
//
// Colours are optional everywhere. A monochrome theme (chosen when NO_COLOR
// is set, or asked for) uses only the terminal's default colours with bold,
// dim, underline and reverse; every board state keeps its own glyph, so
// nothing depends on colour alone.
package style

import (
	"os"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// init makes tview draw on the terminal's own colours everywhere (its
// default theme is white on black). tview.Styles is a global that every
// primitive reads when it is built, so it is set here, when the package
// every Salvo screen imports is initialised: before any primitive exists
// and before any goroutine could be building one.
func init() {
	tview.Styles.PrimitiveBackgroundColor = tcell.ColorDefault
	tview.Styles.ContrastBackgroundColor = tcell.ColorDefault
	tview.Styles.MoreContrastBackgroundColor = tcell.ColorDefault
	tview.Styles.PrimaryTextColor = tcell.ColorDefault
}

// Theme is the set of semantic styles every screen draws with.
type Theme struct {
	// Mono is true for the monochrome theme.
	Mono bool

	Base     tcell.Style // ordinary text
	Dim      tcell.Style // secondary text, water, labels
	Accent   tcell.Style // headings, the selected item's marker
	Title    tcell.Style // the title bar
	Bar      tcell.Style // the key-hint bar
	BarKey   tcell.Style // a key in the key-hint bar
	Good     tcell.Style // ✓ checks, wins
	Bad      tcell.Style // ✗ failures, cheats, hits on our ships
	Warn     tcell.Style // waiting, timeouts
	Selected tcell.Style // the selected row of a list
	Cursor   tcell.Style // the board cursor
	Ship     tcell.Style // our ships
	Hit      tcell.Style // hits
	Miss     tcell.Style // misses
	Sunk     tcell.Style // sunk ships
	Mark     tcell.Style // shots marked for the next volley
	Ghost    tcell.Style // a ship being placed; revealed enemy ships
	Alarm    tcell.Style // the cheat panel's frame and headline
}

// Glyphs of board and log states. Each state has its own shape, so the
// interface reads the same without colour.
const (
	Water   = "·" // water, or a cell nobody has shot
	Ship    = "■" // a ship cell
	Hit     = "✕" // a hit
	Miss    = "○" // a miss
	Sunk    = "✖" // a cell of a sunk ship
	Marked  = "◎" // a shot marked for the next volley
	Ghost   = "□" // a ship being placed, or a weapon lost
	Clash   = "▒" // a ship being placed where it cannot go
	OK      = "✓" // a check passed
	Fail    = "✗" // a check failed
	Sent    = "→" // a message we sent
	Pointer = "›" // the selected row
	Play    = "▶" // a match in progress that can be resumed
)

// Spinner is the frames of the waiting spinner.
var Spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// NoColor reports whether the NO_COLOR convention asks for no colour.
func NoColor() bool { return os.Getenv("NO_COLOR") != "" }

// Default returns the colour theme, or the monochrome one when NO_COLOR is
// set.
func Default() *Theme { return New(NoColor()) }

// New returns the monochrome theme if mono, else the colour theme. Both use
// the terminal's own background.
func New(mono bool) *Theme {
	d := tcell.StyleDefault
	if mono {
		return &Theme{
			Mono: true,
			Base: d, Dim: d.Dim(true), Accent: d.Bold(true), Title: d.Reverse(true),
			Bar: d, BarKey: d.Bold(true), Good: d, Bad: d.Bold(true), Warn: d.Bold(true),
			Selected: d.Reverse(true), Cursor: d.Reverse(true),
			Ship: d.Bold(true), Hit: d.Bold(true), Miss: d.Dim(true), Sunk: d.Bold(true),
			Mark: d.Bold(true).Underline(true), Ghost: d, Alarm: d.Bold(true).Reverse(true),
		}
	}
	fg := d.Foreground
	return &Theme{
		Base:     d,
		Dim:      fg(tcell.ColorGray),
		Accent:   fg(tcell.ColorTeal).Bold(true),
		Title:    d.Background(tcell.ColorNavy).Foreground(tcell.ColorWhite),
		Bar:      d,
		BarKey:   fg(tcell.ColorTeal).Bold(true),
		Good:     fg(tcell.ColorGreen),
		Bad:      fg(tcell.ColorRed).Bold(true),
		Warn:     fg(tcell.ColorYellow),
		Selected: d.Reverse(true),
		Cursor:   d.Reverse(true),
		Ship:     fg(tcell.ColorSilver).Bold(true),
		Hit:      fg(tcell.ColorRed).Bold(true),
		Miss:     fg(tcell.ColorBlue),
		Sunk:     fg(tcell.ColorMaroon).Bold(true),
		Mark:     fg(tcell.ColorYellow).Bold(true),
		Ghost:    fg(tcell.ColorTeal),
		Alarm:    d.Background(tcell.ColorMaroon).Foreground(tcell.ColorWhite).Bold(true),
	}
}
