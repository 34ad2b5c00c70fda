package tui_test

import (
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/tui"
	"github.com/salvo-game/salvo/tui/style"
	"github.com/salvo-game/salvo/tui/tuitest"
)

// The join screen takes a short code (64 characters, at 80 columns too):
// cut short it says incomplete, whole it names the host and says it is
// looked up in the public DHT.
func TestJoinTakesAShortCode(t *testing.T) {
	hs := tuitest.Start(t, tui.Config{}, 80, 24, opts)
	hs.WaitFor("Practice against a bot")
	hs.Keys("j")
	hs.WaitFor("Paste or type the invite code")
	id, err := peer.Decode("12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN")
	if err != nil {
		t.Fatal(err)
	}
	code, err := p2p.EncodeShortInvite(id)
	if err != nil {
		t.Fatal(err)
	}
	hs.Keys(code[:len(code)-9])
	hs.WaitFor("incomplete")
	hs.Keys(code[len(code)-9:])
	hs.WaitFor(style.OK+" host 12D3…nXTN", "short code: looked up in the public DHT")
	hs.Keys(tcell.KeyEscape)
	hs.WaitFor("Practice against a bot")
}
