package tui

import (
	"context"
	"errors"
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
	"github.com/salvo-game/salvo/tui/board/boardtest"
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
	s.hs.WaitFor("Place the Battleship")
	s.hs.Keys("x", tcell.KeyEnter)
}

// move brings the cursor to cell i.
func (s *shooter) move(i int) {
	dr, dc := i/10-s.cur/10, i%10-s.cur%10
	for ; dr > 0; dr-- {
		s.hs.Keys(tcell.KeyDown)
	}
	for ; dr < 0; dr++ {
		s.hs.Keys(tcell.KeyUp)
	}
	for ; dc > 0; dc-- {
		s.hs.Keys(tcell.KeyRight)
	}
	for ; dc < 0; dc++ {
		s.hs.Keys(tcell.KeyLeft)
	}
	s.cur = i
}

// turn waits for our turn (or the end) and fires one volley; it returns
// the screen and whether the match ended.
func (s *shooter) turn() (string, bool) {
	txt := s.hs.WaitFunc("our turn or the end", 30*time.Second, func(t string) bool {
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
		s.hs.Keys(" ")
		s.next++
	}
	marked := fmt.Sprintf("%d marked", n)
	if txt := s.hs.WaitFunc(marked, 30*time.Second, func(t string) bool { return strings.Contains(t, marked) || ended(t) }); ended(txt) {
		return txt, true
	}
	s.hs.Keys(tcell.KeyEnter)
	s.volleys++
	// The other side's volley (turn last+2) comes before our next turn.
	txt = s.hs.WaitFunc(fmt.Sprintf("turn %d to pass", last+1), 30*time.Second, func(t string) bool {
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
	s.hs.t.Fatalf("the match did not end in 200 volleys\n%s", s.hs.Dump())
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
	rep, err := fairness.AuditFile(path, games.Spec)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestPracticeFullGameAgainstTheBot(t *testing.T) {
	t.Parallel()
	hs := start(t, Config{Offline: true, Name: "ann", Bot: "random", BotSeed: 3}, 100, 30)
	hs.WaitFor("Practice against a bot")
	hs.Keys(tcell.KeyEnter) // the first menu item
	sh := &shooter{hs: hs}
	sh.place()
	hs.WaitFor("seq", style.OK+" in sync", "Verification")
	end := sh.playOut()
	won := strings.Contains(end, "you won")
	if !won && !strings.Contains(end, "you lost") {
		t.Fatalf("the match did not end by the rules\n%s", hs.Dump())
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
	hs.Keys("l")
	hs.WaitFor("Verification (↑↓ enter raw)")
	hs.Keys(tcell.KeyUp, tcell.KeyUp, tcell.KeyEnter)
	hs.WaitFor("raw signed message", "signature")
	hs.Keys(tcell.KeyEscape, "l")
	// a opens the audit viewer on this match.
	hs.Keys("a")
	hs.WaitFor("Audit · "+filepath.Base(path), style.OK+" clean:")
	hs.Keys("q")
	hs.WaitFor("q lobby")
	hs.Keys(tcell.KeyEnter) // does not leave the ended match
	hs.Keys("q")
	hs.WaitFor("Recent matches", "vs bot (random)", style.OK+" clean")
}

func TestCustomVariantArmsTheFleet(t *testing.T) {
	t.Parallel()
	hs := start(t, Config{Offline: true, Variant: "custom", Bot: "random", BotSeed: 5}, 100, 30)
	hs.Keys("p")
	sh := &shooter{hs: hs}
	sh.place()
	// The build starts from the standard counts, a build enter commits.
	hs.WaitFor("Build your fleet", "all 20 weapons given", "20 of 20 weapons")
	hs.Keys(tcell.KeyRight) // refused: nothing left to give
	hs.WaitFor("take one from another ship first")
	// Move two weapons to the Battleship: one from the PT Boat, one from the
	// Submarine; enter is refused while one is still to give.
	hs.Keys(tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyLeft)
	hs.WaitFor("1 left to give")
	hs.Keys(tcell.KeyEnter)
	hs.WaitFor("19, not 20")
	hs.Keys(tcell.KeyUp, tcell.KeyLeft, tcell.KeyUp, tcell.KeyUp, tcell.KeyUp, tcell.KeyRight, tcell.KeyRight, tcell.KeyEnter)
	for range 3 {
		if _, done := sh.turn(); done {
			t.Fatalf("the match ended early\n%s", hs.Dump())
		}
	}
	// Our Battleship fired with its 8 weapons (some may be lost to hits).
	hs.WaitRe(regexp.MustCompile(`Battleship [■□]{8} `))
}

func TestCheatIsCaughtAndShown(t *testing.T) {
	t.Parallel()
	hs := start(t, Config{Offline: true, Name: "ann", Bot: "random", BotSeed: 9, BotCheat: "miss-on-hit"}, 100, 30)
	hs.Keys("p")
	sh := &shooter{hs: hs}
	sh.place()
	end := sh.playOut()
	if !strings.Contains(end, "CHEATING DETECTED") {
		t.Fatalf("no cheat panel\n%s", hs.Dump())
	}
	hs.WaitFor("bot (random) broke the rules", "Claimed", "answers", "miss", "Their proof", "holds the", "Broken rule", "not a miss",
		"Transcript", "CHEAT DETECTED", style.Fail+" stopped")
	path := transcriptOf(hs)
	rep := audit(t, path)
	if rep.Verdict != fairness.Violated || rep.Violation.Seat != 1 {
		t.Fatalf("audit of the cheated match: %s", rep.Summary())
	}
	hs.Keys("a")
	hs.WaitFor("violation by seat 1 bot (random)")
	hs.Keys("q", "q")
	hs.WaitFor("Practice against a bot")
}

func TestForgedRollIsCaughtAtTheCoinFlip(t *testing.T) {
	t.Parallel()
	hs := start(t, Config{Offline: true, BotCheat: "forged-roll"}, 80, 24)
	hs.Keys("p")
	(&shooter{hs: hs}).place()
	hs.WaitFor("CHEATING DETECTED", "dice share for roll 0", "Broken rule")
}

// TestEveryCheatIsCaught plays against a bot cheating in each known way:
// the match screen must show the cheat panel every time.
func TestEveryCheatIsCaught(t *testing.T) {
	t.Parallel()
	for _, k := range cheat.Kinds("ubuild") {
		t.Run(k.Name, func(t *testing.T) {
			t.Parallel()
			hs := start(t, Config{Offline: true, Bot: "random", BotSeed: 2, BotCheat: k.Name}, 100, 30)
			hs.Keys("p")
			sh := &shooter{hs: hs}
			sh.place()
			end := sh.playOut()
			if k.Name == "go-silent" {
				// Going silent is not a forged message: it forfeits.
				if !strings.Contains(end, "you won") || !strings.Contains(end, "forfeits") {
					t.Fatalf("a silent bot did not forfeit\n%s", hs.Dump())
				}
				return
			}
			if !strings.Contains(end, "CHEATING DETECTED") {
				t.Fatalf("%s (%s) was not caught\n%s", k.Name, k.About, hs.Dump())
			}
			hs.WaitFor("Broken rule", "Transcript")
		})
	}
}

func TestLeavingALiveMatchAsksFirst(t *testing.T) {
	t.Parallel()
	hs := start(t, Config{Offline: true}, 100, 30)
	hs.Keys("p")
	hs.WaitFor("Place the Battleship")
	path := transcriptOf(hs)
	hs.Keys("q")
	hs.WaitFor("Leave the match?", "abandons the match")
	hs.Keys("n")
	hs.WaitGone("Leave the match?")
	hs.WaitFor("Place the Battleship")
	hs.Keys(tcell.KeyCtrlC)
	hs.WaitFor("Quit Salvo?")
	hs.Keys(tcell.KeyEscape, "q", "y")
	hs.WaitFor("Practice against a bot")
	// Issue 14 point 3: the left match's transcript ends with our own
	// signed forfeit, as the dialog said, not "incomplete".
	waitOwnForfeit(t, path)
}

func TestEightyByTwentyFourKeepsEverything(t *testing.T) {
	t.Parallel()
	hs := firstTurn(t, Config{Offline: true, Bot: "random"}, 80, 24)
	txt := hs.WaitFor("Your ocean", "Target", "Verification", "J ", "Fleet", "PT Boat", "Your turn", "enter fire", "? help", "q leave")
	for i, l := range strings.Split(strings.TrimRight(txt, "\n"), "\n") {
		if n := len([]rune(l)); n != 80 {
			t.Fatalf("line %d is %d cells", i, n)
		}
	}
}

func TestNoColourMatch(t *testing.T) {
	t.Parallel()
	hs := firstTurn(t, Config{Offline: true, Theme: style.New(true), Bot: "random"}, 100, 30)
	if c := boardtest.Coloured(hs.cells(), hs.w); c != "" {
		t.Fatalf("%s\n%s", c, hs.Dump())
	}
}

func TestHostAndJoinByCode(t *testing.T) {
	t.Parallel()
	host := start(t, Config{Offline: true, Name: "ann", Start: StartHost, Timeout: 20 * time.Second}, 100, 30)
	host.WaitFor("invite code", "waiting for a player to join")
	var code string
	host.onUI(func() { code = host.app.top().(*hostScreen).code })
	if !strings.HasPrefix(code, "SALVO1-") {
		t.Fatalf("code %q", code)
	}
	guest := start(t, Config{Offline: true, Name: "bob", Start: StartJoin, Code: code, Timeout: 20 * time.Second}, 100, 30)
	// Both place at once (the host, seat 0, commits first on the wire);
	// the guest, done first, says what it waits for.
	host.WaitFor("vs bob", "Place the Battleship")
	guest.WaitFor("vs ann", "Place the Battleship")
	guest.Keys("x", tcell.KeyEnter)
	guest.WaitFor("waiting for ann: ann commits its grid")
	host.Keys("x", tcell.KeyEnter)
	// The coin flip picks one to fire; the other says whom it waits for.
	turn := func(h *harness) bool {
		txt := h.WaitFunc("the first turn", 15*time.Second, func(s string) bool {
			return strings.Contains(s, "fires first") && (strings.Contains(s, "Your turn") || strings.Contains(s, "fires (turn 1)"))
		})
		return strings.Contains(txt, "Your turn")
	}
	if a, b := turn(host), turn(guest); a == b {
		t.Fatalf("both or neither have the first turn\nhost %s\nguest %s", host.Dump(), guest.Dump())
	}
	// The guest leaves: it asks, then the host wins by forfeit.
	guest.Keys("q", "y")
	guest.WaitFor("Practice against a bot")
	host.WaitFor("you won", "forfeits")
	// The host's audit of it says what happened in words, not the error
	// chain its referee wrote in the closing record.
	host.resize(120, 40)
	host.Keys("a")
	txt := host.WaitFor("forfeit", "bob (", "left the match", "its own signed word")
	if verdict := strings.Join(strings.Split(txt, "\n")[:6], "\n"); strings.Contains(verdict, "session:") || strings.Contains(verdict, "recv:") {
		t.Fatalf("the verdict carries an internal error chain\n%s", txt)
	}
}

// botMatch plays two U-Build bots over loopback and returns seat 0's
// transcript.
func botMatch(t *testing.T, cheatKind string, seed uint64) string {
	t.Helper()
	return botMatchOf(t, "ubuild", cheatKind, seed)
}

// botMatchOf is botMatch for game.
func botMatchOf(t *testing.T, game, cheatKind string, seed uint64) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pair, err := session.Loopback(ctx, session.LoopbackConfig{Offer: session.Offer{Game: game}, HostName: "ann", GuestName: "bob"})
	if err != nil {
		t.Fatal(err)
	}
	defer pair.Close()
	dir := t.TempDir()
	var agents [2]engine.Agent
	for s := range agents {
		agents[s], _ = games.Bot(game, "random", rand.New(rand.NewPCG(seed, uint64(s))))
	}
	var ch *cheat.Peer
	if cheatKind != "" {
		k, err := cheat.Lookup(game, cheatKind)
		if err != nil {
			t.Fatal(err)
		}
		var wrap func(engine.Agent) engine.Agent
		ch, wrap = k.Peer()
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
				cfg.Hooks = ch.Hooks()
			}
			res, _ := pair.Seats[s].Play(ctx, cfg)
			if res != nil && res.Closing != nil || s == 1 && ch.Cheated() {
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
	hs.WaitFor("Audit · a.jsonl", style.OK+" clean:", "won: sank the whole fleet", "Messages", "ann · seat 0", "bob · seat 1", "answer,volley")
	last := hs.WaitRe(regexp.MustCompile(`step (\d+) of (\d+)`))
	if last[1] != last[2] {
		t.Fatalf("a clean audit should open on the last step: %v", last)
	}
	hs.Keys("g")
	hs.WaitFor("step 0 of", "header: the match starts")
	hs.Keys("n", "n")
	hs.WaitFor("step 2 of")
	hs.Keys("p")
	hs.WaitFor("step 1 of")
	hs.Keys("v")
	hs.WaitFor("no violation")
	hs.Keys("/", "first player", tcell.KeyEnter)
	hs.WaitFor("\"first player\" found at step")
	hs.Keys("/", "no such text", tcell.KeyEnter)
	hs.WaitFor("no step matches")
	hs.Keys(tcell.KeyEnter)
	hs.WaitFor("raw signed message", "input 1")
	hs.Keys(tcell.KeyEscape)
	hs.WaitGone("raw signed message")
	// A click on a message selects it.
	hs.Keys("g", "n", "n")
	hs.WaitFor("step 2 of")
	x, y, ok := hs.Find("header: the match starts")
	if !ok {
		t.Fatalf("no header row\n%s", hs.Dump())
	}
	hs.Click(x, y)
	hs.WaitFor("step 0 of")
}

func TestAuditViewerJumpsToTheViolation(t *testing.T) {
	t.Parallel()
	path := botMatch(t, "wrong-ship", 4)
	hs := start(t, Config{Offline: true, Start: StartAudit, File: path}, 100, 30)
	txt := hs.WaitFor(style.Fail+" violation by seat 1 bob", "not of the")
	if !regexp.MustCompile(style.Fail + ` +\d+ bob +move`).MatchString(txt) {
		t.Fatalf("no failing message in the list\n%s", txt)
	}
	first := hs.WaitRe(regexp.MustCompile(`step (\d+) of`))
	hs.Keys("g")
	hs.WaitFor("step 0 of")
	hs.Keys("v")
	hs.WaitFor("step " + first[1] + " of")
	hs.Keys(tcell.KeyEnter)
	hs.WaitFor("answers", "opens grid[")
}

func TestAuditViewerOnAFileThatIsNotATranscript(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "x.jsonl")
	if err := os.WriteFile(p, []byte("hello\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	hs := start(t, Config{Offline: true, Start: StartAudit, File: p}, 100, 30)
	hs.WaitFor(style.Fail+" cannot audit", "is not a header")
	hs.Keys("q")
	hs.WaitFor("Practice against a bot")
}

func TestInviteAPeerAndAccept(t *testing.T) {
	t.Parallel()
	// Bob waits in his lobby with his host up (no mDNS: the test hands Ann
	// Bob's addresses as the LAN discovery would).
	bob := start(t, Config{Name: "bob", Timeout: 20 * time.Second}, 100, 30)
	bob.WaitFor("Practice against a bot", "LAN discovery off")
	var info p2p.PeerInfo
	bob.onUI(func() {
		h := bob.app.net.host
		info = p2p.PeerInfo{ID: h.ID(), Addrs: h.Libp2p().Addrs(), Name: "bob"}
	})
	ann := start(t, Config{Offline: true, Name: "ann", Timeout: 20 * time.Second}, 100, 30)
	ann.onUI(func() { ann.app.invitePeer(info) })
	ann.WaitFor("inviting bob and waiting for the answer")
	bob.WaitFor("Invitation", "ann", "invites you to play", "offers U-Build (standard)")
	bob.Keys("y")
	ann.WaitFor("vs bob", "Place the Battleship")
	bob.WaitFor("vs ann", "Place the Battleship") // at once, while ann places
}

func TestDecliningAnInvitation(t *testing.T) {
	t.Parallel()
	bob := start(t, Config{Name: "bob"}, 100, 30)
	bob.WaitFor("LAN discovery off")
	var info p2p.PeerInfo
	bob.onUI(func() {
		h := bob.app.net.host
		info = p2p.PeerInfo{ID: h.ID(), Addrs: h.Libp2p().Addrs()}
	})
	ann := start(t, Config{Offline: true, Name: "ann"}, 100, 30)
	ann.onUI(func() { ann.app.invitePeer(info) })
	bob.WaitFor("invites you to play")
	bob.Keys("n")
	ann.WaitFor(style.Fail + " match declined: the player declined")
	ann.Keys(tcell.KeyEscape)
	ann.WaitFor("Practice against a bot")
}

// TestLobbyListsLANPeersAndJoinsOne: with mDNS on, a lobby lists the
// Salvo peers on the LAN live, with their names and the game they offer,
// and enter on a peer that hosts joins its game.
func TestLobbyListsLANPeersAndJoinsOne(t *testing.T) {
	t.Parallel()
	host := start(t, Config{Name: "bob", MDNS: true, Start: StartHost, Timeout: 20 * time.Second}, 100, 30)
	host.WaitFor("invite code", "waiting for a player to join")
	var discErr error
	host.onUI(func() { discErr = host.app.net.host.DiscoveryErr() })
	if errors.Is(discErr, p2p.ErrNoMulticast) {
		t.Skip("skipping: this machine has no multicast-capable network interface")
	}
	guest := start(t, Config{Name: "ann", MDNS: true, Timeout: 20 * time.Second}, 100, 30)
	guest.WaitFunc("bob's offer in the peers pane", 30*time.Second, func(s string) bool {
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, "bob") && strings.Contains(l, "offers U-Build (standard)") && strings.Contains(l, "[enter] join") {
				return true
			}
		}
		return false
	})
	// Other Salvo peers may be on this machine's network too: go down to
	// bob's row.
	row := -1
	guest.onUI(func() {
		for i, p := range guest.app.lobby.peers() {
			if p.Name == "bob" {
				row = i
			}
		}
	})
	if row < 0 {
		t.Fatal("bob is on the screen but not in the lobby's peer list")
	}
	guest.Keys(tcell.KeyTab)
	for range row {
		guest.Keys(tcell.KeyDown)
	}
	guest.Keys(tcell.KeyEnter)
	host.WaitFor("vs ann", "Place the Battleship")
	guest.WaitFor("vs bob")
}

// firstTurn starts a practice U-Build match at w×h, places the fleet and
// plays our first turn.
func firstTurn(t *testing.T, cfg Config, w, h int) *harness {
	t.Helper()
	hs := start(t, cfg, w, h)
	hs.Keys("p")
	sh := &shooter{hs: hs}
	sh.place()
	sh.turn()
	return hs
}
