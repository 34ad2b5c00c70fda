package seaview_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/tui"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/style"
	"github.com/salvo-game/salvo/tui/tuitest"
)

// opts are how this package's tests start the interface: on the Sea
// board unless they name a game, waiting up to 20 s for what a test
// expects and for the interface to stop.
var opts = tuitest.Options{Game: "sea", Options: boardtest.Options{Wait: 20 * time.Second, StopWithin: 20 * time.Second}}

// captureEnv names the folder screens are kept in for the record
// (SEA_CAPTURE=folder go test -run Practice).
const captureEnv = "SEA_CAPTURE"

var (
	reDice   = regexp.MustCompile(`Scramble ((?:\d ?)+):`)
	reMoves  = regexp.MustCompile(`(\d+) moves \(`)
	reTarget = regexp.MustCompile(` away · \d\+`)
)

// player plays our side of a match through the keys alone, reading only
// the screen: it commits a shuffled squadron, places every piece at a
// random legal place, flies toward the enemy carrier, fires at whatever
// is in range, launches every Harpoon and steers it into ships.
type player struct {
	hs        *tuitest.UI
	decisions int
	loads     int
	seen      map[string]int // decisions by kind
}

// act answers the decision the prompt asks for and reports its kind.
func (p *player) act(l []string) string {
	hs := p.hs
	pr := tuitest.Prompt(l)
	// Keep the first screen of each kind of decision, for the record.
	hs.Capture(captureEnv, strings.Trim(strings.Fields(pr + " x")[0], ":"), l)
	all := strings.Join(l, "\n")
	switch {
	case strings.Contains(pr, "Strengths:"), strings.Contains(pr, "Commit your squadron"):
		hs.Keys("x", tcell.KeyEnter)
		return "strengths"
	case strings.Contains(pr, "Place your"):
		hs.Keys("x", tcell.KeyEnter)
		return "place"
	case strings.Contains(pr, "Harpoons moves first"):
		hs.Keys(tcell.KeyEnter)
		return "harpoon pick"
	case strings.Contains(pr, "has nowhere to go"):
		hs.Keys("d")
		return "path"
	case strings.Contains(pr, "rolled"):
		switch {
		case strings.Contains(pr, "in reach ("):
			hs.Keys(tcell.KeyEnter)
		case strings.Contains(pr, "d lets it run out"):
			hs.Keys("d")
		default:
			hs.Keys(tcell.KeyTab, tcell.KeyEnter)
		}
		return "path"
	case strings.Contains(pr, "Step 2: return"):
		hs.Keys(tcell.KeyEnter)
		return "return"
	case strings.Contains(pr, "Scramble"):
		n := 4
		if m := reDice.FindStringSubmatch(pr); m != nil {
			n = len(strings.Fields(m[1]))
		}
		for range n {
			hs.Keys("n", tcell.KeyEnter)
		}
		hs.Keys("f")
		return "scramble"
	case strings.Contains(pr, "Load fighter"):
		p.loads++
		if p.loads%3 == 0 {
			hs.Keys("s")
		} else {
			hs.Keys("h")
		}
		return "load"
	case strings.Contains(pr, "Step 3: destroyer"):
		switch m := reMoves.FindStringSubmatch(all); {
		case reTarget.MatchString(all):
			hs.Keys(tcell.KeyEnter)
		case m != nil && m[1] != "0":
			hs.Keys("m", tcell.KeyEnter)
		default:
			hs.Keys("d")
		}
		return "destroyers"
	case strings.Contains(pr, "Defensive fire"):
		if reTarget.MatchString(all) {
			hs.Keys(tcell.KeyEnter)
		} else {
			hs.Keys("d")
		}
		return "defense"
	case strings.Contains(pr, "Carrier hit"):
		hs.Keys("x", tcell.KeyEnter)
		return "damage"
	case strings.Contains(pr, "Dogfight: you defend"), strings.Contains(pr, "choose your fighter to attack"):
		hs.Keys(tcell.KeyEnter)
		return "dogfighter"
	case strings.Contains(pr, "not a Sidewinder"):
		hs.Keys(tcell.KeyEnter)
		return "sidewinder"
	case strings.Contains(pr, "Dogfight: your dice"):
		hs.Keys("+")
		return "sidewinder"
	case strings.Contains(pr, "Step 6:"):
		if strings.Contains(pr, "can launch") {
			hs.Keys(tcell.KeyEnter)
		} else {
			hs.Keys("d")
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
	hs.Keys("?")
	hs.WaitFor("Keys in force")
	hs.Keys(tcell.KeyEscape)
	hs.WaitLines("the help to close", 20*time.Second, func(l []string) bool { return !strings.Contains(strings.Join(l, "\n"), "Keys in force") })
}

// next waits for a decision of ours or the end of the match.
func (p *player) next() []string {
	hs := p.hs
	return hs.WaitLines("a decision or the end", 60*time.Second, func(l []string) bool {
		return boardtest.Ended(strings.Join(l, "\n")) || strings.Contains(l[0], "your turn") && tuitest.Prompt(l) != ""
	})
}

// playOut plays until the match ends and returns the final screen.
func (p *player) playOut(max int) string {
	hs := p.hs
	p.seen = map[string]int{}
	for p.decisions < max {
		l := p.next()
		if boardtest.Ended(strings.Join(l, "\n")) {
			return strings.Join(l, "\n")
		}
		kind := p.act(l)
		if kind == "" {
			hs.T.Fatalf("the player does not know this decision: %q\n%s", tuitest.Prompt(l), hs.Dump())
		}
		p.seen[kind]++
		p.decisions++
		p.sync()
	}
	hs.T.Fatalf("the match did not end in %d decisions\n%s", max, hs.Dump())
	return ""
}

// TestPracticeMatchAgainstTheStrongBot plays a whole match against the
// strong bot over loopback libp2p through the keys alone, audits its
// transcript, and steps through it in the audit viewer.
func TestPracticeMatchAgainstTheStrongBot(t *testing.T) {
	t.Parallel()
	hs := tuitest.Start(t, tui.Config{Name: "ann", Bot: "strong", BotSeed: seed(), Start: tui.StartPractice}, 100, 30, opts)
	p := &player{hs: hs}
	t0 := time.Now()
	end := p.playOut(3000)
	t.Logf("%d decisions in %v: %v", p.decisions, time.Since(t0), p.seen)
	if !strings.Contains(end, "you won") && !strings.Contains(end, "you lost") && !strings.Contains(end, "draw:") {
		t.Fatalf("the match did not end by the rules\n%s", end)
	}
	for _, kind := range []string{"strengths", "place", "scramble", "load"} {
		if p.seen[kind] == 0 {
			t.Errorf("no %s decision was made", kind)
		}
	}
	hs.WaitFor("Match over:", "You ", "bot (strong) ")
	path := hs.Transcript()
	rep := tuitest.Audit(t, path)
	if rep.Verdict != fairness.Clean {
		t.Fatalf("audit: %s", rep.Summary())
	}
	won := strings.Contains(end, "you won")
	if got := len(rep.Outcome.Winners) == 1 && rep.Outcome.Winners[0] == 0; got != won {
		t.Fatalf("the screen says won=%v, the audit says %s", won, rep.Summary())
	}

	// The audit viewer draws the same board with both sides' secrets.
	hs.Keys("a")
	hs.WaitFor("Audit · "+filepath.Base(path), style.OK+" clean:", "Match over:", "ann ", "bot (strong) ")
	hs.Keys("g")
	hs.WaitFor("step 0 of", "ann commits their fighters' strengths")
	hs.Keys("n", "n", "n")
	hs.WaitFor("step 3 of", "Setup")
	hs.Keys("/", "flew to", tcell.KeyEnter)
	txt := hs.WaitFor("found at step", "Turn ", "step ")
	hs.Capture(captureEnv, "audit", strings.Split(txt, "\n"))
	// In the audit, seat 1's fighters show their strengths (circled)
	// wherever the match revealed them; nothing is hidden as "?" once the
	// final reveal is in.
	hs.Keys("G")
	txt = hs.WaitFor("Match over:")
	if bp := boardPart(txt); strings.Count(bp, "\n") != sea.Rows-1 || strings.Contains(bp, "?") {
		t.Errorf("the audit's last step still hides a fighter\n%s", txt)
	}
	hs.Keys("q")
	hs.WaitLines("the match screen again", 20*time.Second, func(l []string) bool { return boardtest.Ended(strings.Join(l, "\n")) })
}

// boardPart returns the board's 16 rows of a screen, spaces only (no row
// numbers, nothing beside the board).
func boardPart(screen string) string {
	lines := strings.Split(screen, "\n")
	for y, l := range lines {
		i := strings.Index(l, "A B C D E F G H I J K L")
		if i < 0 {
			continue
		}
		col := len([]rune(l[:i]))
		var out []string
		for _, row := range lines[y+1 : min(len(lines), y+1+sea.Rows)] {
			r := []rune(row)
			out = append(out, string(r[min(col, len(r)):min(col+2*sea.Cols, len(r))]))
		}
		return strings.Join(out, "\n")
	}
	return ""
}

// TestCheatsAreCaughtAndShown lets the bot cheat and checks the cheat
// panel names it, says what it claimed and what its own commitment
// proves, in words; the audit viewer then jumps to the violation.
func TestCheatsAreCaughtAndShown(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kind string
		want []string
	}{
		{"harpoon-was-sidewinder", []string{"Claimed", "launches its Harpoon", "Their proof", "is a Sidewinder", "not a Harpoon"}},
		{"illegal-path", []string{"Claimed", "scrambles fighter", "Broken rule", "with a die of"}},
	}
	for _, tc := range tests {
		t.Run(tc.kind, func(t *testing.T) {
			hs := tuitest.Start(t, tui.Config{Name: "ann", Bot: "strong", BotSeed: 5, BotCheat: tc.kind, Start: tui.StartPractice}, 100, 30, opts)
			end := (&player{hs: hs}).playOut(3000)
			if !strings.Contains(end, "CHEATING DETECTED") {
				t.Fatalf("no cheat panel\n%s", end)
			}
			hs.WaitFor(append([]string{"bot (strong) broke the rules", "Transcript", "CHEAT DETECTED"}, tc.want...)...)
			hs.AuditCheat(1)
			hs.Keys("a")
			hs.WaitFor("violation by seat 1 bot (strong)", "A B C D E F G H I J K L")
		})
	}
}

// TestEightyByTwentyFour plays the setup and a first turn at 80x24: every
// line is 80 cells, the whole board and the side pane are there; below
// 80x24 the interface says it is too small.
func TestEightyByTwentyFour(t *testing.T) {
	t.Parallel()
	hs := tuitest.Start(t, tui.Config{Name: "ann", Bot: "strong", BotSeed: 2, Start: tui.StartPractice}, 80, 24, opts)
	p := &player{hs: hs, seen: map[string]int{}}
	for p.seen["scramble"] == 0 && p.decisions < 40 {
		l := p.next()
		if boardtest.Ended(strings.Join(l, "\n")) {
			t.Fatalf("the match ended early\n%s", hs.Dump())
		}
		if strings.Contains(tuitest.Prompt(l), "Scramble") {
			txt := strings.Join(l, "\n")
			for i, line := range l {
				if n := len([]rune(line)); n != 80 {
					t.Fatalf("line %d is %d cells\n%s", i, n, txt)
				}
			}
			for _, want := range []string{"A B C D E F G H I J K L", " 1 ", "16 ", "Turn ", "scramble", "You ", "Verification", "enter plan", "? help", "q leave"} {
				if !strings.Contains(txt, want) {
					t.Errorf("the 80x24 screen lacks %q\n%s", want, txt)
				}
			}
			if bp := boardPart(txt); strings.Count(bp, "\n") != sea.Rows-1 {
				t.Errorf("the board is cut\n%s", txt)
			}
		}
		p.seen[p.act(l)]++
		p.decisions++
		p.sync()
	}
	hs.Post(79, 23)
	hs.WaitFor("terminal too small (needs 80x24)")
}

// TestNoColour plays to the first scramble in the monochrome theme: not a
// cell has a colour.
func TestNoColour(t *testing.T) {
	t.Parallel()
	hs := tuitest.Start(t, tui.Config{Theme: style.New(true), Bot: "strong", BotSeed: 4, Start: tui.StartPractice}, 80, 24, opts)
	p := &player{hs: hs, seen: map[string]int{}}
	for p.seen["scramble"] == 0 && p.decisions < 40 {
		l := p.next()
		if c := boardtest.Coloured(hs.Cells()); c != "" {
			t.Fatalf("%s\n%s", c, hs.Dump())
		}
		p.seen[p.act(l)]++
		p.decisions++
		p.sync()
	}
}

// TestHostAndJoin sets up a match between two interfaces, the host by its
// invite code: both commit and place through their boards; then the guest
// leaves and the host wins by forfeit.
func TestHostAndJoin(t *testing.T) {
	t.Parallel()
	host, guest := tuitest.HostAndJoin(t, tui.Config{Name: "ann", Timeout: 20 * time.Second}, tui.Config{Name: "bob", Timeout: 20 * time.Second}, 100, 30, opts, "waiting for a player to join")
	host.WaitFor("vs bob")
	guest.WaitFor("vs ann")
	players := []*player{{hs: host, seen: map[string]int{}}, {hs: guest, seen: map[string]int{}}}
	// Take turns until one of them has a turn of play (a scramble).
	boardtest.Alternate(t, "a scramble", 60*time.Second, []*boardtest.Term{host.Term, guest.Term}, func() bool {
		return players[0].seen["scramble"]+players[1].seen["scramble"] != 0
	}, func(i int) bool {
		p := players[i]
		l := p.hs.Lines()
		if strings.Contains(l[0], "your turn") && tuitest.Prompt(l) != "" && !boardtest.Ended(strings.Join(l, "\n")) {
			p.seen[p.act(l)]++
			p.sync()
			return true
		}
		return false
	})
	for _, p := range players {
		if p.seen["strengths"] != 1 || p.seen["place"] != len(sea.PlacementOrder) {
			t.Errorf("%s decided %v", p.hs.Lines()[0], p.seen)
		}
	}
	tuitest.Forfeit(guest, host, "forfeit")
	guest.WaitFor("Practice against a bot")
}

func seed() uint64 {
	if s := os.Getenv("SEED"); s != "" {
		n, _ := strconv.Atoi(s)
		return uint64(n)
	}
	return 8
}
