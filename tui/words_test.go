package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/ubuild"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// The loser's end line says who did what: the engine's reason is the
// winner's deed, and "you lost: sank the whole fleet" read as the loser's.
func TestLoserReadsWhoSankItsFleet(t *testing.T) {
	t.Parallel()
	hs := start(t, Config{Offline: true, Bot: "random"}, 100, 30)
	hs.Keys("p")
	hs.WaitFor("Place the Battleship")
	var opp string
	hs.onUI(func() {
		ms := hs.app.top().(*matchScreen)
		opp = ms.opponent
		ms.finish(&fairness.Result{Outcome: engine.Outcome{Done: true, Winners: []engine.Seat{1 - ms.seat}, Reason: ubuild.WinReason}}, nil)
	})
	hs.WaitFor("you lost: " + opp + " sank your whole fleet")
	// The transcript's path gives way to its file name, then to "…"
	// (a opens it), rather than losing its last letters.
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		hs.resize(size[0], size[1])
		txt := hs.WaitFor("you lost")
		lines := strings.Split(strings.TrimRight(txt, "\n"), "\n")
		if bad := cutLines(lines, size[0]); len(bad) > 0 || size[0] == 120 && !strings.Contains(txt, ".jsonl") {
			t.Fatalf("the end line is cut: %q\n%s", bad, txt)
		}
	}
}

func TestLostBecause(t *testing.T) {
	name := board.Snapshot{Names: []string{"ann", "bob"}}.Name
	for _, c := range []struct {
		players int
		winners []engine.Seat
		reason  engine.Words
		want    string
	}{
		{2, []engine.Seat{1}, engine.Plain("sank the whole fleet"), "bob sank your whole fleet"},
		{2, []engine.Seat{1}, engine.Plain("sank the whole enemy fleet"), "bob sank your whole fleet"},
		{2, []engine.Seat{0}, engine.Plain("shot down both opposing planes"), "ann shot down both your planes"},
		{4, []engine.Seat{0, 1}, engine.Plain("last squadron flying"), "ann and bob: last squadron flying"},
		{2, []engine.Seat{0}, engine.Plain("controls more oceans (5-3) when the deck ran out"), "ann controls more oceans (5-3) when the deck ran out"},
		{2, []engine.Seat{1}, engine.Wordsf("%s's deck ran out with oceans tied 3-3", engine.Seat(0)), "ann's deck ran out with oceans tied 3-3"},
		{2, []engine.Seat{1}, engine.Plain("both fleets were destroyed: the undamaged carrier wins"), "both fleets were destroyed: the undamaged carrier wins"},
	} {
		if got := lostBecause(c.players, c.winners, c.reason, name); got != c.want {
			t.Errorf("lostBecause(%q) = %q, want %q", c.reason, got, c.want)
		}
	}
}

// Sea's waiting line names the player it waits for and says what that
// player does, not the prompt addressed to it ("commit your …"). The guest
// commits its own strengths at once (asked early), then waits.
func TestSeaWaitingLineSaysWhoDoesWhat(t *testing.T) {
	t.Parallel()
	host := start(t, Config{Offline: true, Name: "ann", Game: "sea", Start: StartHost, Timeout: 20 * time.Second}, 100, 30)
	host.WaitFor("invite code", "waiting for a player to join")
	var code string
	host.onUI(func() { code = host.app.top().(*hostScreen).code })
	guest := start(t, Config{Offline: true, Name: "bob", Start: StartJoin, Code: code, Timeout: 20 * time.Second}, 100, 30)
	guest.WaitFor("vs ann", "Commit your squadron's strengths")
	guest.Keys(tcell.KeyEnter)
	guest.WaitFor("waiting for ann to commit their fighters' strengths")
	// The prompt's panel settles a moment after the waiting line (one UI
	// event later under load): the screen must settle with no prompt left.
	guest.WaitGone("commit your")
}

func TestWaitingText(t *testing.T) {
	for _, c := range [][4]string{
		{"bob", "commit your fighters' strengths", "commit", "waiting for bob to commit their fighters' strengths"},
		{"bob", "launch your Sidewinder?", "move", "waiting for bob to launch their Sidewinder"},
		{"bob", "bob commits its grid", "commit", "waiting for bob: bob commits its grid"},
		{"bob", "", "roll", "waiting for bob: roll"},
	} {
		if got := waitingText(c[0], c[1], c[2]); got != c[3] {
			t.Errorf("waitingText(%q) = %q, want %q", c[1], got, c[3])
		}
	}
}

// The lobby's letter shortcuts work whichever pane has the focus (the
// issue saw them do nothing on Recent matches and Peers), the focus moved
// there as a player moves it: by tab, or by a click in the pane (an empty
// one too). Recent matches has a row, so that a list with rows holds the
// focus.
func TestLobbyLettersWorkInEveryPane(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, MatchesDir), 0o700); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(botMatch(t, "", 11))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, MatchesDir, "old.jsonl"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	letters := []struct{ key, want string }{{"h", "Salvo · Host "}, {"j", "Paste or type the invite code"}, {"g", "g game: Card Game"},
		{"H", "How to play"}, {"s", "Settings"}, {"a", ""}}
	for _, byMouse := range []bool{false, true} {
		for pane := range numPanes {
			for _, c := range letters {
				hs := start(t, Config{Offline: true, DataDir: dir}, 120, 40)
				hs.WaitFor("Practice against a bot", style.OK+" clean")
				if byMouse {
					var r paneRows
					hs.onUI(func() { r = hs.app.lobby.rows[pane] })
					hs.Click(r.x+r.w/2, r.y+r.h-1) // below the rows: empty
				} else {
					for range pane {
						hs.Keys(tcell.KeyTab)
					}
				}
				hs.WaitFunc(fmt.Sprintf("the focus on pane %d", pane), 5*time.Second, func(string) bool {
					var got int
					hs.onUI(func() { got = hs.app.lobby.pane })
					return got == pane
				})
				want := c.want
				if c.key == "a" {
					// a picks from Recent matches; there, it asks for a path.
					want = map[bool]string{true: "file: ", false: "pick a match in Recent matches"}[pane == paneRecords]
				}
				hs.Keys(c.key)
				hs.WaitFor(want)
				hs.stop()
			}
		}
	}
}

// The lobby's audit offers the recent matches to pick from before a bare
// path field.
func TestAuditPicksFromRecentMatches(t *testing.T) {
	t.Parallel()
	path := botMatch(t, "", 11)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, MatchesDir), 0o700); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, MatchesDir, "picked.jsonl"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	hs := start(t, Config{Offline: true, DataDir: dir}, 80, 24)
	hs.WaitFor("Practice against a bot", style.OK+" clean")
	hs.Keys("a")
	hs.WaitFor("pick a match in Recent matches")
	hs.Keys(tcell.KeyEnter)
	hs.WaitFor("Audit · picked.jsonl", style.OK+" clean")
	hs.Keys("q")
	hs.WaitFor("Practice against a bot")
	hs.Keys("a", "a")
	hs.WaitFor("Audit a match record", "file: ")
}

// cutLines reports the lines among the title (row 0), the prompt or status
// (row h-2) and the key bar (row h-1) that end in a cut word: text that
// runs into the last column without the "…" that marks a deliberate cut.
// In the title, the left part must end with a gap of two cells before the
// right part ("seq …", "you: …") or with "…".
func cutLines(lines []string, w int) []string {
	var bad []string
	if len(lines) < 3 {
		return nil
	}
	rows := []int{0, len(lines) - 2, len(lines) - 1}
	for _, y := range rows {
		l := []rune(lines[y])
		text := strings.TrimRight(string(l), " ")
		if y == 0 {
			for _, right := range []string{"seq ", "you: "} {
				if i := strings.LastIndex(text, right); i > 0 {
					left := strings.TrimRight(text[:i], " ")
					if !strings.HasSuffix(left, "…") && len([]rune(text[:i]))-len([]rune(left)) < 2 {
						bad = append(bad, text)
					}
					text = ""
					break
				}
			}
		}
		if n := len([]rune(text)); n >= w-1 && !strings.HasSuffix(text, "…") {
			bad = append(bad, text)
		}
		// A "…" glued to a word is a word cut short (style.Truncate), but
		// for the few that mark work in progress ("sending…"); a cut that
		// drops whole pieces leaves " …".
		for _, m := range gluedEllipsis.FindAllStringSubmatch(string(l), -1) {
			if !progressWord.MatchString(m[1]) {
				bad = append(bad, text)
				break
			}
		}
	}
	return bad
}

var (
	gluedEllipsis = regexp.MustCompile(`([\p{L}\p{N}]+)…(?:\s|$)`)
	progressWord  = regexp.MustCompile(`^(\p{L}+ing|network|matches)$`)
)

// checkWhole renders hs at 80x24 and 120x40 and fails the test on a cut
// word or number in the title, the prompt or status line and the key bar
// (cutLines), and on a key in force that left the bar without the
// "more: ?" marker.
func checkWhole(t *testing.T, hs *harness, what string) {
	t.Helper()
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		hs.resize(size[0], size[1])
		// The screen and the keys in force, read together.
		var lines []string
		var bs []keys.Binding
		hs.onUI(func() {
			hs.app.tv.ForceDraw()
			cells, w, h := hs.scr.GetContents()
			lines = boardtest.Lines(cells, w, h)
			bs = hs.app.bindings()
		})
		bar := lines[len(lines)-1]
		// A bar that fills the row to its last column is whole when it
		// ends with a whole entry.
		bad := slices.DeleteFunc(cutLines(lines, size[0]), func(l string) bool {
			return l == strings.TrimRight(bar, " ") && slices.ContainsFunc(bs, func(b keys.Binding) bool {
				return strings.HasSuffix(l, "  "+b.Label+" "+b.Hint)
			})
		})
		if len(bad) > 0 {
			t.Errorf("%s at %dx%d cuts %q\n%s", what, size[0], size[1], bad, boardtest.Join(lines))
		}
		// A key left off the bar leaves the "more: ?" marker.
		for _, b := range bs {
			if !b.Hidden && b.Label != "" && !strings.Contains(bar, b.Label+" "+b.Hint) && !strings.Contains(bar, keys.MoreMarker) {
				t.Errorf("%s at %dx%d drops %q from the key bar without a trace\n%s", what, size[0], size[1], b.Label+" "+b.Hint, boardtest.Join(lines))
			}
		}
	}
}

// Every screen reads whole at 80x24 and 120x40 (the lobby, help, host,
// join, each game's set-up, U-Build in play and at its end, the audit;
// the how-to pages and settings have their own tests): no cut word in the
// title, prompt or status line, or key bar.
func TestScreensNeverCutAWord(t *testing.T) {
	t.Parallel()
	check := func(hs *harness, what string) {
		t.Helper()
		checkWhole(t, hs, what)
	}
	lobby := start(t, Config{Offline: true}, 80, 24)
	lobby.WaitFor("Practice against a bot")
	lobby.Keys("g")
	lobby.WaitFor("Card Game (coordinate cards)")
	check(lobby, "the lobby")
	lobby.Keys("?")
	lobby.WaitFor("Keys")
	check(lobby, "the help")
	for _, game := range []string{"ubuild", "cards", "oceans", "sea", "air"} {
		hs := start(t, Config{Offline: true, Game: game, Bot: "random", Start: StartPractice}, 80, 24)
		hs.WaitFor("vs bot")
		check(hs, game+" practice")
		hs.stop()
	}
	host := start(t, Config{Offline: true, Name: "ann", Start: StartHost}, 80, 24)
	host.WaitFor("invite code", "waiting for a player to join")
	check(host, "the host screen")
	join := start(t, Config{Offline: true, Name: "bob", Start: StartJoin}, 80, 24)
	join.WaitFor("Join")
	check(join, "the join screen")
	play := firstTurn(t, Config{Offline: true, Bot: "random"}, 80, 24)
	check(play, "U-Build in play")
	sh := &shooter{hs: play}
	sh.playOut()
	check(play, "U-Build's end")
	path := botMatch(t, "", 11)
	au := start(t, Config{Offline: true, Start: StartAudit, File: path}, 80, 24)
	au.WaitFor(style.OK + " clean")
	check(au, "the audit viewer")
}

// At 80x24 the U-Build fleet tables keep their hits column whole (it read
// "0/" and "✖ su" when the enemy's table was narrower than its columns).
func TestUBuildFleetTablesAreWholeAt80x24(t *testing.T) {
	t.Parallel()
	hs := firstTurn(t, Config{Offline: true, Bot: "random"}, 80, 24)
	txt := hs.WaitFor("Enemy fleet")
	lines := strings.Split(txt, "\n")
	whole := regexp.MustCompile(`(\d/\d|✖ sunk|hits)$`)
	for i, l := range lines {
		if !strings.Contains(l, "Enemy fleet") {
			continue
		}
		for _, row := range lines[i : i+6] {
			left, _, _ := strings.Cut(row, "│")
			if !whole.MatchString(strings.TrimRight(left, " ")) {
				t.Fatalf("a fleet row is cut: %q\n%s", left, txt)
			}
		}
		return
	}
	t.Fatalf("no enemy fleet\n%s", txt)
}

// Issue 14 requirement 4: a free-for-all player whose silence made the
// others take it off the table is told so, and the last player standing
// reads why it won.
func TestRemovedAndLastStandingEndLines(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		res  func(seat engine.Seat) *fairness.Result
		want string
	}{
		{func(engine.Seat) *fairness.Result { return &fairness.Result{Removed: true} }, "you were taken off the table after your silence"},
		{func(s engine.Seat) *fairness.Result {
			return &fairness.Result{Outcome: engine.Outcome{Done: true, Winners: []engine.Seat{s}, Reason: "last player standing"}}
		}, "you won: last player standing"},
	} {
		hs := start(t, Config{Offline: true, Bot: "random"}, 120, 30)
		hs.Keys("p")
		hs.WaitFor("Place the Battleship")
		hs.onUI(func() {
			ms := hs.app.top().(*matchScreen)
			ms.finish(c.res(ms.seat), nil)
		})
		hs.WaitFor(c.want)
	}
}

// The audit viewer names every input of a Cards or Oceans record by what
// it answered, the shares of a run of rolls too: its shadow match ends
// each message (Match.Staged), so it knows the later rolls' order and
// never loses step, falling back to the wire kinds ("share").
func TestAuditViewerNamesEveryInputOfARunOfRolls(t *testing.T) {
	t.Parallel()
	for _, game := range []string{"cards", "oceans"} {
		r, err := replayFile(botMatchOf(t, game, "", 3))
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range r.steps {
			if slices.Contains(st.inputs, string(fairness.InShare)) {
				t.Fatalf("%s: message %d's inputs read %v: the replay's shadow lost step", game, st.seq, st.inputs)
			}
		}
	}
}

// The audit viewer names a removal a departure, not by the step the match
// waited for when it came (a card's "reveal", say).
func TestNeedWordOfADeparture(t *testing.T) {
	st := fairness.Step{Kind: fairness.InOpen, Need: engine.Need{Kind: engine.NeedOpen}}
	if got := needWord(st, fairness.InRemove); got != "departure" {
		t.Fatalf("needWord of a removal: %q", got)
	}
}

// The line of a match stopped by a closing record names the seats of our
// own violation's error by their players, and shows a peer's detail as it
// was signed: its "seat 1" is a peer's word, not a seat.
func TestStopWordsNameOnlyTheirSeats(t *testing.T) {
	s := board.Snapshot{Names: []string{"seat 1", "bob"}}
	err := engine.Errorf("out of turn: the match waits for %s's move", engine.Seat(1))
	own := &fairness.Result{Violation: &fairness.Violation{Seat: 0, Err: err}, Closing: &fairness.Closing{Detail: err.Error()}}
	if got, want := s.Say(stopWords(own)), "out of turn: the match waits for bob's move"; got != want {
		t.Errorf("own violation: %q, want %q", got, want)
	}
	peer := &fairness.Result{Closing: &fairness.Closing{Detail: "seat 1 quit"}}
	if got := s.Say(stopWords(peer)); got != "seat 1 quit" {
		t.Errorf("a peer's detail: %q", got)
	}
}
