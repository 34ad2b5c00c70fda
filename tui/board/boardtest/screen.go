package boardtest

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// Lines returns a w×h grid of cells as lines of text: each cell's first
// rune, a space for an empty cell. A grid shorter than w×h gives the rows
// it holds in full.
func Lines(cells []tcell.SimCell, w, h int) []string {
	if w <= 0 || h <= 0 {
		return nil
	}
	h = min(h, len(cells)/w)
	out := make([]string, h)
	var b strings.Builder
	for y := range h {
		b.Reset()
		for x := range w {
			c := cells[y*w+x]
			if len(c.Runes) == 0 || c.Runes[0] == 0 {
				b.WriteByte(' ')
			} else {
				b.WriteRune(c.Runes[0])
			}
		}
		out[y] = b.String()
	}
	return out
}

// Join returns lines as one text, every line ended by a newline: the form
// [Text] returns.
func Join(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// Text returns what scr shows as text, one line per row, each ended by a
// newline. Read it only while nothing draws on scr.
func Text(scr tcell.SimulationScreen) string {
	if scr == nil {
		return ""
	}
	cells, w, h := scr.GetContents()
	return Join(Lines(cells, w, h))
}

// Coloured describes the first cell of a w-wide grid drawn in a colour
// (foreground or background other than the terminal's default), or returns
// "" when every cell is in the default colours.
func Coloured(cells []tcell.SimCell, w int) string {
	for i, c := range cells {
		if fg, bg, _ := c.Style.Decompose(); fg != tcell.ColorDefault || bg != tcell.ColorDefault {
			x, y := i, 0
			if w > 0 {
				x, y = i%w, i/w
			}
			return fmt.Sprintf("cell %d (%q at %d,%d) has colours %v on %v", i, string(c.Runes), x, y, fg, bg)
		}
	}
	return ""
}

// Screen is a simulation screen that keeps a copy of every frame the
// application shows, taken on the drawing goroutine right after the frame
// is complete, so that tests read whole frames without racing the drawing.
// Give it to the application as its screen.
type Screen struct {
	tcell.SimulationScreen
	mu     sync.Mutex
	lines  []string
	cells  []tcell.SimCell
	w, h   int
	frames int
}

// NewScreen returns a UTF-8 [Screen] that has shown no frame yet.
func NewScreen() *Screen {
	return &Screen{SimulationScreen: tcell.NewSimulationScreen("UTF-8")}
}

// Show shows the frame, then copies it.
func (s *Screen) Show() {
	s.SimulationScreen.Show()
	s.grab()
}

// Sync redraws the whole frame, then copies it.
func (s *Screen) Sync() {
	s.SimulationScreen.Sync()
	s.grab()
}

func (s *Screen) grab() {
	cells, w, h := s.SimulationScreen.GetContents()
	lines := Lines(cells, w, h)
	cp := append([]tcell.SimCell(nil), cells...)
	s.mu.Lock()
	s.lines, s.cells, s.w, s.h = lines, cp, w, h
	s.frames++
	s.mu.Unlock()
}

// Lines returns the last frame shown as lines, or nil before the first.
// The slice is the caller's.
func (s *Screen) Lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.lines...)
}

// Frame returns the last frame shown: its cells (the caller's copy) and
// size; w and h are 0 before the first frame.
func (s *Screen) Frame() (cells []tcell.SimCell, w, h int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]tcell.SimCell(nil), s.cells...), s.w, s.h
}

// Frames returns how many frames have been shown.
func (s *Screen) Frames() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.frames
}

// Mono fails the test if any cell of scr is drawn in a colour (see
// [Coloured]), as no cell may be in the monochrome theme. Read scr only
// while nothing draws on it.
func Mono(t testing.TB, scr tcell.SimulationScreen) {
	t.Helper()
	if scr == nil {
		t.Fatal("Mono: no screen")
		return
	}
	cells, w, _ := scr.GetContents()
	if c := Coloured(cells, w); c != "" {
		t.Fatalf("%s\n%s", c, Text(scr))
	}
}
