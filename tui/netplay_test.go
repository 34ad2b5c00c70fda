package tui

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/session"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/style"
)

// tryUI runs f on the tview goroutine and waits for it; it reports false
// (without failing the test: any goroutine may call it) when the interface
// has stopped or does not answer.
func (hs *harness) tryUI(f func()) bool {
	select {
	case <-hs.stopped:
		return false
	default:
	}
	done := make(chan struct{})
	hs.app.post(func() { f(); close(done) })
	select {
	case <-done:
		return true
	case <-hs.stopped:
		return false
	case <-time.After(5 * time.Second):
		return false
	}
}

// matchOf returns the match screen of an app, if one is open.
func matchOf(a *App) *matchScreen {
	for i := len(a.stack) - 1; i >= 0; i-- {
		if m, ok := a.stack[i].(*matchScreen); ok {
			return m
		}
	}
	return nil
}

// driver answers the local player's requests on an app's match screen with
// a bot's decisions, through the same Request.Reply the board's keys use:
// the whole match then runs through the interface's human agent at a
// bot's pace. The key-driven play is tested elsewhere.
type driver struct {
	hs     *harness
	seed   uint64
	paused atomic.Bool
	acks   atomic.Uint64 // loops that saw paused
	errs   chan error
	stop   chan struct{}
	done   chan struct{}
}

func drive(hs *harness, seed uint64) *driver {
	d := &driver{hs: hs, seed: seed, errs: make(chan error, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go d.run()
	hs.t.Cleanup(d.halt)
	return d
}

func (d *driver) run() {
	defer close(d.done)
	var last *board.Request
	var bot engine.Agent
	for {
		select {
		case <-d.stop:
			return
		case <-time.After(2 * time.Millisecond):
		}
		if d.paused.Load() {
			d.acks.Add(1)
			continue
		}
		var req *board.Request
		var game string
		if !d.hs.tryUI(func() {
			if ms := matchOf(d.hs.app); ms != nil && ms.asking() {
				req, game = ms.req, ms.spec.Name
			}
		}) || req == nil || req == last {
			continue
		}
		if bot == nil {
			bot, _ = games.Bot(game, "strong", rand.New(rand.NewPCG(d.seed, 7)))
		}
		dec, err := bot.Decide(context.Background(), req.Game, req.Seat, req.Secrets, req.Need)
		if err == nil {
			err = req.Reply(dec)
		}
		if err != nil && req.Pending() {
			select {
			case d.errs <- err:
			default:
			}
			return
		}
		last = req
	}
}

// pause stops the driver answering and returns once no answer of its is
// on its way.
func (d *driver) pause() {
	d.paused.Store(true)
	n := d.acks.Load()
	for d.acks.Load() == n {
		select {
		case <-d.done:
			return
		case <-time.After(time.Millisecond):
		}
	}
}

// halt stops the driver and reports a decision it could not make.
func (d *driver) halt() {
	select {
	case <-d.stop:
	default:
		close(d.stop)
	}
	<-d.done
	select {
	case err := <-d.errs:
		d.hs.t.Errorf("the driver could not answer a request: %v", err)
	default:
	}
}

// seqOf returns the last message number a match screen has seen.
func seqOf(hs *harness) uint64 {
	var seq uint64
	hs.onUI(func() {
		if ms := matchOf(hs.app); ms != nil {
			seq = ms.seq
		}
	})
	return seq
}

// waitSeq waits until the match screen has seen message n.
func waitSeq(t *testing.T, hs *harness, n uint64) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for seqOf(hs) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the match did not reach message %d\n%s", n, hs.Dump())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitAsked waits until the local player is asked for a decision.
func waitAsked(t *testing.T, hs *harness) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		asked := false
		hs.onUI(func() { asked = matchOf(hs.app) != nil && matchOf(hs.app).asking() })
		if asked {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the player was never asked\n%s", hs.Dump())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// kindsOf returns the connection kinds the title bar showed, in order.
func kindsOf(hs *harness) []string {
	var out []string
	hs.onUI(func() {
		if ms := matchOf(hs.app); ms != nil {
			out = slices.Clone(ms.kinds)
		}
	})
	return out
}

// netPair hosts a two-player game of game in one app and joins it by code
// from another, both on loopback hosts; both reach the match screen.
func netPair(t *testing.T, game string, host, guest Config) (*harness, *harness) {
	t.Helper()
	host.Name, host.Start, host.Game = "ann", StartHost, game
	if host.Timeout == 0 {
		host.Timeout = 20 * time.Second
	}
	h := start(t, host, 100, 30)
	h.WaitFor("invite code", "waiting for a player to join")
	var code string
	h.onUI(func() { code = h.app.top().(*hostScreen).code })
	guest.Name, guest.Start, guest.Code = "bob", StartJoin, code
	if guest.Timeout == 0 {
		guest.Timeout = 20 * time.Second
	}
	g := start(t, guest, 100, 30)
	h.WaitFor("vs bob")
	g.WaitFor("vs ann")
	return h, g
}

// auditFile audits a transcript.
func auditFile(t *testing.T, path string) *fairness.Report {
	t.Helper()
	return audit(t, path)
}

// sameTranscripts fails unless both transcripts hold the same lines.
func sameTranscripts(t *testing.T, a, b string) {
	t.Helper()
	x, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if string(x) != string(y) {
		t.Fatalf("the two sides' transcripts differ:\n%s\n%s", x, y)
	}
}

// endOf waits for the end of the match on a screen.
func endOf(hs *harness) string {
	hs.t.Helper()
	return hs.WaitFunc("the end of the match", 45*time.Second, ended)
}

func newTestKey(t *testing.T) crypto.PrivKey {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestNetMatchSurvivesADroppedLink plays a human-vs-human match over the
// network whose connection is closed mid-match, and the joiner cannot
// dial back for a while: both title bars and the wait line say
// "reconnecting · N s, gives up in M:SS", the match resumes with no message lost, finishes
// by the rules, and both transcripts are the same and audit clean.
func TestNetMatchSurvivesADroppedLink(t *testing.T) {
	t.Parallel()
	host, guest := netPair(t, "ubuild", Config{Offline: true}, Config{Offline: true})
	host.WaitFor("LAN direct")
	// The title bar names the peer, the kind of connection and its
	// round-trip time.
	host.WaitRe(regexp.MustCompile(`vs bob .*LAN direct · rtt \d+ ms`))
	drive(host, 1)
	drive(guest, 2)
	waitSeq(t, host, 12)

	var hostID, guestID peer.ID
	var hostNet, guestNet *p2p.Host
	host.onUI(func() { hostNet = host.app.net.host })
	guest.onUI(func() { guestNet = guest.app.net.host })
	hostID, guestID = hostNet.ID(), guestNet.ID()
	// The joiner re-dials: it cannot for now, the host listens nowhere.
	// (Emptying the joiner's peerstore no longer stops it: every redial
	// adds the addresses stored with the match back.)
	sw := hostNet.Libp2p().Network().(*swarm.Swarm)
	listen := sw.ListenAddresses()
	sw.ListenClose(listen...)
	_ = guestNet.Libp2p().Network().ClosePeer(hostID)
	_ = hostNet.Libp2p().Network().ClosePeer(guestID)
	at := seqOf(host)

	for _, h := range []*harness{host, guest} {
		txt := h.WaitFor("reconnecting · ", "the link to")
		if ended(txt) {
			t.Fatalf("the match ended when the link dropped\n%s", txt)
		}
	}
	if !strings.Contains(host.line(0), "reconnecting · ") {
		t.Fatalf("the title bar does not say reconnecting\n%s", host.Dump())
	}
	if err := sw.Listen(listen...); err != nil { // the same ports the joiner stored
		t.Fatal(err)
	}
	for _, h := range []*harness{host, guest} {
		h.WaitFunc("the link back", 30*time.Second, func(s string) bool { return ended(s) || !strings.Contains(s, "reconnecting") })
	}
	for _, h := range []*harness{host, guest} {
		end := endOf(h)
		if !strings.Contains(end, "you won") && !strings.Contains(end, "you lost") || strings.Contains(end, "forfeit") {
			t.Fatalf("the match did not end by the rules\n%s", end)
		}
		ks := kindsOf(h)
		i := slices.Index(ks, session.KindReconnecting)
		// The title reads the link's kind once more as the match ends, so
		// a match that played out within one poll (KindEvery) of the
		// link's return still shows the link back.
		if i < 1 || i == len(ks)-1 || ks[i+1] != p2p.KindLAN || ks[0] != p2p.KindLAN {
			t.Fatalf("the title bar showed %v: want LAN direct, reconnecting, LAN direct", ks)
		}
	}
	if seqOf(host) <= at {
		t.Fatalf("no message after the drop (%d)", at)
	}
	hp, gp := transcriptOf(host), transcriptOf(guest)
	sameTranscripts(t, hp, gp)
	for _, p := range []string{hp, gp} {
		if rep := auditFile(t, p); rep.Verdict != fairness.Clean {
			t.Fatalf("%s: %s", p, rep.Summary())
		}
	}
}

// TestNetMatchResumesAfterARestart stops the host's program mid-match (its
// referee stops without a word, as a crash would leave it) and starts a new
// one on the same data directory and identity: its lobby lists the match
// as one to resume, enter takes it up again, the joiner (which said
// "reconnecting" meanwhile) plays on, and the match finishes with the same
// clean transcript on both sides.
func TestNetMatchResumesAfterARestart(t *testing.T) {
	t.Parallel()
	dir, key := t.TempDir(), newTestKey(t)
	host, guest := netPair(t, "ubuild", Config{Offline: true, DataDir: dir, Key: key}, Config{Offline: true})
	hd := drive(host, 3)
	drive(guest, 4)
	waitSeq(t, host, 10)
	hd.halt()
	id := ""
	host.onUI(func() { id = matchOf(host.app).st.header().Match })
	host.stop()
	guest.WaitFor("reconnecting · ", "the link to ann dropped")

	saved, err := session.Store{Dir: filepath.Join(dir, MatchesDir)}.List()
	if err != nil || len(saved) != 1 || !saved[0].InProgress() || saved[0].Match != id {
		t.Fatalf("the store after the stop: %+v, %v", saved, err)
	}
	again := start(t, Config{Name: "ann", DataDir: dir, Key: key, Timeout: 20 * time.Second}, 100, 30)
	again.WaitFor(style.Play+" resume", "U-Build vs bob", "at message")
	again.Keys(tcell.KeyTab, tcell.KeyTab)
	again.WaitFor("enter resume")
	again.Keys(tcell.KeyEnter)
	again.WaitFor("vs bob")
	drive(again, 5)
	for _, h := range []*harness{again, guest} {
		end := endOf(h)
		if !strings.Contains(end, "you won") && !strings.Contains(end, "you lost") || strings.Contains(end, "forfeit") {
			t.Fatalf("the resumed match did not end by the rules\n%s", end)
		}
	}
	// The link back shows at the end, however soon the match played out
	// (the title reads the kind once more as it ends).
	if ks := kindsOf(guest); !slices.Contains(ks, session.KindReconnecting) || ks[0] != p2p.KindLAN || ks[len(ks)-1] == session.KindReconnecting {
		t.Fatalf("the joiner's title bar showed %v", ks)
	}
	ap, gp := transcriptOf(again), transcriptOf(guest)
	// The same file as before the stop, under the name every transcript
	// has (date-time, game, opponent, match ID digits).
	if b := filepath.Base(ap); !strings.Contains(b, "-ubuild-vs-bob-"+id[:8]+".jsonl") {
		t.Fatalf("the resumed match writes %s", ap)
	}
	sameTranscripts(t, ap, gp)
	for _, p := range []string{ap, gp} {
		if rep := auditFile(t, p); rep.Verdict != fairness.Clean {
			t.Fatalf("%s: %s", p, rep.Summary())
		}
	}
	// Back in the lobby, the match is a record, no longer one to resume.
	again.Keys("q")
	txt := again.WaitFor("Recent matches", "U-Build vs bob", style.OK+" clean")
	if strings.Contains(txt, style.Play+" resume") {
		t.Fatalf("a finished match is still offered for resuming\n%s", txt)
	}
}

// TestLeavingANetMatchIsAForfeitAtOnce leaves a live match on purpose (q,
// then yes) while it is the leaver's turn: the other side ends the match at
// once as a forfeit (its give-up time is two minutes), its transcript
// audits as that forfeit, and the leaver's lobby does not offer to resume
// the match.
func TestLeavingANetMatchIsAForfeitAtOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	host, guest := netPair(t, "ubuild", Config{Offline: true}, Config{Offline: true, DataDir: dir})
	drive(host, 5)
	gd := drive(guest, 6)
	waitSeq(t, guest, 8)
	gd.paused.Store(true)
	waitAsked(t, guest)
	guest.Keys("q")
	guest.WaitFor("Leave the match?", "ann wins by forfeit at once")
	left := time.Now()
	guest.Keys("y")
	txt := guest.WaitFor("Practice against a bot", "Recent matches")
	end := host.WaitFor("you won", "bob left the match and forfeits")
	if d := time.Since(left); d > 15*time.Second {
		t.Fatalf("the forfeit took %v", d)
	}
	if strings.Contains(end, "reconnecting") {
		t.Fatalf("the host waited for a peer that left\n%s", end)
	}
	rep := auditFile(t, transcriptOf(host))
	if rep.Verdict != fairness.Forfeit {
		b, _ := os.ReadFile(transcriptOf(host))
		lines := strings.Split(string(b), "\n")
		t.Fatalf("the host's transcript: %s\n%s\n%s\n%s", rep.Summary(), strings.Join(lines[max(0, len(lines)-4):], "\n"), guest.Dump(), host.Dump())
	}
	// Issue 14 point 3: the leaver's own transcript ends with its signed
	// forfeit, the very record the host keeps.
	store := session.Store{Dir: filepath.Join(dir, MatchesDir)}
	own := auditFile(t, store.Transcript(rep.Header.Match))
	if own.Verdict != fairness.Forfeit || rep.Closing == nil || own.Closing == nil || *own.Closing != *rep.Closing {
		t.Fatalf("the leaver's transcript: %s (closing %+v, the host's %+v)", own.Summary(), own.Closing, rep.Closing)
	}
	saved, err := store.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range saved {
		if s.InProgress() {
			t.Fatalf("the match left on purpose can still be resumed: %+v", s)
		}
	}
	guest.WaitFor("U-Build vs ann")
	if txt = guest.Text(); strings.Contains(txt, style.Play+" resume") {
		t.Fatalf("the lobby offers to resume a match left on purpose\n%s", txt)
	}
}

// TestPeerThatNeverComesBackForfeits stops the joiner's program mid-match
// for good: the host says "reconnecting · N s, gives up in M:SS" and, after its give-up
// time, ends the match as the joiner's forfeit, saying so.
func TestPeerThatNeverComesBackForfeits(t *testing.T) {
	t.Parallel()
	host, guest := netPair(t, "ubuild", Config{Offline: true, GiveUp: 1500 * time.Millisecond}, Config{Offline: true})
	drive(host, 7)
	gd := drive(guest, 8)
	waitSeq(t, host, 6)
	gd.paused.Store(true)
	waitAsked(t, guest) // the host then waits for the joiner
	gd.halt()
	guest.stop()
	host.WaitFor("reconnecting · ")
	end := host.WaitFor("you won", "bob did not come back within 1.5s and forfeits")
	if strings.Contains(end, "reconnecting") {
		t.Fatalf("the end screen still says reconnecting\n%s", end)
	}
	if rep := auditFile(t, transcriptOf(host)); rep.Verdict != fairness.Forfeit {
		t.Fatalf("the host's transcript: %s", rep.Summary())
	}
}

// TestOthersGoneWhileWeOweAMove stops the joiner for good while the host's
// player owes a move. After its give-up time the host is told the other
// side is gone; a forfeit it claimed at its own turn would be refused, so
// its move comes first: made, the joiner forfeits; leaving instead signs
// nothing (the other side left first) and the record stays unfinished.
func TestOthersGoneWhileWeOweAMove(t *testing.T) {
	for _, move := range []bool{true, false} {
		t.Run(fmt.Sprintf("move %v", move), func(t *testing.T) {
			t.Parallel()
			host, guest := netPair(t, "ubuild", Config{Offline: true, GiveUp: 1500 * time.Millisecond}, Config{Offline: true})
			hd := drive(host, 7)
			drive(guest, 8)
			waitSeq(t, host, 6)
			hd.pause()
			waitAsked(t, host) // the match waits for the host's player
			guest.stop()
			host.WaitFor("bob is gone: your move ends the match", "link lost")
			path := transcriptOf(host)
			if move {
				hd.paused.Store(false)
				host.WaitFor("you won", "forfeit")
				if rep := auditFile(t, path); rep.Verdict != fairness.Forfeit || rep.Closing.Seat != 1 {
					t.Fatalf("the host's transcript: %s; want bob's forfeit", rep.Summary())
				}
				return
			}
			hd.halt()
			host.Keys("q")
			host.WaitFor("The others are gone", "records nobody's forfeit")
			host.Keys("y")
			host.WaitFor("Practice against a bot")
			if rep := auditFile(t, path); rep.Verdict != fairness.Incomplete || rep.Closing != nil {
				t.Fatalf("the host's transcript after leaving: %s; want it unfinished, with no forfeit of ours", rep.Summary())
			}
		})
	}
}

// TestDealtHandShowsBeforeTheFirstQuestion hosts and joins a two-player
// Mission Command Air match: in round 1 both players are asked for their
// card at once (issue 15), each with the seven cards dealt to it drawn,
// none face down.
func TestDealtHandShowsBeforeTheFirstQuestion(t *testing.T) {
	t.Parallel()
	host, guest := netPair(t, "air", Config{Offline: true}, Config{Offline: true})
	for _, h := range []*harness{host, guest} {
		txt := h.WaitFor("Your hand (7 cards)", "Choose a card for the")
		if strings.Contains(txt, "?? ") {
			t.Fatalf("a dealt card is drawn face down when the player is asked\n%s", txt)
		}
	}
}

// TestHostScreenSaysWhetherItIsReachable shows AutoNAT's answer (not known
// yet, on loopback) and the relay the host asks for a slot, and a table
// size given on the command line.
func TestHostScreenSaysWhetherItIsReachable(t *testing.T) {
	t.Parallel()
	relay := "/ip4/127.0.0.1/tcp/9/p2p/12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN"
	hs := start(t, Config{Offline: true, Start: StartHost, Game: "air", Players: 3, Relays: []string{relay}}, 100, 30)
	hs.WaitFor("Host Mission Command Air (standard, 3 players)", "reachability not known yet (AutoNAT is checking)", "asking the relay for a slot")
	if _, err := New(Config{Game: "air", Players: 5}); err == nil || !strings.Contains(err.Error(), "takes 2-4 players") {
		t.Fatalf("a table of 5 for Air: %v", err)
	}
}

func TestOwnSlotsComeFromTheTranscript(t *testing.T) {
	t.Parallel()
	path := botMatch(t, "", 21)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	h, _, err := fairness.ReadTranscript(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	for seat := range engine.Seat(2) {
		slots, err := ownSlots(path, h, seat)
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]int{}
		for _, s := range slots {
			if s.Owner != seat {
				t.Fatalf("seat %d: slot %v of another seat", seat, s)
			}
			names[s.Name]++
		}
		if len(names) == 0 || names["grid"] != 100 {
			t.Fatalf("seat %d: own slots %v", seat, names)
		}
	}
	if _, err := ownSlots(path, h, 5); err == nil {
		t.Fatal("a seat that is not at the table")
	}
}

func TestForfeitReason(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    *fairness.Closing
		want string
	}{
		{"none", nil, ""},
		{"timeout", &fairness.Closing{Closing: fairness.CloseTimeout, Detail: "no message"}, ""},
		{"gone", &fairness.Closing{Closing: fairness.CloseAbandoned, Detail: "connection lost: session: " + session.ErrPeerGone.Error() + " for 2m0s"}, "bob did not come back within 2 min and forfeits"},
		{"left", &fairness.Closing{Closing: fairness.CloseAbandoned, Detail: "connection lost: session: recv: " + p2p.ErrPeerClosed.Error() + ": the match is over there"}, "bob left the match and forfeits"},
		{"other", &fairness.Closing{Closing: fairness.CloseAbandoned, Detail: "connection lost: reset"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := forfeitReason(tc.c, "bob", 2*time.Minute); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestLossReason(t *testing.T) {
	gone := "connection lost: session: " + session.ErrPeerGone.Error() + " for 2m0s"
	for _, tc := range []struct {
		name string
		c    *fairness.Closing
		want string
	}{
		{"none", nil, ""},
		{"gave up on us", &fairness.Closing{Closing: fairness.CloseAbandoned, Seat: 1, Detail: gone}, "ann gave up waiting for you to reconnect and recorded your forfeit"},
		{"timed us out", &fairness.Closing{Closing: fairness.CloseTimeout, Seat: 1, Detail: "no message"}, "ann waited longer than its time limit for your move and recorded your forfeit"},
		{"blames another seat", &fairness.Closing{Closing: fairness.CloseAbandoned, Seat: 0, Detail: gone}, ""},
		{"a violation", &fairness.Closing{Closing: fairness.CloseViolation, Seat: 1, Detail: "bad"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := lossReason(tc.c, 1, "ann"); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCountsAndDurations(t *testing.T) {
	for _, tc := range []struct {
		ns   []int
		want string
	}{{[]int{2}, "2"}, {[]int{2, 3, 4}, "2-4"}, {[]int{3, 4}, "3 or 4"}, {[]int{2, 4}, "2 or 4"}} {
		if got := countsText(tc.ns); got != tc.want {
			t.Errorf("countsText(%v) = %q, want %q", tc.ns, got, tc.want)
		}
	}
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{{2 * time.Minute, "2 min"}, {90 * time.Second, "1 min 30 s"}, {1500 * time.Millisecond, "1.5s"}, {500 * time.Millisecond, "500ms"}, {3 * time.Second, "3 s"}} {
		if got := durText(tc.d); got != tc.want {
			t.Errorf("durText(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestReachText(t *testing.T) {
	t.Parallel()
	h, err := p2p.New(context.Background(), p2p.Config{ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if s, good := reachText(h, 0); !strings.Contains(s, "not known yet") || !good {
		t.Fatalf("%q %v", s, good)
	}
	if s, _ := reachText(h, 1); !strings.Contains(s, "asking the relay") {
		t.Fatalf("%q", s)
	}
}

// TestQuitTextSaysWhatQuittingDoes: at a table of three, quitting is the
// player's own forfeit (no single opponent "wins by forfeit"); in a
// network match of two it only pauses the match, which the lobby resumes.
func TestQuitTextSaysWhatQuittingDoes(t *testing.T) {
	t.Parallel()
	table := start(t, Config{Offline: true, Game: "air", Players: 3, Start: StartPractice, Bot: "random"}, 100, 30)
	table.WaitFor("vs bot-1 (random), bot-2 (random)")
	table.Keys(tcell.KeyCtrlC)
	// A free-for-all plays on without a player who quits or leaves.
	txt := table.WaitFor("Quit Salvo?", "Quitting abandons it: once the others", "your planes leave the board")
	if strings.Contains(txt, "wins by forfeit") {
		t.Fatalf("a table's quit text names one winner\n%s", txt)
	}
	table.Keys(tcell.KeyEscape, "q")
	table.WaitFor("Leave the match?", "the others play on without you")

	host, _ := netPair(t, "ubuild", Config{Offline: true}, Config{Offline: true})
	host.Keys(tcell.KeyCtrlC)
	host.WaitFor("Quit Salvo?", "Quitting pauses it", "resume it from the", "wins by forfeit")
}

// TestLeavingPracticeRecordsOurForfeit (issue 14 point 3): leaving a
// practice match (q, then yes) signs our forfeit into our own transcript,
// as the dialog promises: it audits as our forfeit on our own word, not
// "incomplete". A table of three does the same.
func TestLeavingPracticeRecordsOurForfeit(t *testing.T) {
	t.Parallel()
	for _, cfg := range []Config{
		{Offline: true, Game: "ubuild", Start: StartPractice},
		{Offline: true, Game: "air", Players: 3, Start: StartPractice, Bot: "random"},
	} {
		h := start(t, cfg, 100, 30)
		waitAsked(t, h)
		path := transcriptOf(h)
		h.Keys("q")
		h.WaitFor("Leave the match?")
		h.Keys("y")
		h.WaitFor("Practice against a bot")
		t.Logf("%s: %s", cfg.Game, waitOwnForfeit(t, path).Summary())
	}
}

// waitOwnForfeit waits until the transcript at path, of a match its
// writer left, audits as its writer's forfeit on its own signed word (the
// record is written once the referee has stopped), and returns the report.
func waitOwnForfeit(t *testing.T, path string) *fairness.Report {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		rep := auditFile(t, path)
		if c := rep.Closing; rep.Verdict == fairness.Forfeit && c != nil && c.Closing == fairness.CloseLeft &&
			engine.Seat(c.Seat) == rep.Header.Seat(c.By) && strings.Contains(rep.Detail, "left the match after message") {
			return rep
		}
		if time.Now().After(deadline) {
			t.Fatalf("the left match audits %s", rep.Summary())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
