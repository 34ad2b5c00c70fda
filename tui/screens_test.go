package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/style"
)

func TestLobbyShowsWhatAPlayerCanDo(t *testing.T) {
	hs := start(t, Config{Offline: true, Name: "ann"}, 100, 30)
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

func TestTerminalTooSmall(t *testing.T) {
	hs := start(t, Config{Offline: true}, 100, 30)
	hs.WaitFor("Practice against a bot")
	for _, size := range [][2]int{{79, 24}, {80, 23}, {40, 10}} {
		hs.resize(size[0], size[1])
		hs.WaitFor("terminal too small (needs 80x24)")
	}
	hs.resize(80, 24)
	hs.WaitFor("Practice against a bot", "Recent matches", "? help")
	// Keys do nothing but q while too small: h (host) is ignored, q quits.
	hs.resize(60, 20)
	hs.Keys("h", "q")
	select {
	case <-hs.done:
	case <-time.After(10 * time.Second):
		t.Fatalf("q did not quit while the terminal was too small\n%s", hs.Dump())
	}
	hs.once.Do(func() {})
	if _, ok := hs.app.top().(*lobbyScreen); !ok {
		t.Fatalf("a key pressed while too small opened %T", hs.app.top())
	}
}

func TestHelpListsTheKeysInForceAndRunsThem(t *testing.T) {
	hs := start(t, Config{Offline: true}, 100, 30)
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
	hs := start(t, Config{Offline: true}, 100, 30)
	hs.WaitFor("v variant: standard")
	x, y, ok := hs.Find("v variant: standard")
	if !ok {
		t.Fatal("no variant hint")
	}
	hs.Click(x+2, y)
	hs.WaitFor("v variant: custom")
}

func TestJoinChecksTheCodeAsItIsTyped(t *testing.T) {
	hs := start(t, Config{Offline: true}, 100, 30)
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
	hs.WaitFor("mistyped")
	hs.Keys(code[len(code)-2:])
	hs.WaitFor(style.OK+" host 12D3…nXTN", "0 address", "made just now")
	hs.Keys(tcell.KeyEscape)
	hs.WaitFor("Practice against a bot")
}

func TestAuditPromptChecksThePath(t *testing.T) {
	hs := start(t, Config{Offline: true}, 100, 30)
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
	hs := start(t, Config{Offline: true, Theme: style.New(true)}, 100, 30)
	hs.WaitFor("Practice against a bot")
	if c := boardtest.Coloured(hs.cells(), hs.w); c != "" {
		t.Fatalf("%s\n%s", c, hs.Dump())
	}
}

// BenchmarkStartToLobby measures from New to the first drawn lobby.
func BenchmarkStartToLobby(b *testing.B) {
	for b.Loop() {
		t0 := time.Now()
		hs := start(b, Config{Offline: true}, 100, 30)
		hs.WaitFor("Practice against a bot")
		b.ReportMetric(float64(time.Since(t0).Microseconds()), "µs/lobby")
		hs.stop()
	}
}

func TestLobbyMouseAndPaste(t *testing.T) {
	hs := start(t, Config{Offline: true}, 100, 30)
	hs.WaitFor("Join with an invite code")
	x, y, _ := hs.Find("Join with an invite code")
	hs.Click(x, y)
	hs.WaitFor("Paste or type the invite code")
	// A bracketed paste of a code wrapped over two lines.
	hs.scr.PostEventWait(tcell.NewEventPaste(true))
	hs.Keys("/ip4/127.0.0.1/tcp/1/p2p/", tcell.KeyEnter, "12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN") // the older form
	hs.scr.PostEventWait(tcell.NewEventPaste(false))
	hs.WaitFor(style.OK + " host 12D3…nXTN")
}
