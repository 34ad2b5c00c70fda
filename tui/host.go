package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	lpnet "github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/salvo-game/salvo/engine"
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
	copied  bool
	offer   session.Offer
	offered bool
	// The table's size, the match streams handed to the handshake (the
	// group one for more than two), and who has taken a seat so far.
	players int
	joins   chan *p2p.Conn
	seated  []string
	// addrs are the addresses the code was made from: a relay reservation
	// or a new public address remakes it.
	addrs string
}

func newHostScreen(a *App) *hostScreen {
	ctx, cancel := context.WithCancel(a.ctx)
	return &hostScreen{a: a, ctx: ctx, cancel: cancel, since: time.Now(), offer: session.Offer{Game: a.game, Variant: a.vari, Watch: a.watchable}, players: a.players()}
}

// table reports whether the host gathers more than one other player.
func (hs *hostScreen) table() bool { return hs.players > 2 }

// tableOfferText is what the LAN sees a host of a table offering: the
// game, the variant and the table's size.
func tableOfferText(game, variant string, players int) string {
	return fmt.Sprintf("%s %d", offerText(game, variant), players)
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
		hs.since = time.Now()
		hs.remakeCode()
		offer := offerText(hs.offer.Game, hs.offer.Variant)
		if hs.table() {
			offer = tableOfferText(hs.offer.Game, hs.offer.Variant, hs.players)
			hs.gather(h)
		} else {
			hs.serve()
		}
		if err := h.SetOffer(offer); err == nil {
			hs.offered = true
		}
	})
}

// remakeCode makes the invite code again when the host's addresses
// changed (a relay reservation came through, AutoNAT found a public
// address) or the DHT became able to find it (the short code), and saves
// it in the data directory.
func (hs *hostScreen) remakeCode() {
	// The short code replaces the long one once the DHT can find the host.
	addrs := fmt.Sprint(hs.host.Addrs(), hs.host.Findable())
	if addrs == hs.addrs && hs.code != "" {
		return
	}
	hs.addrs = addrs
	hs.code = invite.Code(hs.host)
	p := filepath.Join(hs.a.cfg.DataDir, InviteFile)
	if err := os.MkdirAll(hs.a.cfg.DataDir, 0o700); err == nil && os.WriteFile(p, []byte(hs.code+"\n"), 0o600) == nil {
		hs.saved = p
	}
}

func (hs *hostScreen) tick() {
	if hs.host != nil {
		hs.remakeCode()
	}
}

// reachText says whether other players can reach this host: what AutoNAT
// found, and the relays it holds a reservation on (or is asking for).
func reachText(h *p2p.Host, relaysAsked int) (string, bool) {
	var via []string
	for _, a := range h.RelayAddrs() {
		if id, err := a.ValueForProtocol(ma.P_P2P); err == nil && !slices.Contains(via, shortID(id)) {
			via = append(via, shortID(id))
		}
	}
	var s string
	good := true
	switch h.Reachability() {
	case lpnet.ReachabilityPublic:
		s = "reachable from the internet (AutoNAT: public)"
	case lpnet.ReachabilityPrivate:
		s, good = "behind a NAT (AutoNAT: private)", false
	default:
		s = "reachability not known yet (AutoNAT is checking)"
	}
	switch {
	case len(via) > 0:
		s += "; relayed via " + strings.Join(via, ", ")
		good = true
	case relaysAsked > 0:
		s += "; asking the relay for a slot…"
	case !good:
		s += "; no relay: only players on your LAN or who can reach you directly can join (salvo host --relay)"
	}
	return s, good
}

func (hs *hostScreen) close() {
	hs.cancel()
	if hs.host != nil && hs.offered {
		_ = hs.host.SetOffer("")
	}
}

// gather runs the group handshake of a table until every seat is taken,
// starting over if the table breaks up before the match starts.
func (hs *hostScreen) gather(h *p2p.Host) {
	a := hs.a
	n := a.net
	hs.joins = make(chan *p2p.Conn, hs.players)
	ctx, self, offer, players := hs.ctx, a.selfPlayer(), hs.offer, hs.players
	a.goBack(func() {
		r, err := n.groupRouter(h, a.log)
		if err != nil {
			a.post(func() { hs.status, hs.bad = "the pubsub router did not start: "+err.Error(), true })
			return
		}
		for ctx.Err() == nil {
			a.post(func() { hs.seated = nil })
			m, err := session.HostGroup(ctx, session.GroupHostConfig{Self: self, Offer: offer, Players: players, Router: r, Logger: a.log,
				Seated: func(seat engine.Seat, p peer.ID, name string) {
					name = shownName(name, FriendlyName(p))
					a.post(func() {
						hs.seated = append(hs.seated, fmt.Sprintf("seat %d: %s (%s)", seat, name, shortID(p.String())))
						hs.status, hs.bad = "", false
					})
				}}, hs.joins)
			if err == nil {
				a.post(func() {
					if hs.offered && hs.host != nil {
						_ = hs.host.SetOffer("")
						hs.offered = false
					}
					a.startMatch(matchStart{group: m, key: a.cfg.Key, table: a.tableNet(h)})
				})
				return
			}
			if ctx.Err() != nil {
				return
			}
			a.post(func() { hs.status, hs.bad = "the table broke up: "+err.Error()+" — gathering again", true })
		}
	})
}

// accept runs the host's handshake with a joiner, or hands the stream to
// the table's group handshake.
func (hs *hostScreen) accept(c *p2p.Conn) {
	a := hs.a
	full := "the host is already talking to other players"
	if hs.table() {
		full = "the table is full"
	}
	select {
	case hs.joins <- c:
		hs.status, hs.bad = fmt.Sprintf("%s is joining (%s)…", shortID(c.Remote().String()), c.Kind()), false
	default:
		a.goBack(func() {
			_ = session.Decline(a.ctx, c, full)
			_ = c.Close()
		})
	}
}

// serve runs the two-player handshake with every joiner at once
// (session.HostFirst): one that fails or stalls is turned away, with its
// reason on the screen, while the others go on; the first to agree plays.
func (hs *hostScreen) serve() {
	a := hs.a
	joins := make(chan *p2p.Conn, p2p.IncomingBuffer)
	hs.joins = joins
	ctx, self, offer := hs.ctx, a.selfPlayer(), hs.offer
	turnedAway := func(_ peer.ID, err error) {
		a.post(func() { hs.status, hs.bad = "a join failed: "+err.Error()+" — still waiting", true })
	}
	a.goBack(func() {
		m, err := session.HostFirst(ctx, joins, session.HostFirstConfig{Self: self, Offer: offer, TurnedAway: turnedAway, Logger: a.log})
		closeQueued(joins)
		if err != nil {
			return // the host screen was left
		}
		a.post(func() {
			name := shownName(m.Header.Players[1].Name, FriendlyName(m.Stream.Remote()))
			if hs.offered && hs.host != nil {
				_ = hs.host.SetOffer("")
				hs.offered = false
			}
			a.startMatch(a.netStart(m, name, false))
		})
	})
}

// closeQueued closes the streams still queued for a handshake that ended.
func closeQueued(joins <-chan *p2p.Conn) {
	for {
		select {
		case c := <-joins:
			_ = c.Close()
		default:
			return
		}
	}
}

func (hs *hostScreen) draw(scr tcell.Screen, x, y, w, h int) {
	a, th := hs.a, hs.a.th
	what := fmt.Sprintf("Salvo · Host %s (%s)", a.gameTitle(), hs.offer.Variant)
	if hs.table() {
		what = fmt.Sprintf("Salvo · Host %s (%s, %d players)", a.gameTitle(), hs.offer.Variant, hs.players)
	}
	titleBar(scr, th, x, y, w, []style.Seg{style.S(what, th.Base)},
		[]style.Seg{style.S(a.you(), th.Base)})
	row := y + 2
	if hs.host == nil {
		msg := a.spinner() + " starting the network…"
		if a.net != nil && a.net.err != nil {
			msg = style.Fail + " the network did not start: " + a.net.err.Error()
		}
		style.Print(scr, x+2, row, w-4, th.Warn, msg)
		return
	}
	give := "Give this invite code to the other player (read it out, paste it in a chat; it lasts a week):"
	if hs.table() {
		give = fmt.Sprintf("Give this invite code to the %d other players (read it out, paste it in a chat; it lasts a week):", hs.players-1)
	}
	if len(hs.code) == p2p.ShortInviteLen {
		give = "Give this short invite code to the other players (the public DHT finds you by it; it works while you host):"
	}
	style.Print(scr, x+2, row, w-4, th.Base, give)
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
	waiting := "waiting for a player to join"
	if hs.table() {
		waiting = fmt.Sprintf("waiting for players to join: %d of %d seated", len(hs.seated), hs.players-1)
	}
	style.PrintSegs(scr, x+2, row, w-4, style.S(a.spinner()+" ", th.Warn),
		style.S(fmt.Sprintf("%s · %s", waiting, waited(time.Since(hs.since))), th.Warn))
	row++
	for _, s := range hs.seated {
		style.Print(scr, x+4, row, w-6, th.Good, style.OK+" "+s)
		row++
	}
	style.Print(scr, x+4, row, w-6, th.Dim, fmt.Sprintf("listening on %d addresses; %s", len(hs.host.Addrs()), lan))
	row++
	reach, good := reachText(hs.host, len(a.cfg.Relays))
	rst := th.Dim
	if !good {
		rst = th.Warn
	}
	for _, l := range style.Wrap(reach, w-6, "  ") {
		style.Print(scr, x+4, row, w-6, rst, l)
		row++
	}
	row++
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
