package seaview_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/tui"
	"github.com/salvo-game/salvo/tui/style"
)

// screen is a simulation screen that keeps a copy of what every draw
// showed, taken on the drawing goroutine, so tests read it without racing
// the next draw.
type screen struct {
	tcell.SimulationScreen
	mu    sync.Mutex
	lines []string
	draws int
}

func (s *screen) Show() { s.SimulationScreen.Show(); s.grab() }
func (s *screen) Sync() { s.SimulationScreen.Sync(); s.grab() }

func (s *screen) grab() {
	cells, w, h := s.GetContents()
	lines := make([]string, h)
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
		lines[y] = b.String()
	}
	s.mu.Lock()
	s.lines, s.draws = lines, s.draws+1
	s.mu.Unlock()
}

// harness runs the whole interface on a simulation screen: keys in,
// screen text out; every wait polls with a timeout and dumps the screen
// when it fails.
type harness struct {
	t    testing.TB
	scr  *screen
	app  *tui.App
	done chan error
	dir  string
	w, h int
}

// start runs the interface with cfg on a w×h screen, offline, on
// loopback, with a temporary data folder and seeded randomness.
func start(t testing.TB, cfg tui.Config, w, h int) *harness {
	t.Helper()
	sim := tcell.NewSimulationScreen("UTF-8")
	scr := &screen{SimulationScreen: sim}
	cfg.Screen = scr
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
	if cfg.Game == "" {
		cfg.Game = "sea"
	}
	app, err := tui.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := &harness{t: t, scr: scr, app: app, done: make(chan error, 1), dir: cfg.DataDir, w: w, h: h}
	go func() { hs.done <- app.Run() }()
	t.Cleanup(func() {
		app.Stop()
		select {
		case <-hs.done:
		case <-time.After(20 * time.Second):
			t.Errorf("the interface did not stop within 20 s")
		}
	})
	hs.waitFunc("the first draw", 10*time.Second, func([]string) bool { return true })
	sim.SetSize(w, h)
	_ = sim.PostEvent(tcell.NewEventResize(w, h))
	hs.waitFunc(fmt.Sprintf("a %dx%d draw", w, h), 10*time.Second, func(l []string) bool {
		return len(l) == h && len([]rune(l[0])) == w
	})
	return hs
}

// lines returns the last screen drawn.
func (hs *harness) lines() []string {
	hs.scr.mu.Lock()
	defer hs.scr.mu.Unlock()
	return hs.scr.lines
}

func (hs *harness) text() string { return strings.Join(hs.lines(), "\n") }

func (hs *harness) dump() string { return "screen:\n" + hs.text() }

// waitFunc polls until ok holds for the screen.
func (hs *harness) waitFunc(what string, timeout time.Duration, ok func([]string) bool) []string {
	hs.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if l := hs.lines(); l != nil && ok(l) {
			return l
		}
		if time.Now().After(deadline) {
			hs.t.Fatalf("waited %v for %s\n%s", timeout, what, hs.dump())
		}
		time.Sleep(3 * time.Millisecond)
	}
}

// waitFor polls until every text is on screen.
func (hs *harness) waitFor(texts ...string) string {
	hs.t.Helper()
	l := hs.waitFunc(fmt.Sprintf("%q", texts), 20*time.Second, func(l []string) bool {
		s := strings.Join(l, "\n")
		for _, t := range texts {
			if !strings.Contains(s, t) {
				return false
			}
		}
		return true
	})
	return strings.Join(l, "\n")
}

// keys types: a string rune by rune, a tcell.Key as such.
func (hs *harness) keys(ks ...any) {
	for _, k := range ks {
		switch k := k.(type) {
		case string:
			for _, r := range k {
				hs.scr.InjectKey(tcell.KeyRune, r, tcell.ModNone)
			}
		case tcell.Key:
			hs.scr.InjectKey(k, 0, tcell.ModNone)
		default:
			hs.t.Fatalf("keys: %T", k)
		}
	}
}

// click clicks the left button at x, y.
func (hs *harness) click(x, y int) {
	hs.scr.InjectMouse(x, y, tcell.Button1, tcell.ModNone)
	hs.scr.InjectMouse(x, y, tcell.ButtonNone, tcell.ModNone)
}

// prompt returns the match screen's prompt line (above the hint bar).
func (hs *harness) prompt(l []string) string {
	if len(l) < 2 {
		return ""
	}
	return strings.TrimSpace(l[len(l)-2])
}

// transcript returns the path of the match transcript in the data folder.
func (hs *harness) transcript() string {
	hs.t.Helper()
	m, _ := filepath.Glob(filepath.Join(hs.dir, tui.MatchesDir, "*.jsonl"))
	if len(m) != 1 {
		hs.t.Fatalf("%d transcripts in %s", len(m), hs.dir)
	}
	return m[0]
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

var (
	reDice   = regexp.MustCompile(`Scramble ((?:\d ?)+):`)
	reMoves  = regexp.MustCompile(`(\d+) moves \(`)
	reTarget = regexp.MustCompile(` away, \d\+`)
)

// player plays our side of a match through the keys alone, reading only
// the screen: it commits a shuffled squadron, places every piece at a
// random legal place, flies toward the enemy carrier, fires at whatever
// is in range, launches every Harpoon and steers it into ships.
type player struct {
	hs        *harness
	decisions int
	loads     int
	seen      map[string]int // decisions by kind
}

// act answers the decision the prompt asks for and reports its kind.
func (p *player) act(l []string) string {
	hs := p.hs
	pr := hs.prompt(l)
	all := strings.Join(l, "\n")
	switch {
	case strings.Contains(pr, "Strengths:"), strings.Contains(pr, "Commit your squadron"):
		hs.keys("x", tcell.KeyEnter)
		return "strengths"
	case strings.Contains(pr, "Place your"):
		hs.keys("x", tcell.KeyEnter)
		return "place"
	case strings.Contains(pr, "Harpoons moves first"):
		hs.keys(tcell.KeyEnter)
		return "harpoon pick"
	case strings.Contains(pr, "has nowhere to go"):
		hs.keys("d")
		return "path"
	case strings.Contains(pr, "rolled"):
		switch {
		case strings.Contains(pr, "ship spaces in reach"):
			hs.keys(tcell.KeyEnter)
		case strings.Contains(pr, "d lets it run out"):
			hs.keys("d")
		default:
			hs.keys(tcell.KeyTab, tcell.KeyEnter)
		}
		return "path"
	case strings.Contains(pr, "Step 2: return"):
		hs.keys(tcell.KeyEnter)
		return "return"
	case strings.Contains(pr, "Scramble"):
		n := 4
		if m := reDice.FindStringSubmatch(pr); m != nil {
			n = len(strings.Fields(m[1]))
		}
		for range n {
			hs.keys("n", tcell.KeyEnter)
		}
		hs.keys("f")
		return "scramble"
	case strings.Contains(pr, "Load fighter"):
		p.loads++
		if p.loads%3 == 0 {
			hs.keys("s")
		} else {
			hs.keys("h")
		}
		return "load"
	case strings.Contains(pr, "Step 3: destroyer"):
		switch m := reMoves.FindStringSubmatch(all); {
		case reTarget.MatchString(all):
			hs.keys(tcell.KeyEnter)
		case m != nil && m[1] != "0":
			hs.keys("m", tcell.KeyEnter)
		default:
			hs.keys("d")
		}
		return "destroyers"
	case strings.Contains(pr, "Defensive fire"):
		if reTarget.MatchString(all) {
			hs.keys(tcell.KeyEnter)
		} else {
			hs.keys("d")
		}
		return "defense"
	case strings.Contains(pr, "Carrier hit"):
		hs.keys("x", tcell.KeyEnter)
		return "damage"
	case strings.Contains(pr, "Dogfight: you defend"), strings.Contains(pr, "choose your fighter to attack"):
		hs.keys(tcell.KeyEnter)
		return "dogfighter"
	case strings.Contains(pr, "not a Sidewinder"):
		hs.keys(tcell.KeyEnter)
		return "sidewinder"
	case strings.Contains(pr, "Dogfight: your dice"):
		hs.keys("+")
		return "sidewinder"
	case strings.Contains(pr, "Step 6:"):
		if strings.Contains(pr, "can launch") {
			hs.keys(tcell.KeyEnter)
		} else {
			hs.keys("d")
		}
		return "launch"
	}
	return ""
}

// sync waits until every key sent so far has been handled: it opens the
// help (which the interface draws only after the keys before it) and
// closes it again.
func (p *player) sync() {
	hs := p.hs
	hs.keys("?")
	hs.waitFor("Keys in force")
	hs.keys(tcell.KeyEscape)
	hs.waitFunc("the help to close", 20*time.Second, func(l []string) bool { return !strings.Contains(strings.Join(l, "\n"), "Keys in force") })
}

// next waits for a decision of ours or the end of the match.
func (p *player) next() []string {
	hs := p.hs
	return hs.waitFunc("a decision or the end", 60*time.Second, func(l []string) bool {
		return ended(strings.Join(l, "\n")) || strings.Contains(l[0], "your turn") && hs.prompt(l) != ""
	})
}

// playOut plays until the match ends and returns the final screen.
func (p *player) playOut(max int) string {
	hs := p.hs
	p.seen = map[string]int{}
	for p.decisions < max {
		l := p.next()
		if ended(strings.Join(l, "\n")) {
			return strings.Join(l, "\n")
		}
		if dir := os.Getenv("SEA_CAPTURE"); dir != "" {
			// Keep the first screen of each kind of decision, for the
			// record (SEA_CAPTURE=folder go test -run Practice).
			k := strings.Fields(hs.prompt(l) + " x")[0]
			name := filepath.Join(dir, fmt.Sprintf("%dx%d-%s.txt", hs.w, hs.h, strings.Trim(k, ":")))
			if _, err := os.Stat(name); err != nil {
				_ = os.WriteFile(name, []byte(strings.Join(l, "\n")+"\n"), 0o644)
			}
		}
		kind := p.act(l)
		if kind == "" {
			hs.t.Fatalf("the player does not know this decision: %q\n%s", hs.prompt(l), hs.dump())
		}
		p.seen[kind]++
		p.decisions++
		p.sync()
	}
	hs.t.Fatalf("the match did not end in %d decisions\n%s", max, hs.dump())
	return ""
}

func audit(t *testing.T, path string) *fairness.Report {
	t.Helper()
	rep, err := fairness.AuditFile(path, games.Spec)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestPracticeMatchAgainstTheStrongBot(t *testing.T) {
	hs := start(t, tui.Config{Offline: true, Name: "ann", Bot: "strong", BotSeed: seed(), Start: tui.StartPractice}, 100, 30)
	p := &player{hs: hs}
	t0 := time.Now()
	end := p.playOut(3000)
	t.Logf("%d decisions in %v: %v\n%s", p.decisions, time.Since(t0), p.seen, end)
	if !strings.Contains(end, "you won") && !strings.Contains(end, "you lost") && !strings.Contains(end, "draw:") {
		t.Fatalf("the match did not end by the rules\n%s", end)
	}
	rep := audit(t, hs.transcript())
	if rep.Verdict != fairness.Clean {
		t.Fatalf("audit: %s", rep.Summary())
	}
}

func seed() uint64 {
	if s := os.Getenv("SEED"); s != "" {
		n, _ := strconv.Atoi(s)
		return uint64(n)
	}
	return 3
}
