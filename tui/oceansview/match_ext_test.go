package oceansview_test

import (
	"fmt"
	"regexp"
	"strconv"
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

// player answers every decision the board asks for by keys, as a person
// would: enter commits; a deployment or a play is either the picked card
// on the picked ocean (enter), a discard for its command (d), an attack (a)
// or the first play the list offers (o, then 1); a battle's choice is the
// first listed. One key (or one aim and key) at a time: each waits for the
// board to take it.
type player struct {
	u         *tuitest.UI
	decisions int
	screen    string   // the screen of the last decision
	direct    int      // plays made with enter, d or a rather than the list
	then      any      // the key to press after picking an ocean, or nil
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
	line := strings.TrimSpace(boardtest.PromptLine(txt))
	p.screen = txt
	p.last = append(p.last, line)
	if len(p.last) > 12 {
		p.last = p.last[1:]
	}
	n := p.decisions
	switch {
	case strings.Contains(line, "Commit"):
		u.Keys(tcell.KeyEnter)
	case strings.Contains(line, "pick a play"), strings.HasPrefix(line, "Battle:"):
		u.Keys("1")
	case strings.Contains(line, "nothing to do with this card"):
		u.Keys(tcell.KeyTab)
	case strings.Contains(line, "d again wastes"):
		u.Keys("o")
	case !strings.HasPrefix(line, "Your turn") && !strings.HasPrefix(line, "Deploy"):
		u.Keys("o") // a refusal precedes the prompt
	case p.then != nil:
		// The ocean was picked last time: now the key.
		p.direct++
		u.Keys(p.then)
		p.then = nil
	case strings.Contains(line, "second card or attack") && n%2 == 0:
		p.then = "a"
		u.Keys(tcell.KeyDown)
	case strings.HasPrefix(line, "Your turn: ") && n%5 == 0:
		p.direct++
		u.Keys("d")
	case n%3 == 0:
		p.then = tcell.KeyEnter
		u.Keys(tcell.KeyDown)
	default:
		u.Keys("o")
	}
	p.decisions++
	if !u.TookAnswer(txt, 3*time.Second) {
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

const gameName = "oceans"

func TestFullMatchAgainstTheStrongBotThenTheAudit(t *testing.T) {
	u := tuitest.Start(t, tui.Config{Game: "oceans", Bot: "strong", BotSeed: 5, Name: "ann", Start: tui.StartPractice}, 100, 30, opts)
	u.WaitFor("Card Game (ocean cards)", "Commit your 36-card fleet deck", "Ocean", "N.Atl.", "Verification")
	p := &player{u: u}
	var setup, mid, battle, end string
	for end == "" {
		txt, done := p.decide()
		if done {
			end = txt
			break
		}
		now := p.screen // the screen as the decision was made
		switch {
		case setup == "" && strings.Contains(now, "Deploy a card faceup"):
			setup = now
		case mid == "" && strings.Contains(now, "Your turn: ") && strings.Count(now, "■")+strings.Count(now, "□") >= 10:
			mid = now
		}
		if cur := u.Text(); battle == "" && (strings.Contains(cur, "Battle in the") || strings.Contains(cur, "Last battle")) && strings.Contains(cur, "= ") {
			battle = cur
		}
		if p.decisions > 3000 {
			t.Fatalf("the match did not end in 3000 decisions; the last prompts:\n%s\n%s", strings.Join(p.last, "\n"), u.Text())
		}
	}
	t.Logf("setup at 100x30:\n%s", setup)
	t.Logf("mid-game at 100x30:\n%s", mid)
	t.Logf("a battle at 100x30:\n%s", battle)
	if !strings.Contains(end, "you won") && !strings.Contains(end, "you lost") {
		t.Fatalf("the match did not end by the rules\n%s", end)
	}
	t.Logf("end at 100x30:\n%s", end)
	if battle == "" && !strings.Contains(end, "Last battle") {
		t.Fatal("no battle was drawn")
	}
	if p.direct == 0 {
		t.Fatal("every play came from the list")
	}
	path := u.Transcript()
	rep := tuitest.Audit(t, path)
	if rep.Verdict != fairness.Clean {
		t.Fatalf("audit: %s", rep.Summary())
	}
	t.Logf("%d decisions (%d direct, %d stalls %q); %s", p.decisions, p.direct, len(p.stalls), p.stalls, rep.Summary())
	u.Stop()

	// The audit viewer steps through the match with every card drawn.
	a := tuitest.Start(t, tui.Config{Start: tui.StartAudit, File: path}, 100, 30, opts)
	a.WaitFor("Audit ·", style.OK+" clean:", "ann: ", "bot (strong): ")
	a.Keys("g")
	a.WaitFor("step 0 of", "header: the match starts")
	a.Keys("n", "n", "n", "n", "n", "n")
	a.WaitFor("step 6 of")
	a.Keys("p")
	a.WaitFor("step 5 of")
	a.Keys("/", "attacks in the", tcell.KeyEnter)
	found := a.WaitRe(regexp.MustCompile(`"attacks in the" found at step (\d+)`))
	// Step onto the message with the attack from the one before it: the
	// board retraces the battle it carries.
	a.Keys("p")
	a.WaitFor(fmt.Sprintf("step %d of", atoi(found[1])-1))
	a.Keys("n")
	txt := a.WaitFunc("the battle after the attack", 20*time.Second, func(s string) bool {
		return strings.Contains(s, glyphBattle) || strings.Contains(s, "Last battle")
	})
	if strings.Contains(txt, "▒▒▒") {
		t.Fatalf("the audit viewer draws a facedown card it knows\n%s", txt)
	}
	a.Keys("v")
	a.WaitFor("no violation")
}

const glyphBattle = "⚔"

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func TestCheatIsCaughtAndShownOnTheCheatPanel(t *testing.T) {
	u := tuitest.Start(t, tui.Config{Game: "oceans", Bot: "strong", BotSeed: 9, Name: "ann", Start: tui.StartPractice, BotCheat: "undrawn-card"}, 100, 30, opts)
	p := &player{u: u}
	end := p.playOut()
	if !strings.Contains(end, "CHEATING DETECTED") {
		t.Fatalf("no cheat panel\n%s", end)
	}
	txt := u.WaitFor("bot (strong) broke the rules", "Claimed", "move: plays fleet card", "facedown", "Broken rule", "not in", "hand", "Transcript", "CHEAT DETECTED")
	t.Logf("cheat panel at 100x30:\n%s", txt)
	u.AuditCheat(1)
	u.Keys("a")
	u.WaitFor("violation by seat 1")
}

func TestEightyByTwentyFour(t *testing.T) {
	u := tuitest.Start(t, tui.Config{Game: "oceans", Bot: "strong", BotSeed: 2, Start: tui.StartPractice}, 80, 24, opts)
	p := &player{u: u}
	for n := 0; n < 12 || strings.Contains(u.Text(), "pick a play"); n++ {
		if txt, done := p.decide(); done {
			t.Fatalf("ended early\n%s", txt)
		}
	}
	txt := u.WaitFor("Ocean", "N.Atl.", "Arctic", "Hand", "fleet", "deck", "Verification", "? help", "q leave")
	for i, l := range strings.Split(strings.TrimRight(txt, "\n"), "\n") {
		if n := len([]rune(l)); n != 80 {
			t.Fatalf("line %d is %d cells\n%s", i, n, txt)
		}
	}
	t.Logf("80x24 capture:\n%s\nstalls: %q", txt, p.stalls)
	u.Resize(80, 23)
	u.WaitFor("terminal too small (needs 80x24)")
}

func TestNoColour(t *testing.T) {
	u := tuitest.Start(t, tui.Config{Game: "oceans", Bot: "strong", BotSeed: 4, Start: tui.StartPractice, Theme: style.New(true)}, 100, 30, opts)
	p := &player{u: u}
	for range 10 {
		if txt, done := p.decide(); done {
			t.Fatalf("ended early\n%s", txt)
		}
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
