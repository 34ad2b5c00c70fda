package oceansview_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/tui"
	"github.com/salvo-game/salvo/tui/style"
)

// frameScreen is a simulation screen that keeps a copy of every frame the
// interface shows, taken on the interface's own goroutine right after the
// frame is complete, so that tests read whole frames without racing the
// drawing.
type frameScreen struct {
	tcell.SimulationScreen
	mu    sync.Mutex
	text  string
	w, h  int
	cells []tcell.SimCell
}

// Show shows the frame, then copies it.
func (s *frameScreen) Show() {
	s.SimulationScreen.Show()
	s.grab()
}

// Sync redraws the whole frame, then copies it.
func (s *frameScreen) Sync() {
	s.SimulationScreen.Sync()
	s.grab()
}

func (s *frameScreen) grab() {
	cells, w, h := s.SimulationScreen.GetContents()
	var b strings.Builder
	for y := range h {
		for x := range w {
			c := cells[y*w+x]
			if len(c.Runes) == 0 || c.Runes[0] == 0 {
				b.WriteByte(' ')
			} else {
				b.WriteRune(c.Runes[0])
			}
		}
		b.WriteByte('\n')
	}
	cp := make([]tcell.SimCell, len(cells))
	copy(cp, cells)
	s.mu.Lock()
	s.text, s.w, s.h, s.cells = b.String(), w, h, cp
	s.mu.Unlock()
}

// frame returns the last frame shown.
func (s *frameScreen) frame() (string, int, int, []tcell.SimCell) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.text, s.w, s.h, s.cells
}

// ui runs the whole interface on a simulation screen: keys in, frames out.
// Every wait polls with a timeout and shows the screen on failure.
type ui struct {
	t    testing.TB
	scr  *frameScreen
	app  *tui.App
	done chan error
	dir  string
	once sync.Once
}

// startUI runs the interface with cfg on a w×h screen: offline, its data
// in a temporary folder, listening on loopback only, seeded.
func startUI(t testing.TB, cfg tui.Config, w, h int) *ui {
	t.Helper()
	scr := &frameScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8")}
	cfg.Screen = scr
	cfg.Offline = true
	if cfg.DataDir == "" {
		cfg.DataDir = t.TempDir()
	}
	cfg.ListenAddrs = []string{"/ip4/127.0.0.1/tcp/0"}
	if cfg.Rand == nil {
		cfg.Rand = rand.New(rand.NewPCG(1, 2))
	}
	if cfg.Theme == nil {
		cfg.Theme = style.New(false)
	}
	drew := make(chan struct{})
	cfg.OnFirstDraw = func() { close(drew) }
	app, err := tui.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	u := &ui{t: t, scr: scr, app: app, done: make(chan error, 1), dir: cfg.DataDir}
	go func() { u.done <- app.Run() }()
	select {
	case <-drew:
	case err := <-u.done:
		t.Fatalf("the interface stopped before drawing: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("no first draw within 10 s")
	}
	t.Cleanup(u.stop)
	u.resize(w, h)
	return u
}

func (u *ui) stop() {
	u.once.Do(func() {
		u.app.Stop()
		select {
		case <-u.done:
		case <-time.After(30 * time.Second):
			u.t.Errorf("the interface did not stop within 30 s")
		}
	})
}

// resize changes the screen size as a terminal resize would, and waits
// for a frame of that size.
func (u *ui) resize(w, h int) {
	u.t.Helper()
	u.scr.SetSize(w, h)
	u.scr.PostEventWait(tcell.NewEventResize(w, h))
	u.waitFunc(fmt.Sprintf("a %dx%d frame", w, h), 10*time.Second, func(string) bool {
		_, fw, fh, _ := u.scr.frame()
		return fw == w && fh == h
	})
}

func (u *ui) text() string {
	t, _, _, _ := u.scr.frame()
	return t
}

// waitFunc polls until ok holds for the last frame.
func (u *ui) waitFunc(what string, timeout time.Duration, ok func(string) bool) string {
	u.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		txt := u.text()
		if ok(txt) {
			return txt
		}
		if time.Now().After(deadline) {
			u.t.Fatalf("waited %v for %s\nscreen:\n%s", timeout, what, txt)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitFor polls until every one of texts is on screen.
func (u *ui) waitFor(texts ...string) string {
	u.t.Helper()
	return u.waitFunc(fmt.Sprintf("%q", texts), 20*time.Second, func(s string) bool {
		for _, t := range texts {
			if !strings.Contains(s, t) {
				return false
			}
		}
		return true
	})
}

// waitRe polls until re matches the screen and returns the submatches.
func (u *ui) waitRe(re *regexp.Regexp) []string {
	u.t.Helper()
	var m []string
	u.waitFunc(re.String(), 20*time.Second, func(s string) bool {
		m = re.FindStringSubmatch(s)
		return m != nil
	})
	return m
}

// keys types: a string rune by rune, a tcell.Key as a key press.
func (u *ui) keys(ks ...any) {
	for _, k := range ks {
		switch k := k.(type) {
		case string:
			for _, r := range k {
				u.scr.InjectKey(tcell.KeyRune, r, tcell.ModNone)
			}
		case tcell.Key:
			u.scr.InjectKey(k, 0, tcell.ModNone)
		default:
			u.t.Fatalf("keys: %T", k)
		}
	}
}

// find returns the screen position of text.
func (u *ui) find(text string) (int, int, bool) {
	for y, l := range strings.Split(u.text(), "\n") {
		if i := strings.Index(l, text); i >= 0 {
			return len([]rune(l[:i])), y, true
		}
	}
	return 0, 0, false
}

// click clicks the left button at x, y.
func (u *ui) click(x, y int) {
	u.scr.InjectMouse(x, y, tcell.Button1, tcell.ModNone)
	u.scr.InjectMouse(x, y, tcell.ButtonNone, tcell.ModNone)
}

// promptLine returns the match screen's prompt line (above the key bar).
func (u *ui) promptLine(txt string) string {
	lines := strings.Split(strings.TrimRight(txt, "\n"), "\n")
	if len(lines) < 2 {
		return ""
	}
	return lines[len(lines)-2]
}

// keyBar returns the key-hint bar (the last line).
func (u *ui) keyBar(txt string) string {
	lines := strings.Split(strings.TrimRight(txt, "\n"), "\n")
	return lines[len(lines)-1]
}

// transcripts lists the match transcripts the interface wrote.
func (u *ui) transcripts() []string {
	m, _ := filepath.Glob(filepath.Join(u.dir, tui.MatchesDir, "*.jsonl"))
	return m
}

// ended reports whether the screen shows the end of a match.
func ended(s string) bool {
	for _, w := range []string{"you won", "you lost", "draw:", "CHEATING DETECTED", "the match stopped", "the match failed", "you left"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
