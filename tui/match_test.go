package tui

import (
	"context"
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

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/cheat"
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/session"
	"github.com/salvo-game/salvo/tui/style"
)

var (
	reTurn  = regexp.MustCompile(`Turn (\d+):`)
	reShots = regexp.MustCompile(`fires up to (\d+)`)
)

// ended reports whether the screen shows the end of a match.
func ended(s string) bool {
	for _, w := range []string{"you won", "you lost", "CHEATING DETECTED", "the match stopped", "the match failed", "you left"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// shooter plays our side by keys: a random layout, then every volley at
// the next cells in row order.
type shooter struct {
	hs        *harness
	next, cur int // the next cell to shoot; the cursor's cell
	volleys   int
}

// place commits a random layout (and the standard build in custom).
func (s *shooter) place() {
	s.hs.waitFor("Place the Battleship")
	s.hs.keys("x", tcell.KeyEnter)
}

// move brings the cursor to cell i.
func (s *shooter) move(i int) {
	dr, dc := i/10-s.cur/10, i%10-s.cur%10
	for ; dr > 0; dr-- {
		s.hs.keys(tcell.KeyDown)
	}
	for ; dr < 0; dr++ {
		s.hs.keys(tcell.KeyUp)
	}
	for ; dc > 0; dc-- {
		s.hs.keys(tcell.KeyRight)
	}
	for ; dc < 0; dc++ {
		s.hs.keys(tcell.KeyLeft)
	}
	s.cur = i
}

// turn waits for our turn (or the end) and fires one volley; it returns
// the screen and whether the match ended.
func (s *shooter) turn() (string, bool) {
	txt := s.hs.waitFunc("our turn or the end", 30*time.Second, func(t string) bool {
		return strings.Contains(t, "Your turn") || ended(t)
	})
	if ended(txt) {
		return txt, true
	}
	last := 0
	if m := reTurn.FindStringSubmatch(txt); m != nil {
		last, _ = strconv.Atoi(m[1])
	}
	n := 1
	if m := reShots.FindStringSubmatch(txt); m != nil {
		n, _ = strconv.Atoi(m[1])
	}
	for i := 0; i < n && s.next < 100; i++ {
		s.move(s.next)
		s.hs.keys(" ")
		s.next++
	}
	marked := fmt.Sprintf("%d marked", n)
	if txt := s.hs.waitFunc(marked, 30*time.Second, func(t string) bool { return strings.Contains(t, marked) || ended(t) }); ended(txt) {
		return txt, true
	}
	s.hs.keys(tcell.KeyEnter)
	s.volleys++
	// The other side's volley (turn last+2) comes before our next turn.
	txt = s.hs.waitFunc(fmt.Sprintf("turn %d to pass", last+1), 30*time.Second, func(t string) bool {
		if ended(t) {
			return true
		}
		m := reTurn.FindStringSubmatch(t)
		if m == nil {
			return false
		}
		k, _ := strconv.Atoi(m[1])
		return k >= last+2 && strings.Contains(t, "Your turn")
	})
	return txt, ended(txt)
}

// playOut plays until the match ends and returns the final screen.
func (s *shooter) playOut() string {
	for range 200 {
		if txt, done := s.turn(); done {
			return txt
		}
	}
	s.hs.t.Fatalf("the match did not end in 200 volleys\n%s", s.hs.dump())
	return ""
}

// transcript returns the path of the match screen's transcript.
func transcriptOf(hs *harness) string {
	var path string
	hs.onUI(func() {
		for _, s := range hs.app.stack {
			if m, ok := s.(*matchScreen); ok {
				path = m.transcript
			}
		}
	})
	return path
}

func audit(t *testing.T, path string) *fairness.Report {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := fairness.Audit(f, games.Spec)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestPracticeFullGameAgainstTheBot(t *testing.T) {
	t.Parallel()
	hs := start(t, Config{Offline: true, Name: "ann", Bot: "random", BotSeed: 3}, 100, 30)
	hs.waitFor("Practice against a bot")
	hs.keys(tcell.KeyEnter) // the first menu item
	sh := &shooter{hs: hs}
	sh.place()
	hs.waitFor("seq", style.OK+" in sync", "Verification")
	end := sh.playOut()
	won := strings.Contains(end, "you won")
	if !won && !strings.Contains(end, "you lost") {
		t.Fatalf("the match did not end by the rules\n%s", hs.dump())
	}
	path := transcriptOf(hs)
	rep := audit(t, path)
	if rep.Verdict != fairness.Clean {
		t.Fatalf("audit of the practice match: %s", rep.Summary())
	}
	if got := len(rep.Outcome.Winners) == 1 && rep.Outcome.Winners[0] == 0; got != won {
		t.Fatalf("the screen says won=%v, the audit says %s", won, rep.Summary())
	}
	// The verification log saw every message; l selects a line and enter
	// shows it raw.
	hs.keys("l")
	hs.waitFor("Verification (↑↓ enter raw)")
	hs.keys(tcell.KeyUp, tcell.KeyUp, tcell.KeyEnter)
	hs.waitFor("raw signed message", "signature")
	hs.keys(tcell.KeyEscape, "l")
	// a opens the audit viewer on this match.
	hs.keys("a")
	hs.waitFor("Audit · "+filepath.Base(path), style.OK+" clean:")
	hs.keys("q")
	hs.waitFor("q lobby")
	hs.keys(tcell.KeyEnter) // does not leave the ended match
	hs.keys("q")
	hs.waitFor("Recent matches", "vs bot (random)", style.OK+" clean")
}

func TestCustomVariantArmsTheFleet(t *testing.T) {
	t.Parallel()
	hs := start(t, Config{Offline: true, Variant: "custom", Bot: "random", BotSeed: 5}, 100, 30)
	hs.keys("p")
	sh := &shooter{hs: hs}
	sh.place()
	hs.waitFor("Build your fleet", "3 left to give", "17 of 20 weapons")
	hs.keys(tcell.KeyEnter) // refused: 17 weapons
	hs.waitFor("not 20")
	hs.keys(tcell.KeyRight, tcell.KeyRight, tcell.KeyRight, tcell.KeyEnter)
	for range 3 {
		if _, done := sh.turn(); done {
			t.Fatalf("the match ended early\n%s", hs.dump())
		}
	}
	// Our Battleship fired with its 8 weapons (some may be lost to hits).
	hs.waitRe(regexp.MustCompile(`Battleship [■□]{8} `))
}

func TestCheatIsCaughtAndShown(t *testing.T) {
	t.Parallel()
	hs := start(t, Config{Offline: true, Name: "ann", Bot: "random", BotSeed: 9, BotCheat: "miss-on-hit"}, 100, 30)
	hs.keys("p")
	sh := &shooter{hs: hs}
	sh.place()
	end := sh.playOut()
	if !strings.Contains(end, "CHEATING DETECTED") {
		t.Fatalf("no cheat panel\n%s", hs.dump())
	}
	hs.waitFor("bot (random) broke the rules", "Claimed", "answers", "miss", "Their proof", "holds the", "Broken rule", "not a miss",
		"Transcript", "CHEAT DETECTED", style.Fail+" stopped")
	path := transcriptOf(hs)
	rep := audit(t, path)
	if rep.Verdict != fairness.Violated || rep.Violation.Seat != 1 {
		t.Fatalf("audit of the cheated match: %s", rep.Summary())
	}
	hs.keys("a")
	hs.waitFor("violation by seat 1 bot (random)")
	hs.keys("q", "q")
	hs.waitFor("Practice against a bot")
}

func TestForgedRollIsCaughtAtTheCoinFlip(t *testing.T) {
	t.Parallel()
	hs := start(t, Config{Offline: true, BotCheat: "forged-roll"}, 80, 24)
	hs.keys("p")
	(&shooter{hs: hs}).place()
	hs.waitFor("CHEATING DETECTED", "dice share for roll 0", "Broken rule")
}

// TestEveryCheatIsCaught plays against a bot cheating in each known way:
// the match screen must show the cheat panel every time.
func TestEveryCheatIsCaught(t *testing.T) {
	t.Parallel()
	for _, k := range cheat.Kinds("ubuild") {
		t.Run(k.Name, func(t *testing.T) {
			t.Parallel()
			hs := start(t, Config{Offline: true, Bot: "random", BotSeed: 2, BotCheat: k.Name}, 100, 30)
			hs.keys("p")
			sh := &shooter{hs: hs}
			sh.place()
			end := sh.playOut()
			if k.Name == "go-silent" {
				// Going silent is not a forged message: it forfeits.
				if !strings.Contains(end, "you won") || !strings.Contains(end, "forfeits") {
					t.Fatalf("a silent bot did not forfeit\n%s", hs.dump())
				}
				return
			}
			if !strings.Contains(end, "CHEATING DETECTED") {
				t.Fatalf("%s (%s) was not caught\n%s", k.Name, k.About, hs.dump())
			}
			hs.waitFor("Broken rule", "Transcript")
		})
	}
}

func TestLeavingALiveMatchAsksFirst(t *testing.T) {
	t.Parallel()
	hs := start(t, Config{Offline: true}, 100, 30)
	hs.keys("p")
	hs.waitFor("Place the Battleship")
	path := transcriptOf(hs)
	hs.keys("q")
	hs.waitFor("Leave the match?", "abandons the match")
	hs.keys("n")
	hs.waitGone("Leave the match?")
	hs.waitFor("Place the Battleship")
	hs.keys(tcell.KeyCtrlC)
	hs.waitFor("Quit Salvo?")
	hs.keys(tcell.KeyEscape, "q", "y")
	hs.waitFor("Practice against a bot")
	if rep := audit(t, path); rep.Verdict != fairness.Incomplete {
		t.Fatalf("the abandoned match's transcript: %s", rep.Summary())
	}
}

func TestEightyByTwentyFourKeepsEverything(t *testing.T) {
	t.Parallel()
	hs := start(t, Config{Offline: true, Bot: "random"}, 80, 24)
	hs.keys("p")
	sh := &shooter{hs: hs}
	sh.place()
	sh.turn()
	txt := hs.waitFor("Your ocean", "Target", "Verification", "J ", "Fleet", "PT Boat", "Your turn", "enter fire", "? help", "q leave")
	for i, l := range strings.Split(strings.TrimRight(txt, "\n"), "\n") {
		if n := len([]rune(l)); n != 80 {
			t.Fatalf("line %d is %d cells", i, n)
		}
	}
}

func TestNoColourMatch(t *testing.T) {
	t.Parallel()
	hs := start(t, Config{Offline: true, Theme: style.New(true), Bot: "random"}, 100, 30)
	hs.keys("p")
	sh := &shooter{hs: hs}
	sh.place()
	sh.turn()
	cells := hs.cells()
	for i, c := range cells {
		fg, bg, _ := c.Style.Decompose()
		if fg != tcell.ColorDefault || bg != tcell.ColorDefault {
			t.Fatalf("cell %d (%q) has colours %v on %v\n%s", i, string(c.Runes), fg, bg, hs.dump())
		}
	}
}

func TestHostAndJoinByCode(t *testing.T) {
	t.Parallel()
	host := start(t, Config{Offline: true, Name: "ann", Start: StartHost, Timeout: 20 * time.Second}, 100, 30)
	host.waitFor("invite code", "waiting for a player to join")
	var code string
	host.onUI(func() { code = host.app.top().(*hostScreen).code })
	if !strings.HasPrefix(code, "SALVO1-") {
		t.Fatalf("code %q", code)
	}
	guest := start(t, Config{Offline: true, Name: "bob", Start: StartJoin, Code: code, Timeout: 20 * time.Second}, 100, 30)
	// The host (seat 0) commits first; the guest says what it waits for.
	host.waitFor("vs bob", "Place the Battleship")
	guest.waitFor("vs ann", "waiting for ann: ann commits its grid")
	host.keys("x", tcell.KeyEnter)
	guest.waitFor("Place the Battleship")
	guest.keys("x", tcell.KeyEnter)
	// The coin flip picks one to fire; the other says whom it waits for.
	turn := func(h *harness) bool {
		txt := h.waitFunc("the first turn", 15*time.Second, func(s string) bool {
			return strings.Contains(s, "fires first") && (strings.Contains(s, "Your turn") || strings.Contains(s, "fires (turn 1)"))
		})
		return strings.Contains(txt, "Your turn")
	}
	if a, b := turn(host), turn(guest); a == b {
		t.Fatalf("both or neither have the first turn\nhost %s\nguest %s", host.dump(), guest.dump())
	}
	// The guest leaves: it asks, then the host wins by forfeit.
	guest.keys("q", "y")
	guest.waitFor("Practice against a bot")
	host.waitFor("you won", "forfeits")
}

// botMatch plays two bots over loopback and returns seat 0's transcript.
func botMatch(t *testing.T, cheatKind string, seed uint64) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pair, err := session.Loopback(ctx, session.LoopbackConfig{Offer: session.Offer{Game: "ubuild"}, HostName: "ann", GuestName: "bob"})
	if err != nil {
		t.Fatal(err)
	}
	defer pair.Close()
	dir := t.TempDir()
	var agents [2]engine.Agent
	for s := range agents {
		agents[s], _ = games.Bot("ubuild", "random", rand.New(rand.NewPCG(seed, uint64(s))))
	}
	var ch fairness.Cheat
	if cheatKind != "" {
		k, err := cheat.Lookup("ubuild", cheatKind)
		if err != nil {
			t.Fatal(err)
		}
		var wrap func(engine.Agent) engine.Agent
		ch, wrap = k.Build()
		if wrap != nil {
			agents[1] = wrap(agents[1])
		}
	}
	var wg sync.WaitGroup
	paths := [2]string{filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")}
	for s := range 2 {
		wg.Add(1)
		go func(s int) {
			defer wg.Done()
			cfg := session.PlayConfig{Key: pair.Keys[s], Agent: agents[s], Transcript: paths[s], Timeout: 10 * time.Second}
			if s == 1 {
				cfg.Cheat = ch
			}
			res, _ := pair.Seats[s].Play(ctx, cfg)
			if res != nil && (res.Closing != nil || res.Cheated) {
				pair.Seats[s].Stream.(interface{ Close() error }).Close()
			}
		}(s)
	}
	wg.Wait()
	return paths[0]
}

func TestAuditViewerStepsThroughAMatch(t *testing.T) {
	t.Parallel()
	path := botMatch(t, "", 11)
	hs := start(t, Config{Offline: true, Start: StartAudit, File: path}, 100, 30)
	hs.waitFor("Audit · a.jsonl", style.OK+" clean:", "won: sank the whole fleet", "Messages", "ann · seat 0", "bob · seat 1")
	last := hs.waitRe(regexp.MustCompile(`step (\d+) of (\d+)`))
	if last[1] != last[2] {
		t.Fatalf("a clean audit should open on the last step: %v", last)
	}
	hs.keys("g")
	hs.waitFor("step 0 of", "header: the match starts")
	hs.keys("n", "n")
	hs.waitFor("step 2 of")
	hs.keys("p")
	hs.waitFor("step 1 of")
	hs.keys("v")
	hs.waitFor("no violation")
	hs.keys("/", "first player", tcell.KeyEnter)
	hs.waitFor("\"first player\" found at step")
	hs.keys("/", "no such text", tcell.KeyEnter)
	hs.waitFor("no step matches")
	hs.keys(tcell.KeyEnter)
	hs.waitFor("raw signed message", "input 1")
	hs.keys(tcell.KeyEscape)
	hs.waitGone("raw signed message")
	// A click on a message selects it.
	hs.keys("g", "n", "n")
	hs.waitFor("step 2 of")
	x, y, ok := hs.find("header: the match starts")
	if !ok {
		t.Fatalf("no header row\n%s", hs.dump())
	}
	hs.click(x, y)
	hs.waitFor("step 0 of")
}

func TestAuditViewerJumpsToTheViolation(t *testing.T) {
	t.Parallel()
	path := botMatch(t, "wrong-ship", 4)
	hs := start(t, Config{Offline: true, Start: StartAudit, File: path}, 100, 30)
	txt := hs.waitFor(style.Fail+" violation by seat 1 bob", "not of the")
	if !regexp.MustCompile(style.Fail + ` +\d+ bob +move`).MatchString(txt) {
		t.Fatalf("no failing message in the list\n%s", txt)
	}
	first := hs.waitRe(regexp.MustCompile(`step (\d+) of`))
	hs.keys("g")
	hs.waitFor("step 0 of")
	hs.keys("v")
	hs.waitFor("step " + first[1] + " of")
	hs.keys(tcell.KeyEnter)
	hs.waitFor("answers", "opens grid[")
}

func TestAuditViewerOnAFileThatIsNotATranscript(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "x.jsonl")
	if err := os.WriteFile(p, []byte("hello\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	hs := start(t, Config{Offline: true, Start: StartAudit, File: p}, 100, 30)
	hs.waitFor(style.Fail+" cannot audit", "is not a header")
	hs.keys("q")
	hs.waitFor("Practice against a bot")
}

func TestInviteAPeerAndAccept(t *testing.T) {
	t.Parallel()
	// Bob waits in his lobby with his host up (no mDNS: the test hands Ann
	// Bob's addresses as the LAN discovery would).
	bob := start(t, Config{Name: "bob", Timeout: 20 * time.Second}, 100, 30)
	bob.waitFor("Practice against a bot", "LAN discovery off")
	var info p2p.PeerInfo
	bob.onUI(func() {
		h := bob.app.net.host
		info = p2p.PeerInfo{ID: h.ID(), Addrs: h.Libp2p().Addrs(), Name: "bob"}
	})
	ann := start(t, Config{Offline: true, Name: "ann", Timeout: 20 * time.Second}, 100, 30)
	ann.onUI(func() { ann.app.invitePeer(info) })
	ann.waitFor("inviting bob and waiting for the answer")
	bob.waitFor("Invitation", "ann", "invites you to play", "offers U-Build (standard)")
	bob.keys("y")
	ann.waitFor("vs bob", "Place the Battleship")
	bob.waitFor("vs ann", "waiting for ann")
}

func TestDecliningAnInvitation(t *testing.T) {
	t.Parallel()
	bob := start(t, Config{Name: "bob"}, 100, 30)
	bob.waitFor("LAN discovery off")
	var info p2p.PeerInfo
	bob.onUI(func() {
		h := bob.app.net.host
		info = p2p.PeerInfo{ID: h.ID(), Addrs: h.Libp2p().Addrs()}
	})
	ann := start(t, Config{Offline: true, Name: "ann"}, 100, 30)
	ann.onUI(func() { ann.app.invitePeer(info) })
	bob.waitFor("invites you to play")
	bob.keys("n")
	ann.waitFor(style.Fail + " match declined: the player declined")
	ann.keys(tcell.KeyEscape)
	ann.waitFor("Practice against a bot")
}
