package tui

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/salvo-game/salvo/fairness/untrusted"
	"github.com/salvo-game/salvo/fairness/untrusted/hostiletest"
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/session"
	"github.com/salvo-game/salvo/tui/style"
)

// TestAttackNameEscapes (the interface's half; the CLI's is in
// cmd/salvo): the audit viewer shows a transcript whose player name holds
// escape sequences and bidi controls with that name escaped, and no cell
// of the screen holds a character the terminal would act on.
func TestAttackNameEscapes(t *testing.T) {
	t.Parallel()
	path := hostiletest.CraftedNameTranscript(t)
	hs := start(t, Config{Offline: true, Start: StartAudit, File: path}, 160, 40)
	hs.WaitFor(style.Fail+" violation by seat 1", `ann vs \u{1b}[1A\u{1b}[2K\u{d}clean`, `\u{202e}\u{2066}\u{9b}2K\u{7}`)
	for i, c := range hs.cells() {
		for _, r := range string(c.Bytes) {
			if untrusted.Hidden(r) {
				t.Fatalf("cell %d holds raw %U\n%s", i, r, hs.Text())
			}
		}
	}
}

// TestHostScreenKeepsServingAfterABadJoiner: a joiner that sends an
// oversized join frame, and one that sends a valid join and then stalls,
// are turned away (the screen says why) while an honest joiner that comes
// meanwhile gets its match.
func TestHostScreenKeepsServingAfterABadJoiner(t *testing.T) {
	t.Parallel()
	host := start(t, Config{Offline: true, Name: "ann", Start: StartHost, Timeout: 20 * time.Second}, 100, 30)
	host.WaitFor("invite code", "waiting for a player to join")
	var code string
	host.onUI(func() { code = host.app.top().(*hostScreen).code })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	evil, target := hostiletest.EvilPeer(t, ctx, code)
	send := func(frame []byte) *p2p.Conn {
		c, err := evil.OpenMatch(ctx, target)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if err := c.Send(ctx, frame); err != nil {
			t.Fatal(err)
		}
		return c
	}
	send(bytes.Repeat([]byte("x"), 100_000)) // an oversized join frame
	host.WaitFor("a join failed", "frame too large", "still waiting")
	// A valid join, whose sender then never answers the offer.
	staller := send([]byte(`{"t":"join","version":"` + session.Version + `","name":"eve","nonce":"0123456789abcdef0123456789abcdef"}`))
	if _, err := staller.Recv(ctx); err != nil {
		t.Fatalf("the staller got no offer: %v", err)
	}
	guest := start(t, Config{Offline: true, Name: "bob", Start: StartJoin, Code: code, Timeout: 20 * time.Second}, 100, 30)
	host.WaitFor("vs bob", "Place the Battleship")
	guest.WaitFor("vs ann")
}
