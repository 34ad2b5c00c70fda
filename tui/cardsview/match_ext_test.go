package cardsview_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/tui"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/style"
	"github.com/salvo-game/salvo/tui/tuitest"
)

var (
	reEntry = regexp.MustCompile(`(?m)^ [› ]([1-9]) `) // an entry of the uses list
)

// player answers every decision the board asks for by keys, as a person
// would: enter commits, the PT Boat repair is taken or skipped, and a play
// is either the picked card on the cursor's cell (enter) or the first use
// the uses list offers (o, then 1). One key (or one aim and enter) at a
// time: each waits for the board to take it.
type player struct {
	u         *tuitest.UI
	decisions int
	taps      int      // plays made with enter on the cursor's cell
	aimed     bool     // the cursor was moved: enter comes next
	screen    string   // the screen of the last decision
	last      []string // the last prompts answered, for a failure message
	stalls    []string // prompts that did not change within 3 s of an answer
}

// decide waits for a decision or the end; it answers the decision and
// reports false, or reports true at the end.
func (p *player) decide() (string, bool) {
	u := p.u
	txt := u.WaitFunc("a decision or the end", 90*time.Second, tuitest.Asks)
	if boardtest.Ended(txt) {
		return txt, true
	}
	line := boardtest.PromptLine(txt)
	p.screen = txt
	p.last = append(p.last, strings.TrimSpace(line))
	if len(p.last) > 40 {
		p.last = p.last[1:]
	}
	switch {
	case strings.Contains(line, "Commit"), strings.Contains(line, "draw pile is empty"):
		u.Keys(tcell.KeyEnter)
	case strings.Contains(line, "PT Boat"):
		if p.decisions%2 == 0 {
			u.Keys("s")
		} else {
			u.Keys(tcell.KeyDown, tcell.KeyEnter)
		}
	case strings.Contains(line, "pick a use"):
		// The first use, or the last one listed (attacks come after taps,
		// so the match does not drag on).
		key := "1"
		if p.decisions%3 != 0 {
			for _, m := range reEntry.FindAllStringSubmatch(txt, -1) {
				key = max(key, m[1])
			}
		}
		u.Keys(key)
	case strings.Contains(line, "not one of the 3 drawn"):
		u.Keys(tcell.KeyTab) // the picked card is not one of the three drawn
	default:
		switch {
		case p.aimed:
			// Aimed last time: play on the cursor's cell.
			p.aimed = false
			p.taps++
			u.Keys(tcell.KeyEnter)
		case !strings.HasPrefix(strings.TrimSpace(line), "Your turn") || p.decisions%3 != 0:
			// After a refusal, or most of the time: list the uses.
			u.Keys("o")
		default:
			p.aimed = true
			u.Keys([]tcell.Key{tcell.KeyRight, tcell.KeyDown, tcell.KeyLeft, tcell.KeyUp}[p.decisions%4])
		}
	}
	p.decisions++
	// Wait until the board has taken the answer: the prompt or the
	// message count changes (a few plays in a row may look alike, so this
	// gives up quietly and the next round looks again).
	wait := 3 * time.Second
	if p.aimed {
		wait = 300 * time.Millisecond // an arrow at the grid's edge changes nothing
	}
	if !u.TookAnswer(txt, wait) {
		p.stalls = append(p.stalls, line)
	}
	return "", false
}

// playOut plays until the match ends and returns the end screen.
func (p *player) playOut() string {
	return p.u.PlayOut(3000, p.decide, func() []string { return p.last })
}

// opts are how this package's tests start the interface: boards wait up
// to 20 s for what a test expects.
var opts = tuitest.Options{Options: boardtest.Options{Wait: 20 * time.Second}}

const gameName = "cards"

func TestFullMatchAgainstTheStrongBotThenTheAudit(t *testing.T) {
	u := tuitest.Start(t, tui.Config{Game: "cards", Bot: "strong", BotSeed: 5, Name: "ann", Start: tui.StartPractice}, 100, 30, opts)
	u.WaitFor("Card Game (coordinate cards)", "Commit your 12 coordinate cards", "Target · bot (strong)", "Your grid", "Verification")
	p := &player{u: u}
	mid := false
	var capture string
	for !mid {
		txt, done := p.decide()
		if done {
			t.Fatalf("the match ended early\n%s", txt)
		}
		now := u.Text()
		// A board in the middle of the match: ships turned up on both sides.
		if strings.Count(now, style.Ship) >= 2 && strings.Contains(now, "Powers") && strings.Contains(now, "★") {
			mid, capture = true, now
		}
	}
	t.Logf("mid-game capture at 100x30:\n%s", capture)
	end := p.playOut()
	if !strings.Contains(end, "you won") && !strings.Contains(end, "you lost") && !strings.Contains(end, "draw:") {
		t.Fatalf("the match did not end by the rules\n%s", end)
	}
	if p.taps == 0 {
		t.Fatal("no play was made on the cursor's cell")
	}
	path := u.Transcript()
	rep := tuitest.Audit(t, path)
	if rep.Verdict != fairness.Clean {
		t.Fatalf("audit: %s", rep.Summary())
	}
	t.Logf("%d decisions (%d stalls %q); %s", p.decisions, len(p.stalls), p.stalls, rep.Summary())
	if p.decisions > 400 {
		t.Logf("last prompts:\n%s", strings.Join(p.last, "\n"))
	}
	u.Stop()

	// The audit viewer steps through the match with both hands drawn.
	a := tuitest.Start(t, tui.Config{Start: tui.StartAudit, File: path}, 100, 30, opts)
	a.WaitFor("Audit ·", style.OK+" clean:", "ann · seat 0", "bot (strong) · seat 1")
	a.Keys("g")
	a.WaitFor("step 0 of", "header: the match starts")
	a.Keys("n", "n", "n")
	a.WaitFor("step 3 of")
	a.Keys("p")
	a.WaitFor("step 2 of")
	a.Keys("/", "finds the", tcell.KeyEnter)
	txt := a.WaitFor("\"finds the\" found at step", "Powers", "Discard")
	if !strings.Contains(txt, style.Ship) && !strings.Contains(txt, style.Sunk) {
		t.Fatalf("no ship drawn where one was found\n%s", txt)
	}
	a.Keys("v")
	a.WaitFor("no violation")
	a.Keys(tcell.KeyEnter)
	a.WaitFor("raw signed message")
	a.Keys(tcell.KeyEscape)
}

func TestCheatIsCaughtAndShownOnTheCheatPanel(t *testing.T) {
	u := tuitest.Start(t, tui.Config{Game: "cards", Bot: "strong", BotSeed: 9, Name: "ann", Start: tui.StartPractice, BotCheat: "card-not-in-hand"}, 100, 30, opts)
	p := &player{u: u}
	end := p.playOut()
	if !strings.Contains(end, "CHEATING DETECTED") {
		t.Fatalf("no cheat panel\n%s", end)
	}
	txt := u.WaitFor("bot (strong) broke the rules", "Claimed", "move: ", "Broken rule", "is not in", "hand", "Transcript", "CHEAT DETECTED")
	t.Logf("cheat panel at 100x30:\n%s", txt)
	u.AuditCheat(1)
	u.Keys("a")
	u.WaitFor("violation by seat 1")
}

func TestEightyByTwentyFour(t *testing.T) {
	u := tuitest.Start(t, tui.Config{Game: "cards", Bot: "strong", BotSeed: 2, Start: tui.StartPractice}, 80, 24, opts)
	p := &player{u: u}
	for n := 0; n < 12 || strings.Contains(u.Text(), "pick a use"); n++ {
		if txt, done := p.decide(); done {
			t.Fatalf("ended early\n%s", txt)
		}
	}
	txt := u.WaitFor("Target", "Your grid", "Hand", "Powers", "Discard", "Verification", "? help", "q leave")
	for i, l := range strings.Split(strings.TrimRight(txt, "\n"), "\n") {
		if n := len([]rune(l)); n != 80 {
			t.Fatalf("line %d is %d cells\n%s", i, n, txt)
		}
	}
	t.Logf("80x24 capture:\n%s", txt)
	u.Resize(79, 24)
	u.WaitFor("terminal too small (needs 80x24)")
}

// TestNoColour plays the beginner variant in the monochrome theme.
func TestNoColour(t *testing.T) {
	u := tuitest.Start(t, tui.Config{Game: "cards", Variant: "beginner", Bot: "strong", BotSeed: 4, Start: tui.StartPractice, Theme: style.New(true)}, 100, 30, opts)
	u.WaitFor("Commit your 12 coordinate cards", "none (beginner rules)")
	p := &player{u: u}
	for range 8 {
		if txt, done := p.decide(); done {
			t.Fatalf("ended early\n%s", txt)
		}
	}
	if !strings.Contains(strings.Join(p.last, "\n"), "Commit your 20-card deck") {
		t.Fatalf("no beginner deck was committed: %q", p.last)
	}
	if c := boardtest.Coloured(u.Cells()); c != "" {
		t.Fatal(c)
	}
}

func TestHostAndJoinThroughTheInterface(t *testing.T) {
	host, guest := tuitest.HostAndJoin(t, tui.Config{Game: gameName, Name: "ann", Timeout: 30 * time.Second}, tui.Config{Name: "bob", Timeout: 30 * time.Second}, 100, 30, opts, "waiting for a player to join")
	host.WaitFor("vs bob", "Commit")
	guest.WaitFor("vs ann")
	players := []*player{{u: host}, {u: guest}}
	tuitest.TakeTurns(t, 24, 60*time.Second, []*tuitest.UI{host, guest}, func(i int) bool {
		_, done := players[i].decide()
		return done
	})
	// Both boards drew the match as it went: the guest leaves, the host
	// wins by forfeit.
	tuitest.Forfeit(guest, host, "forfeits")
}
