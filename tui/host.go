package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/session"
	"github.com/salvo-game/salvo/tui/invite"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// hostScreen offers a game: it shows the invite code and waits for a player
// to join with it (or to find the offer on the LAN).
type hostScreen struct {
	base
	a       *App
	ctx     context.Context
	cancel  context.CancelFunc
	host    *p2p.Host
	code    string
	saved   string // where the code was written
	since   time.Time
	status  string
	bad     bool
	busy    bool // a handshake is under way
	copied  bool
	offer   session.Offer
	offered bool
}

func newHostScreen(a *App) *hostScreen {
	ctx, cancel := context.WithCancel(a.ctx)
	return &hostScreen{a: a, ctx: ctx, cancel: cancel, since: time.Now(), offer: session.Offer{Game: a.game, Variant: a.vari}}
}

func (hs *hostScreen) shown() {
	if hs.host != nil {
		return
	}
	hs.a.ensureNet(func(h *p2p.Host) {
		if hs.ctx.Err() != nil {
			return
		}
		hs.host = h
		hs.code = invite.Code(h)
		hs.since = time.Now()
		if err := h.SetOffer(offerText(hs.offer.Game, hs.offer.Variant)); err == nil {
			hs.offered = true
		}
		p := filepath.Join(hs.a.cfg.DataDir, InviteFile)
		if err := os.MkdirAll(hs.a.cfg.DataDir, 0o700); err == nil && os.WriteFile(p, []byte(hs.code+"\n"), 0o600) == nil {
			hs.saved = p
		}
	})
}

func (hs *hostScreen) close() {
	hs.cancel()
	if hs.host != nil && hs.offered {
		_ = hs.host.SetOffer("")
	}
}

// accept runs the host's handshake with a joiner.
func (hs *hostScreen) accept(c *p2p.Conn) {
	a := hs.a
	if hs.busy {
		a.goBack(func() {
			_ = session.Decline(a.ctx, c, "the host is already talking to another player")
			_ = c.Close()
		})
		return
	}
	hs.busy = true
	hs.status, hs.bad = fmt.Sprintf("%s is joining (%s)…", shortID(c.Remote().String()), c.Kind()), false
	ctx, self, offer := hs.ctx, a.selfPlayer(), hs.offer
	a.goBack(func() {
		m, err := session.Host(ctx, c, self, offer)
		a.post(func() {
			hs.busy = false
			if err != nil {
				_ = c.Close()
				hs.status, hs.bad = "a join failed: "+err.Error()+" — still waiting", true
				return
			}
			name := m.Header.Players[1].Name
			if name == "" {
				name = FriendlyName(c.Remote())
			}
			if hs.offered && hs.host != nil {
				_ = hs.host.SetOffer("")
				hs.offered = false
			}
			a.startMatch(matchStart{m: m, key: a.cfg.Key, opponent: name, release: func() { _ = c.Close() }})
		})
	})
}

func (hs *hostScreen) draw(scr tcell.Screen, x, y, w, h int) {
	a, th := hs.a, hs.a.th
	titleBar(scr, th, x, y, w, []style.Seg{style.S(fmt.Sprintf("Salvo · Host %s (%s)", a.gameTitle(), hs.offer.Variant), th.Base)},
		[]style.Seg{style.S(fmt.Sprintf("you: %s (%s)", a.name, shortID(a.self.String())), th.Base)})
	row := y + 2
	if hs.host == nil {
		msg := a.spinner() + " starting the network…"
		if a.net != nil && a.net.err != nil {
			msg = style.Fail + " the network did not start: " + a.net.err.Error()
		}
		style.Print(scr, x+2, row, w-4, th.Warn, msg)
		return
	}
	style.Print(scr, x+2, row, w-4, th.Base, "Give this invite code to the other player (read it out, paste it in a chat; it lasts a week):")
	row += 2
	lines := invite.Lines(hs.code, w-8)
	bh := min(len(lines)+2, h-10)
	ix, iy, iw, ih := boxed(scr, th, x+2, row, w-4, bh, "invite code", th.Accent)
	for i := 0; i < ih && i < len(lines); i++ {
		style.Print(scr, ix+1, iy+i, iw-2, th.Accent, lines[i])
	}
	row += bh
	hint := "c copies it to the clipboard (terminals with OSC 52)"
	if hs.copied {
		hint = style.OK + " copied to the clipboard (if your terminal allows OSC 52)"
	}
	if hs.saved != "" {
		hint += " · also saved in " + hs.saved
	}
	for _, l := range style.Wrap(hint, w-4, "") {
		style.Print(scr, x+2, row, w-4, th.Dim, l)
		row++
	}
	row++
	lan := "the LAN sees your offer"
	if err := hs.host.DiscoveryErr(); err != nil {
		lan = "LAN discovery is off, so only the code finds you"
	}
	style.PrintSegs(scr, x+2, row, w-4, style.S(a.spinner()+" ", th.Warn),
		style.S(fmt.Sprintf("waiting for a player to join · %s", waited(time.Since(hs.since))), th.Warn))
	row++
	style.Print(scr, x+4, row, w-6, th.Dim, fmt.Sprintf("listening on %d addresses; %s", len(hs.host.Addrs()), lan))
	row += 2
	if hs.status != "" {
		st := th.Base
		if hs.bad {
			st = th.Bad
		}
		for _, l := range style.Wrap(hs.status, w-4, "  ") {
			style.Print(scr, x+2, row, w-4, st, l)
			row++
		}
	}
}

func (hs *hostScreen) bindings() []keys.Binding {
	return []keys.Binding{
		{Keys: []keys.Key{keys.R('c')}, Label: "c", Hint: "copy code", Help: "copy the invite code to the clipboard (OSC 52)", Run: func() {
			if hs.code != "" {
				hs.a.setClipboard(hs.code)
				hs.copied = true
			}
		}},
		{Keys: []keys.Key{keyEsc, keys.R('q')}, Label: "esc", Hint: "stop hosting", Pin: true, Help: "stop offering the game and go back to the lobby", Run: hs.a.toLobby},
	}
}
