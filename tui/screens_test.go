package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/tui/style"
)

func TestLobbyShowsWhatAPlayerCanDo(t *testing.T) {
	hs := start(t, Config{Offline: true, Name: "ann"}, 100, 30)
	txt := hs.waitFor("Practice against a bot", "Host a game", "Join with an invite code", "Audit a match record",
		"Peers on this network", "Recent matches", "you: ann", "? help", "q quit", "g game: U-Build")
	if !strings.Contains(txt, "offline") {
		t.Fatalf("an offline lobby should say so\n%s", txt)
	}
	// Tab moves to the peers pane: the keys in the bar change with it.
	hs.keys(tcell.KeyTab)
	hs.waitGone("enter choose")
	hs.keys(tcell.KeyTab, tcell.KeyTab)
	hs.waitFor("enter choose")
}

func TestTerminalTooSmall(t *testing.T) {
	hs := start(t, Config{Offline: true}, 100, 30)
	hs.waitFor("Practice against a bot")
	for _, size := range [][2]int{{79, 24}, {80, 23}, {40, 10}} {
		hs.resize(size[0], size[1])
		hs.waitFor("terminal too small (needs 80x24)")
	}
	hs.resize(80, 24)
	hs.waitFor("Practice against a bot", "Recent matches", "? help")
	// Keys do nothing but q while too small: h (host) is ignored, q quits.
	hs.resize(60, 20)
	hs.keys("h", "q")
	select {
	case <-hs.done:
	case <-time.After(10 * time.Second):
		t.Fatalf("q did not quit while the terminal was too small\n%s", hs.dump())
	}
	hs.once.Do(func() {})
	if _, ok := hs.app.top().(*lobbyScreen); !ok {
		t.Fatalf("a key pressed while too small opened %T", hs.app.top())
	}
}

func TestHelpListsTheKeysInForceAndRunsThem(t *testing.T) {
	hs := start(t, Config{Offline: true}, 100, 30)
	hs.waitFor("Practice against a bot")
	hs.keys("?")
	hs.waitFor("Keys in force", "the practice bot's level", "the next game")
	hs.keys("variant")
	txt := hs.waitFor("filter: variant", "the game's next variant")
	if strings.Contains(txt, "the practice bot's level") {
		t.Fatalf("the filter kept a line that does not match\n%s", txt)
	}
	hs.keys(tcell.KeyEnter) // runs "v": the next variant
	hs.waitGone("Keys in force")
	hs.waitFor("variant: custom")
	hs.keys("?", tcell.KeyEscape)
	hs.waitGone("Keys in force")
}

func TestHintBarClicksRunTheirKey(t *testing.T) {
	hs := start(t, Config{Offline: true}, 100, 30)
	hs.waitFor("v variant: standard")
	x, y, ok := hs.find("v variant: standard")
	if !ok {
		t.Fatal("no variant hint")
	}
	hs.click(x+2, y)
	hs.waitFor("v variant: custom")
}

func TestJoinChecksTheCodeAsItIsTyped(t *testing.T) {
	hs := start(t, Config{Offline: true}, 100, 30)
	hs.waitFor("Practice against a bot")
	hs.keys("j")
	hs.waitFor("Paste or type the invite code", "a code looks like SALVO1-")
	hs.keys("hello")
	hs.waitFor(style.Fail + " not a Salvo invite code: a code starts with SALVO1-")
	hs.keys(tcell.KeyEnter)
	hs.waitFor(style.Fail + " not a Salvo invite code")
	for range 5 {
		hs.keys(tcell.KeyBackspace2)
	}
	id, err := peer.Decode("12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN")
	if err != nil {
		t.Fatal(err)
	}
	code := p2p.EncodeInvite(p2p.Invite{Peer: id, Issued: time.Now()})
	hs.keys(code[:len(code)-2])
	hs.waitFor("mistyped")
	hs.keys(code[len(code)-2:])
	hs.waitFor(style.OK+" host 12D3…nXTN", "0 address", "made just now")
	hs.keys(tcell.KeyEscape)
	hs.waitFor("Practice against a bot")
}

func TestAuditPromptChecksThePath(t *testing.T) {
	hs := start(t, Config{Offline: true}, 100, 30)
	hs.waitFor("Practice against a bot")
	hs.keys("a")
	hs.waitFor("Audit a match record", "a folder with 0 transcripts")
	hs.keys("nothing.jsonl")
	hs.waitFor("no such file yet")
	hs.keys(tcell.KeyEnter) // refused: stays open
	hs.waitFor("no such file yet")
	hs.keys(tcell.KeyEscape)
	hs.waitGone("no such file yet")
}

func TestMonochromeLobby(t *testing.T) {
	hs := start(t, Config{Offline: true, Theme: style.New(true)}, 100, 30)
	hs.waitFor("Practice against a bot")
	cells := hs.cells()
	for i, c := range cells {
		fg, bg, _ := c.Style.Decompose()
		if fg != tcell.ColorDefault || bg != tcell.ColorDefault {
			t.Fatalf("cell %d (%q) has colours %v on %v\n%s", i, string(c.Runes), fg, bg, hs.dump())
		}
	}
}

// BenchmarkStartToLobby measures from New to the first drawn lobby.
func BenchmarkStartToLobby(b *testing.B) {
	for b.Loop() {
		t0 := time.Now()
		hs := start(b, Config{Offline: true}, 100, 30)
		hs.waitFor("Practice against a bot")
		b.ReportMetric(float64(time.Since(t0).Microseconds()), "µs/lobby")
		hs.stop()
	}
}

func TestLobbyMouseAndPaste(t *testing.T) {
	hs := start(t, Config{Offline: true}, 100, 30)
	hs.waitFor("Join with an invite code")
	x, y, _ := hs.find("Join with an invite code")
	hs.click(x, y)
	hs.waitFor("Paste or type the invite code")
	// A bracketed paste of a code wrapped over two lines.
	hs.scr.PostEventWait(tcell.NewEventPaste(true))
	hs.keys("/ip4/127.0.0.1/tcp/1/p2p/", tcell.KeyEnter, "12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN") // the older form
	hs.scr.PostEventWait(tcell.NewEventPaste(false))
	hs.waitFor(style.OK + " host 12D3…nXTN")
}
