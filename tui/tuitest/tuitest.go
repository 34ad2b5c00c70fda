package tuitest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/tui"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/style"
)

// Loopback is the listen address a test's interface gets: loopback only,
// any free port.
const Loopback = "/ip4/127.0.0.1/tcp/0"

// Options tune [Start] for what differs between tests. The zero value
// leaves the game to the interface and waits as boardtest does.
type Options struct {
	// Game is the game a Config that names none gets; "" leaves it to the
	// interface.
	Game string
	// Options are boardtest.Start's: how long waits wait and how long the
	// interface may take to stop.
	boardtest.Options
}

// UI is the whole interface running on a boardtest screen: keys in,
// frames out, every wait polling with a timeout and showing the screen on
// failure.
type UI struct {
	*boardtest.UI
	// Dir is the interface's data folder.
	Dir string
	// W and H are the size the interface was started at.
	W, H int
}

// Config returns cfg with the defaults of a test: offline (no main host),
// its data in a temporary folder of t unless cfg names one, listening on
// [Loopback] and seeded randomness unless cfg has its own, the colour
// theme unless cfg has one, and game unless cfg names a game. The screen
// is left to the caller.
func Config(t testing.TB, cfg tui.Config, game string) tui.Config {
	cfg.Offline = true
	if cfg.DataDir == "" {
		cfg.DataDir = t.TempDir()
	}
	if cfg.ListenAddrs == nil {
		cfg.ListenAddrs = []string{Loopback}
	}
	if cfg.Rand == nil {
		cfg.Rand = rand.New(rand.NewPCG(1, 2))
	}
	if cfg.Theme == nil {
		cfg.Theme = style.New(false)
	}
	if cfg.Game == "" {
		cfg.Game = game
	}
	return cfg
}

// Start runs the interface with cfg, filled by [Config], on a fresh w×h
// boardtest screen until the test ends (or [boardtest.UI.Stop]), once it
// has drawn at that size.
func Start(t testing.TB, cfg tui.Config, w, h int, o Options) *UI {
	t.Helper()
	cfg = Config(t, cfg, o.Game)
	scr := boardtest.NewScreen()
	cfg.Screen = scr
	app, err := tui.New(cfg)
	if err != nil {
		t.Fatal(err)
		return nil
	}
	return &UI{UI: boardtest.Start(t, app, scr, w, h, o.Options), Dir: cfg.DataDir, W: w, H: h}
}

// HostAndJoin starts two interfaces on w×h screens as [Start] does: the
// host with host, opened on hosting, waits until it shows its invite code
// and every text of hostShows; then the guest with guest, opened on
// joining with the host's invite code. The two are not yet known to have
// met: the test waits for what each should show.
func HostAndJoin(t testing.TB, host, guest tui.Config, w, h int, o Options, hostShows ...string) (hu, gu *UI) {
	t.Helper()
	host.Start = tui.StartHost
	hu = Start(t, host, w, h, o)
	hu.WaitFor(append([]string{"invite code"}, hostShows...)...)
	code := hu.WaitFile(filepath.Join(hu.Dir, tui.InviteFile), 10*time.Second)
	guest.Start, guest.Code = tui.StartJoin, code
	return hu, Start(t, guest, w, h, o)
}

// Asks reports whether the match screen s asks for a decision (its key
// bar offers enter) or shows the end of the match.
func Asks(s string) bool {
	return boardtest.Ended(s) || strings.Contains(boardtest.KeyBar(s), "enter ")
}

// Prompt returns the match screen's prompt line (above the key bar),
// trimmed of spaces.
func Prompt(l []string) string {
	return strings.TrimSpace(boardtest.PromptLine(boardtest.Join(l)))
}

// reSeq finds the title bar's message number.
var reSeq = regexp.MustCompile(`seq (\d+)`)

// Seq returns the message number the title bar (the first line of screen
// text s) shows, or "".
func Seq(s string) string {
	title, _, _ := strings.Cut(s, "\n")
	if m := reSeq.FindStringSubmatch(title); m != nil {
		return m[1]
	}
	return ""
}

// TookAnswer waits up to wait for the board to take a decision made on
// screen text before: the match ends, the title bar's message number moves
// on, or the prompt line changes. It reports false if none of these
// happened (a key the board refused, or a play that looks like the one
// before); it never fails the test.
func (u *UI) TookAnswer(before string, wait time.Duration) bool {
	seq, prompt := Seq(before), strings.TrimSpace(boardtest.PromptLine(before))
	return u.Settle(wait, func(l []string) bool {
		now := boardtest.Join(l)
		return boardtest.Ended(now) || Seq(now) != seq || strings.TrimSpace(boardtest.PromptLine(now)) != prompt
	})
}

// PlayOut calls decide (which answers one decision, or reports the end
// screen and true) until the match ends, and returns the end screen. It
// fails the test after limit decisions, showing recent (say, the last
// prompts answered) and the screen.
func (u *UI) PlayOut(limit int, decide func() (string, bool), recent func() []string) string {
	u.T.Helper()
	for range limit {
		if txt, done := decide(); done {
			return txt
		}
	}
	u.T.Fatalf("the match did not end in %d decisions; the last prompts:\n%s\n%s", limit, strings.Join(recent(), "\n"), u.Text())
	return ""
}

// TakeTurns has the interfaces uis play one match until they have made n
// decisions between them, within the time given: whenever interface i
// asks for one ([Asks]), decide(i) answers it and reports whether the
// match had ended instead, which fails the test.
func TakeTurns(t testing.TB, n int, within time.Duration, uis []*UI, decide func(i int) (ended bool)) {
	t.Helper()
	terms := make([]*boardtest.Term, len(uis))
	for i, u := range uis {
		terms[i] = u.Term
	}
	made := 0
	boardtest.Alternate(t, fmt.Sprintf("%d decisions", n), within, terms, func() bool { return made >= n }, func(i int) bool {
		if !Asks(uis[i].Text()) {
			return false
		}
		if decide(i) {
			t.Fatalf("the match ended early\n%s", uis[i].Text())
		}
		made++
		return true
	})
}

// Forfeit has leaver leave its match (q, confirmed with y once asked
// "Leave the match?"), and waits until winner shows it won, with every
// text of winnerShows.
func Forfeit(leaver, winner *UI, winnerShows ...string) {
	leaver.T.Helper()
	leaver.Keys("q")
	leaver.WaitFor("Leave the match?")
	leaver.Keys("y")
	winner.WaitFor(append([]string{"you won"}, winnerShows...)...)
}

// Transcript returns the path of the one match transcript the interface
// wrote; it fails the test unless there is exactly one.
func (u *UI) Transcript() string {
	u.T.Helper()
	m, _ := filepath.Glob(filepath.Join(u.Dir, tui.MatchesDir, "*.jsonl"))
	if len(m) != 1 {
		u.T.Fatalf("%d transcripts in %s: %q", len(m), u.Dir, m)
		return ""
	}
	return m[0]
}

// Audit audits the transcript at path with every game's rules, failing
// the test if it cannot be read.
func Audit(t testing.TB, path string) *fairness.Report {
	t.Helper()
	rep, err := fairness.AuditFile(path, games.Spec)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// AuditCheat audits the one match transcript the interface wrote (see
// [UI.Transcript]) and fails the test unless the audit finds the rules
// broken by seat; it returns the report.
func (u *UI) AuditCheat(seat engine.Seat) *fairness.Report {
	u.T.Helper()
	rep := Audit(u.T, u.Transcript())
	if rep.Verdict != fairness.Violated || rep.Violation.Seat != seat {
		u.T.Fatalf("audit of the cheated match (seat %d cheated): %s", seat, rep.Summary())
	}
	return rep
}

// Capture keeps the screen l for the record when the environment variable
// env names a folder (for example AIR_CAPTURE=dir go test -run Practice):
// it writes it to the file WxH-name.txt there, unless that file exists.
func (u *UI) Capture(env, name string, l []string) {
	dir := os.Getenv(env)
	if dir == "" {
		return
	}
	p := filepath.Join(dir, fmt.Sprintf("%dx%d-%s.txt", u.W, u.H, name))
	if _, err := os.Stat(p); err == nil {
		return
	}
	_ = os.WriteFile(p, []byte(strings.Join(l, "\n")+"\n"), 0o644)
}

// FeedTitle heads the match screen's event feed.
const FeedTitle = "Events (v: all)"

// Feed returns the text of the match screen's event feed in the screen l,
// its wrapped lines joined into one line, or "" when no feed is shown. The
// feed is the column from its title down to the verification pane's.
func Feed(l []string) string {
	col := -1
	var parts []string
	for _, line := range l {
		r := []rune(line)
		if col < 0 {
			if i := strings.Index(line, FeedTitle); i >= 0 {
				col = len([]rune(line[:i]))
			}
			continue
		}
		if col >= len(r) {
			break
		}
		cell := strings.TrimSpace(string(r[col:]))
		if strings.HasPrefix(cell, "Verification") {
			break
		}
		parts = append(parts, cell)
	}
	return strings.Join(parts, " ")
}

// FeedShows waits until the match screen's event feed shows every text of
// want, and returns the feed. Feed lines are wrapped at spaces, so a text
// may span lines.
func (u *UI) FeedShows(want ...string) string {
	u.T.Helper()
	var feed string
	u.WaitLines("the event feed to show "+strings.Join(want, ", "), 60*time.Second, func(l []string) bool {
		feed = Feed(l)
		for _, w := range want {
			if !strings.Contains(feed, w) {
				return false
			}
		}
		return true
	})
	return feed
}

// FeedWindow opens the whole event feed (v) on the match screen, returns
// the window's screen text and closes it again.
func (u *UI) FeedWindow() string {
	u.T.Helper()
	u.Keys("v")
	txt := u.WaitFor("─ Events ", "esc close")
	u.Keys(tcell.KeyEscape)
	u.WaitLines("the event window to close", 20*time.Second, func(l []string) bool { return Feed(l) != "" })
	return txt
}

// FeedCheck is what [UI.FeedUntil] looks for in the event feed.
type FeedCheck struct {
	// Step answers one decision of ours (waiting for it) and reports
	// true once the match has ended instead.
	Step func() bool
	// Limit is how many decisions Step may make.
	Limit int
	// Want are what the feed must show, each somewhere in the whole feed
	// (the v window, read at every decision, its frame and wrapping left
	// out, so a pattern has single spaces).
	Want []*regexp.Regexp
	// Never must not show in the feed beside the board, besides the
	// referee's words (which the verification pane tells).
	Never []*regexp.Regexp
}

// refereeWords are the verification pane's: the feed never shows them.
var refereeWords = regexp.MustCompile(`\bseat \d|\broot [0-9a-f]|preimage|✓|proof`)

// FeedUntil plays with c.Step until the event feed has shown every
// pattern of c.Want, and fails the test if the match ends or c.Limit
// decisions pass first, or if the feed beside the board ever shows the
// referee's words or a pattern of c.Never.
func (u *UI) FeedUntil(c FeedCheck) {
	u.T.Helper()
	seen := ""
	u.WaitFor(FeedTitle) // the match screen is up
	for i := 0; ; i++ {
		feed := Feed(u.Lines())
		for _, bad := range append([]*regexp.Regexp{refereeWords}, c.Never...) {
			if bad.MatchString(feed) {
				u.T.Fatalf("the feed shows %q: %s", bad.FindString(feed), feed)
			}
		}
		seen += " " + strings.Join(strings.Fields(strings.ReplaceAll(u.FeedWindow(), "│", " ")), " ")
		all := true
		for _, w := range c.Want {
			all = all && w.MatchString(seen)
		}
		if all {
			return
		}
		if i >= c.Limit || c.Step() {
			u.T.Fatalf("the feed never showed all of %v; it showed:\n%s\n%s", c.Want, seen, u.Dump())
		}
	}
}

// FeedAtSizes plays a practice match of cfg at 80x24 and at 120x40 (in
// parallel subtests) until the event feed has shown every pattern of c
// (FeedUntil); step makes, from a run's UI, the Step that answers one of
// our decisions there (c.Step is not used).
func FeedAtSizes(t *testing.T, cfg tui.Config, o Options, step func(*UI) func() bool, c FeedCheck) {
	t.Helper()
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			u := Start(t, cfg, size[0], size[1], o)
			run := c
			run.Step = step(u)
			u.FeedUntil(run)
		})
	}
}
