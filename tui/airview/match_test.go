package airview_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/cheat"
	"github.com/salvo-game/salvo/tui"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/style"
	"github.com/salvo-game/salvo/tui/tuitest"
)

// opts are how this package's tests start the interface: on the Air
// board unless they name a game, given 20 s to stop.
var opts = tuitest.Options{Game: "air", Options: boardtest.Options{StopWithin: 20 * time.Second}}

// captureEnv names the folder screens are kept in for the record
// (AIR_CAPTURE=dir go test -run Practice ./tui/airview).
const captureEnv = "AIR_CAPTURE"

var (
	reChance = regexp.MustCompile(`sp, (\d+)%\)`)
	reRound  = regexp.MustCompile(`Round (\d+) `)
)

// player plays our side through the keys alone, reading only the prompt
// line: a random card choice, then every turn fires when a shot is
// offered, flies, disrupts, takes the F-35's +1 and ends the turn.
type player struct {
	hs    *tuitest.UI
	seen  map[string]int
	turns int
}

// act answers the decision the prompt asks for and says which kind it
// was, or "" when nothing is asked.
func (p *player) act(l []string) string {
	hs := p.hs
	pr := tuitest.Prompt(l)
	switch {
	case strings.Contains(pr, "Choose a card for the"):
		hs.Capture(captureEnv, "choose", l)
		hs.Keys("x", tcell.KeyEnter)
		return "choose"
	case strings.Contains(pr, "enter plays"):
		hs.Keys(tcell.KeyEnter)
		return "choose"
	case strings.Contains(pr, "y takes the +1"):
		hs.Keys("y")
		return "bonus"
	case strings.Contains(pr, " with #"):
		opts := pr[strings.Index(pr, ": ")+2:]
		has := func(k string) bool { return strings.HasPrefix(opts, k+" ") || strings.Contains(opts, "· "+k+" ") }
		chance := 0
		if m := reChance.FindStringSubmatch(opts); m != nil {
			fmt.Sscan(m[1], &chance)
		}
		round := 0
		if m := reRound.FindStringSubmatch(strings.Join(l, "\n")); m != nil {
			fmt.Sscan(m[1], &round)
		}
		if round >= 3 {
			hs.Capture(captureEnv, "midgame", l)
		}
		switch {
		case has("f") && (chance >= 40 || !has("m")):
			hs.Capture(captureEnv, "fire", l)
			hs.Keys("f")
			return "fire"
		case has("m"):
			hs.Capture(captureEnv, "turn", l)
			hs.Keys("m")
			return "move"
		case has("d"):
			hs.Keys("d")
			return "disrupt"
		case has("j"):
			hs.Keys("j", tcell.KeyEnter) // the first marked space
			return "wingman"
		case has("e"):
			hs.Keys("e")
			return "end"
		}
	}
	return ""
}

// playOut plays until the match ends and returns the final screen.
func (p *player) playOut(limit int) string {
	hs := p.hs
	p.seen = map[string]int{}
	for i := 0; i < limit; i++ {
		l := hs.WaitLines("a decision or the end", 60*time.Second, func(l []string) bool {
			return boardtest.Ended(strings.Join(l, "\n")) || p.asked(l)
		})
		if s := strings.Join(l, "\n"); boardtest.Ended(s) {
			return s
		}
		kind := p.act(l)
		p.seen[kind]++
		// Wait until the decision is taken: the prompt or the sequence
		// number moves on (a refused key would leave both, so a second
		// look acts again).
		hs.TookAnswer(strings.Join(l, "\n"), 3*time.Second)
	}
	hs.T.Fatalf("the match did not end in %d decisions (%v)\n%s", limit, p.seen, hs.Dump())
	return ""
}

// asked reports whether the prompt line asks us for a decision.
func (p *player) asked(l []string) bool {
	pr := tuitest.Prompt(l)
	return strings.Contains(pr, "Choose a card for the") || strings.Contains(pr, "enter plays") ||
		strings.Contains(pr, "y takes the +1") || strings.Contains(pr, " with #")
}

// TestPracticeAgainstTheStrongBot plays a whole match through the keys,
// over the real practice path (two libp2p hosts on loopback, the shared
// deck with its proofs), audits it, and steps through it in the audit
// viewer.
func TestPracticeAgainstTheStrongBot(t *testing.T) {
	t.Parallel()
	hs := tuitest.Start(t, tui.Config{Name: "ann", Bot: "strong", BotSeed: 4}, 100, 30, opts)
	hs.WaitFor("Practice against a bot", "game: Mission Command Air")
	hs.Keys("p")
	hs.WaitFor("vs bot (strong)", "Your hand (7 cards)", "Choose a card for the Blue F-35", "15  25  35", "120", "Order")
	p := &player{hs: hs}
	end := p.playOut(400)
	if !strings.Contains(end, "you won") && !strings.Contains(end, "you lost") && !strings.Contains(end, "draw:") {
		t.Fatalf("the match did not end by the rules\n%s", end)
	}
	hs.Capture(captureEnv, "end", hs.Lines())
	if p.seen["choose"] == 0 || p.seen["move"]+p.seen["fire"] == 0 {
		t.Fatalf("decisions made: %v", p.seen)
	}
	path := hs.Transcript()
	rep := tuitest.Audit(t, path)
	if rep.Verdict != fairness.Clean {
		t.Fatalf("audit of the practice match: %s", rep.Summary())
	}
	// The verification log showed the shared deck's steps.
	hs.Keys("l")
	hs.WaitFor("Verification (↑↓ enter raw)")
	hs.Keys("l")
	// The audit viewer steps through the match, drawing the board.
	hs.Keys("a")
	hs.WaitFor("Audit · "+filepath.Base(path), style.OK+" clean:", "Hands", "(never opened)")
	hs.Capture(captureEnv, "audit-end", hs.Lines())
	hs.Keys("g")
	hs.WaitFor("step 0 of", "header: the match starts")
	hs.Keys("/", "has chosen", tcell.KeyEnter)
	hs.WaitFor("found at step")
	txt := hs.WaitFor("Round 1", "15  25  35")
	if strings.Contains(txt, "Your hand") {
		t.Fatalf("the audit viewer drew a live hand\n%s", txt)
	}
	hs.Keys("q")
	hs.WaitFor("q lobby")
	hs.Keys("q")
	hs.WaitFor("Recent matches", "Mission Command Air vs bot", style.OK+" clean")
}

// TestCheatIsCaughtAndShown plays against a bot that opens a different
// card choice than it committed to: the match stops at once and the cheat
// panel says who, and which rule.
func TestCheatIsCaughtAndShown(t *testing.T) {
	t.Parallel()
	hs := tuitest.Start(t, tui.Config{Name: "ann", Bot: "strong", BotSeed: 2, BotCheat: "changed-choice"}, 100, 30, opts)
	hs.Keys("p")
	end := (&player{hs: hs}).playOut(50)
	if !strings.Contains(end, "CHEATING DETECTED") {
		t.Fatalf("no cheat panel\n%s", end)
	}
	hs.WaitFor("bot (strong) broke the rules", "Who", "seat 1", "Broken rule", "Transcript", "CHEAT DETECTED")
	hs.Capture(captureEnv, "cheat", hs.Lines())
	hs.AuditCheat(1)
	hs.Keys("a")
	hs.WaitFor("violation by seat 1 bot (strong)")
}

// TestTableOfThreeNamesTheCheater plays a practice table of three (you and
// two bots over a gossipsub topic), the last bot cheating: the title bar
// lists both opponents and the cheat panel names the seat that cheated.
func TestTableOfThreeNamesTheCheater(t *testing.T) {
	t.Parallel()
	hs := tuitest.Start(t, tui.Config{Name: "ann", Bot: "strong", BotSeed: 5, BotCheat: "changed-choice"}, 100, 30, opts)
	hs.WaitFor("players 2")
	hs.Keys("n")
	hs.WaitFor("players 3")
	hs.Keys("p")
	hs.WaitFor("vs bot-1 (strong), bot-2 (strong)", "Eagle · bot-2 (strong)")
	end := (&player{hs: hs}).playOut(50)
	if !strings.Contains(end, "CHEATING DETECTED") {
		t.Fatalf("no cheat panel\n%s", end)
	}
	hs.WaitFor("bot-2 (strong) broke the rules", "seat 2")
	hs.Capture(captureEnv, "cheat-table", hs.Lines())
	hs.AuditCheat(2)
}

// TestFourPlayersFitEightyByTwentyFour seats a table of four at the
// smallest terminal: the board, the hand, the order and all four squadron
// boards fit, every line 80 cells.
func TestFourPlayersFitEightyByTwentyFour(t *testing.T) {
	t.Parallel()
	hs := tuitest.Start(t, tui.Config{Name: "ann", Bot: "random", BotSeed: 3}, 80, 24, opts)
	hs.Keys("n", "n")
	hs.WaitFor("players 4")
	hs.Keys("p")
	txt := hs.WaitFor("3 opponents", "Hand (7)", "Choose a card for the Blue F-35", "120", " 10 ", "95",
		"Blue  5↑", "Fire  5↓", "Eagle 5→", "Tiger 5←", "x random", "? help")
	hs.Capture(captureEnv, "choose", hs.Lines())
	for i, l := range strings.Split(strings.TrimRight(txt, "\n"), "\n") {
		if n := len([]rune(l)); n != 80 {
			t.Fatalf("line %d is %d cells\n%s", i, n, txt)
		}
	}
	// The first decisions work at this size too.
	p := &player{hs: hs}
	for range 3 {
		l := hs.WaitLines("a decision", 60*time.Second, p.asked)
		p.act(l)
		before := strings.Join(l, "\n")
		hs.WaitLines("the decision taken", 30*time.Second, func(l2 []string) bool {
			return tuitest.Prompt(l2) != tuitest.Prompt(l) || tuitest.Seq(strings.Join(l2, "\n")) != tuitest.Seq(before)
		})
	}
}

// TestHostAndJoinTwoPlayers hosts an Air match and joins it by its code:
// both boards come up, both players are asked for their card at once
// (issue 15), and the one who chose first says whom it waits for.
func TestHostAndJoinTwoPlayers(t *testing.T) {
	t.Parallel()
	host, guest := tuitest.HostAndJoin(t, tui.Config{Name: "ann", Timeout: 20 * time.Second}, tui.Config{Name: "bob", Timeout: 20 * time.Second}, 100, 30, opts, "Host Mission Command Air (standard)")
	host.WaitFor("vs bob", "Blue · ann (you)", "Fire · bob")
	guest.WaitFor("vs ann", "Fire · bob (you)", "Your hand (7 cards)")
	host.WaitFor("Choose a card")
	guest.WaitFor("Choose a card")
	host.Keys("x", tcell.KeyEnter)
	host.WaitFor("waiting for bob")
	guest.Keys("x", tcell.KeyEnter)
	host.WaitFor("turn 1 of 4")
	guest.WaitFor("turn 1 of 4")
}

// TestNoColourMatch draws a live Air match in the monochrome theme: no
// cell carries a colour, and the states keep their glyphs.
func TestNoColourMatch(t *testing.T) {
	t.Parallel()
	hs := tuitest.Start(t, tui.Config{Theme: style.New(true), Bot: "random"}, 100, 30, opts)
	hs.Keys("p")
	hs.WaitFor("Choose a card for the Blue F-35", "›B5↑", "◦F5↓")
	if c := boardtest.Coloured(hs.Cells()); c != "" {
		t.Fatalf("%s\n%s", c, hs.Dump())
	}
}

// TestEveryAirCheatIsCaught plays against a bot cheating in each of Air's
// own ways, and the generic ways that apply to Air: the cheat panel comes
// up every time. (The generic wrong-cell and wrong-salt alter openings of
// committed vectors, which an Air bot never sends: its cards are opened
// under the shared deck's proofs and its choices as reveals. go-silent
// forfeits after the practice bot's one-minute timeout instead of forging
// a message.) card-not-in-hand needs the cheater's own reveal to complete
// the choice, so it sits last at a table of three.
func TestEveryAirCheatIsCaught(t *testing.T) {
	t.Parallel()
	kinds := []string{cheat.CardNotInHand, "changed-choice", "wrong-unmask", "shot-out-of-cone", "replay", "wrong-state"}
	for _, name := range kinds {
		k, err := cheat.Lookup("air", name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(k.Name, func(t *testing.T) {
			t.Parallel()
			hs := tuitest.Start(t, tui.Config{Name: "ann", Bot: "strong", BotSeed: 7, BotCheat: k.Name}, 100, 30, opts)
			if k.Name == cheat.CardNotInHand {
				hs.Keys("n")
				hs.WaitFor("players 3")
			}
			hs.Keys("p")
			end := (&player{hs: hs}).playOut(600)
			if !strings.Contains(end, "CHEATING DETECTED") {
				t.Fatalf("%s (%s) was not caught\n%s", k.Name, k.About, end)
			}
			hs.WaitFor("broke the rules", "Who", "Broken rule", "Transcript")
		})
	}
}
