package tui

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/group"
	"github.com/salvo-game/salvo/p2p/session"
)

// network is the player's main libp2p host: it listens for joiners and
// invitations and, with mDNS, finds peers on the LAN. It starts in the
// background so the lobby draws at once.
type network struct {
	host    *p2p.Host
	res     *session.Resumer // answers resume streams for the host's matches
	err     error
	waiters []func(*p2p.Host)
	peers   []p2p.PeerInfo

	// The pubsub router of tables of more than two, started on the host
	// the first time one is hosted or joined (any goroutine).
	routerMu sync.Mutex
	router   *group.Router
}

// groupRouter returns the host's pubsub router, starting it once.
func (n *network) groupRouter(h *p2p.Host, log *slog.Logger) (*group.Router, error) {
	n.routerMu.Lock()
	defer n.routerMu.Unlock()
	if n.router == nil {
		r, err := group.NewRouter(h.Libp2p(), group.Config{Logger: log})
		if err != nil {
			return nil, err
		}
		n.router = r
	}
	return n.router, nil
}

func (n *network) close() {
	n.routerMu.Lock()
	if n.router != nil {
		_ = n.router.Close()
	}
	n.routerMu.Unlock()
	if n.res != nil {
		n.res.Close()
	}
	if n.host != nil {
		_ = n.host.Close()
	}
}

// ensureNet starts the main host if needed and calls then with it (on the
// tview goroutine) once it runs.
func (a *App) ensureNet(then func(*p2p.Host)) {
	if a.net == nil {
		a.net = &network{}
		cfg := p2p.Config{Key: a.cfg.Key, ListenAddrs: a.cfg.ListenAddrs, Name: a.name, EnableMDNS: a.cfg.MDNS, Logger: a.log,
			Relays: a.cfg.Relays, Bootstrap: a.cfg.Bootstrap}
		switch {
		case len(cfg.Bootstrap) > 0:
			cfg.DHT = p2p.DHTAuto
		case !a.cfg.LANOnly && len(a.cfg.PublicBootstrap) > 0:
			// A client of the public DHT: found there, never serving it.
			cfg.Bootstrap, cfg.DHT = a.cfg.PublicBootstrap, p2p.DHTClient
		}
		cfg.DiscoverRelays = cfg.DHT != p2p.DHTOff && len(cfg.Relays) == 0
		a.goBack(func() {
			h, err := p2p.New(a.ctx, cfg)
			a.post(func() { a.netReady(h, err) })
		})
	}
	if then == nil {
		return
	}
	if a.net.host != nil {
		then(a.net.host)
		return
	}
	if a.net.err == nil {
		a.net.waiters = append(a.net.waiters, then)
	}
}

// netReady takes the started host (or why it failed).
func (a *App) netReady(h *p2p.Host, err error) {
	n := a.net
	if err != nil {
		n.err = err
		n.waiters = nil
		a.log.Error("network did not start", "err", err)
		return
	}
	if a.ctx.Err() != nil {
		_ = h.Close()
		return
	}
	n.host = h
	n.res = session.NewResumer(h, a.log)
	// A peer that comes back to a match it forfeited here in an earlier
	// run gets our signed record of that.
	n.res.ServeEnded(a.store())
	for _, w := range n.waiters {
		w(h)
	}
	n.waiters = nil
	go func() {
		for range h.LANPeers() {
			list := h.LANPeerList()
			a.post(func() { n.peers = list })
		}
	}()
	go func() {
		for c := range h.Incoming() {
			a.post(func() { a.incoming(c) })
		}
	}()
}

// netStatus describes the network for the lobby's title bar.
func (a *App) netStatus() string {
	switch {
	case a.net == nil:
		return "offline"
	case a.net.err != nil:
		return "network failed: " + a.net.err.Error()
	case a.net.host == nil:
		return "starting network…"
	}
	if err := a.net.host.DiscoveryErr(); err != nil {
		if errors.Is(err, p2p.ErrDiscoveryOff) {
			return "LAN discovery off"
		}
		return "LAN: " + err.Error()
	}
	n := 0
	for _, p := range a.net.peers {
		if !p.Gone {
			n++
		}
	}
	if n == 1 {
		return "LAN: 1 peer"
	}
	return fmt.Sprintf("LAN: %d peers", n)
}

// self is the local player for handshakes.
func (a *App) selfPlayer() session.Self { return session.Self{Key: a.cfg.Key, Name: a.name} }

// offerText is what the LAN sees this host offering.
func offerText(game, variant string) string { return game + " " + variant }

// describeOffer turns a LAN peer's offer back into words.
func describeOffer(offer string) string {
	f := strings.Fields(offer)
	if len(f) == 0 {
		return "idle"
	}
	if watching(offer) {
		return "watchable: " + strings.TrimPrefix(describeOffer(strings.Join(f[1:], " ")), "offers ")
	}
	e, ok := games.Lookup(f[0])
	if !ok {
		return "offers " + offer
	}
	s := "offers " + shortTitle(e.Spec.Title)
	switch {
	case len(f) > 2:
		s += " (" + f[1] + ", " + f[2] + " players)"
	case len(f) > 1:
		s += " (" + f[1] + ")"
	}
	return s
}

// incoming takes a match stream another peer opened: a joiner of our hosted
// game, or an invitation.
func (a *App) incoming(c *p2p.Conn) {
	if hs, ok := a.top().(*hostScreen); ok {
		hs.accept(c)
		return
	}
	if _, live := a.live(); live || a.overlay != nil || a.top() != a.lobby {
		a.goBack(func() {
			_ = session.Decline(a.ctx, c, "the player is busy")
			_ = c.Close()
		})
		return
	}
	a.goBack(func() {
		inv, err := session.ReadInvite(a.ctx, c)
		if err != nil {
			a.log.Info("incoming stream is not an invitation", "err", err)
			_ = c.Close()
			return
		}
		a.post(func() { a.askInvite(c, inv) })
	})
}

// askInvite asks the player about an invitation.
func (a *App) askInvite(c *p2p.Conn, inv session.Invitation) {
	if _, live := a.live(); live || a.overlay != nil {
		a.goBack(func() {
			_ = session.Decline(a.ctx, c, "the player is busy")
			_ = c.Close()
		})
		return
	}
	name := shownName(inv.Name, FriendlyName(c.Remote()))
	what := describeOffer(offerText(inv.Offer.Game, inv.Offer.Variant))
	ask := newConfirm(a, "Invitation",
		fmt.Sprintf("%s (%s, %s) invites you to play: it %s. Answer within %d s.", name, shortID(c.Remote().String()), c.Kind(), what, int(session.HandshakeTimeout.Seconds())),
		"accept", func() { a.acceptInvite(c, name) })
	ask.no = func() {
		a.goBack(func() {
			_ = session.Decline(a.ctx, c, "the player declined")
			_ = c.Close()
		})
	}
	a.openOverlay(ask)
}

// acceptInvite joins the inviter's match on its stream.
func (a *App) acceptInvite(c *p2p.Conn, name string) {
	ws := newWaitScreen(a, "Invitation", "accepting the invitation of "+name+"…", func() { _ = c.Close() })
	a.push(ws)
	a.goBack(func() {
		m, err := session.Join(a.ctx, c, a.selfPlayer(), nil)
		a.post(func() {
			if err != nil {
				_ = c.Close()
				ws.fail(err)
				return
			}
			a.startMatch(a.netStart(m, name, false))
		})
	})
}

// invitePeer invites a LAN peer to our game and hosts it on the stream.
func (a *App) invitePeer(p p2p.PeerInfo) {
	ctx, cancel := context.WithCancel(a.ctx)
	name := shownName(p.Name, FriendlyName(p.ID))
	ws := newWaitScreen(a, "Invite", "inviting "+name+" and waiting for the answer…", cancel)
	a.push(ws)
	offer := session.Offer{Game: a.game, Variant: a.vari, Watch: a.watchable}
	a.ensureNet(func(h *p2p.Host) {
		a.goBack(func() {
			m, _, err := inviteAndHost(ctx, h, p, a.selfPlayer(), offer)
			a.post(func() {
				if err != nil {
					ws.fail(err)
					return
				}
				a.startMatch(a.netStart(m, name, true))
			})
		})
	})
}

func inviteAndHost(ctx context.Context, h *p2p.Host, p p2p.PeerInfo, self session.Self, offer session.Offer) (*session.Match, *p2p.Conn, error) {
	dctx, cancel := context.WithTimeout(ctx, ConnectTimeout)
	defer cancel()
	if err := h.Libp2p().Connect(dctx, peerAddrInfo(p)); err != nil {
		return nil, nil, fmt.Errorf("cannot reach %s: %w", shortID(p.ID.String()), err)
	}
	c, err := h.OpenMatch(dctx, p.ID)
	if err != nil {
		return nil, nil, err
	}
	if err := session.Invite(ctx, c, self, offer); err != nil {
		_ = c.Close()
		return nil, nil, err
	}
	m, err := session.Host(ctx, c, self, offer)
	if err != nil {
		_ = c.Close()
		return nil, nil, err
	}
	return m, c, nil
}

// peerAddrInfo returns where a LAN peer can be dialed.
func peerAddrInfo(p p2p.PeerInfo) peer.AddrInfo { return peer.AddrInfo{ID: p.ID, Addrs: p.Addrs} }
