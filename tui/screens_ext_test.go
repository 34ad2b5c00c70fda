package tui_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/tui"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/style"
	"github.com/salvo-game/salvo/tui/tuitest"
)

// These tests reach the interface only through what package tui exports,
// so they start it through tuitest as the board views' tests do.

// opts are how these tests start the interface: given 20 s to stop.
var opts = tuitest.Options{Options: boardtest.Options{StopWithin: 20 * time.Second}}

func TestLobbyShowsWhatAPlayerCanDo(t *testing.T) {
	hs := tuitest.Start(t, tui.Config{Offline: true, Name: "ann"}, 100, 30, opts)
	txt := hs.WaitFor("Practice against a bot", "Host a game", "Join with an invite code", "Audit a match record",
		"Peers on this network", "Recent matches", "you: ann", "? help", "q quit", "g game: U-Build")
	if !strings.Contains(txt, "offline") {
		t.Fatalf("an offline lobby should say so\n%s", txt)
	}
	// Tab moves to the peers pane: the keys in the bar change with it.
	hs.Keys(tcell.KeyTab)
	hs.WaitGone("enter choose")
	hs.Keys(tcell.KeyTab, tcell.KeyTab)
	hs.WaitFor("enter choose")
}

// A second player running on the same machine is told which one it is.
func TestLobbySaysWhichPlayerOfThisMachine(t *testing.T) {
	hs := tuitest.Start(t, tui.Config{Offline: true, Name: "bob", Profile: 2}, 100, 30, opts)
	hs.WaitFor("you: bob", "player 2 here")
}

func TestHelpListsTheKeysInForceAndRunsThem(t *testing.T) {
	hs := tuitest.Start(t, tui.Config{}, 100, 30, opts)
	hs.WaitFor("Practice against a bot")
	hs.Keys("?")
	hs.WaitFor("Keys in force", "the practice bot's level", "the next game")
	hs.Keys("variant")
	txt := hs.WaitFor("filter: variant", "the game's next variant")
	if strings.Contains(txt, "the practice bot's level") {
		t.Fatalf("the filter kept a line that does not match\n%s", txt)
	}
	hs.Keys(tcell.KeyEnter) // runs "v": the next variant
	hs.WaitGone("Keys in force")
	hs.WaitFor("variant: custom")
	hs.Keys("?", tcell.KeyEscape)
	hs.WaitGone("Keys in force")
}

func TestHintBarClicksRunTheirKey(t *testing.T) {
	hs := tuitest.Start(t, tui.Config{}, 100, 30, opts)
	hs.WaitFor("v variant: standard")
	x, y, ok := hs.Find("v variant: standard")
	if !ok {
		t.Fatal("no variant hint")
	}
	hs.Click(x+2, y)
	hs.WaitFor("v variant: custom")
}

func TestJoinChecksTheCodeAsItIsTyped(t *testing.T) {
	hs := tuitest.Start(t, tui.Config{}, 100, 30, opts)
	hs.WaitFor("Practice against a bot")
	hs.Keys("j")
	hs.WaitFor("Paste or type the invite code", "a code looks like SALVO1-")
	hs.Keys("hello")
	hs.WaitFor(style.Fail + " not a Salvo invite code: a code starts with SALVO1-")
	hs.Keys(tcell.KeyEnter)
	hs.WaitFor(style.Fail + " not a Salvo invite code")
	for range 5 {
		hs.Keys(tcell.KeyBackspace2)
	}
	id, err := peer.Decode("12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN")
	if err != nil {
		t.Fatal(err)
	}
	code := p2p.EncodeInvite(p2p.Invite{Peer: id, Issued: time.Now()})
	hs.Keys(code[:len(code)-2])
	hs.WaitFor("incomplete: 2 symbols are missing")
	hs.Keys(code[len(code)-2:])
	hs.WaitFor(style.OK+" host 12D3…nXTN", "0 address", "made just now")
	hs.Keys(tcell.KeyEscape)
	hs.WaitFor("Practice against a bot")
}

func TestAuditPromptChecksThePath(t *testing.T) {
	hs := tuitest.Start(t, tui.Config{}, 100, 30, opts)
	hs.WaitFor("Practice against a bot")
	hs.Keys("a")
	hs.WaitFor("Audit a match record", "a folder with 0 transcripts")
	hs.Keys("nothing.jsonl")
	hs.WaitFor("no such file yet")
	hs.Keys(tcell.KeyEnter) // refused: stays open
	hs.WaitFor("no such file yet")
	hs.Keys(tcell.KeyEscape)
	hs.WaitGone("no such file yet")
}

func TestMonochromeLobby(t *testing.T) {
	hs := tuitest.Start(t, tui.Config{Theme: style.New(true)}, 100, 30, opts)
	hs.WaitFor("Practice against a bot")
	if c := boardtest.Coloured(hs.Cells()); c != "" {
		t.Fatalf("%s\n%s", c, hs.Dump())
	}
}

// BenchmarkStartToLobby measures from New to the first drawn lobby.
func BenchmarkStartToLobby(b *testing.B) {
	for b.Loop() {
		t0 := time.Now()
		hs := tuitest.Start(b, tui.Config{}, 100, 30, opts)
		hs.WaitFor("Practice against a bot")
		b.ReportMetric(float64(time.Since(t0).Microseconds()), "µs/lobby")
		hs.Stop()
	}
}

func TestLobbyMouseAndPaste(t *testing.T) {
	hs := tuitest.Start(t, tui.Config{}, 100, 30, opts)
	hs.WaitFor("Join with an invite code")
	x, y, _ := hs.Find("Join with an invite code")
	hs.Click(x, y)
	hs.WaitFor("Paste or type the invite code")
	// A bracketed paste of a code wrapped over two lines.
	hs.Screen.PostEventWait(tcell.NewEventPaste(true))
	hs.Keys("/ip4/127.0.0.1/tcp/1/p2p/", tcell.KeyEnter, "12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN") // the older form
	hs.Screen.PostEventWait(tcell.NewEventPaste(false))
	hs.WaitFor(style.OK + " host 12D3…nXTN")
}

func TestLobbyPicksATableSize(t *testing.T) {
	t.Parallel()
	hs := tuitest.Start(t, tui.Config{Game: "air"}, 100, 30, opts)
	hs.WaitFor("players 2")
	hs.Keys("n")
	hs.WaitFor("players 3")
	hs.Keys("n", "n")
	hs.WaitFor("players 2")
	// The free-for-all takes 3 or 4: the size follows the variant.
	hs.Keys("v")
	hs.WaitFor("variant ffa", "players 3")
	hs.Keys("n", "n")
	hs.WaitFor("players 3")
	hs.Keys("v")
	hs.WaitFor("variant team", "players 4")
	// A two-player game has no size to pick.
	hs.Keys("g")
	txt := hs.WaitFor("game Battleship U-Build")
	if strings.Contains(txt, "players") {
		t.Fatalf("a two-player game shows a table size\n%s", txt)
	}
}
