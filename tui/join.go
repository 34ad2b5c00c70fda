package tui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/group"
	"github.com/salvo-game/salvo/p2p/session"
	"github.com/salvo-game/salvo/tui/invite"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// joinScreen takes an invite code, checks it as it is typed, and joins.
type joinScreen struct {
	base
	a      *App
	field  *tview.InputField
	busy   bool
	since  time.Time
	status string
	bad    bool
	cancel context.CancelFunc
}

func newJoinScreen(a *App) *joinScreen {
	js := &joinScreen{a: a, field: newField(a.th, "code: ", "paste the host's invite code")}
	js.field.Focus(nil)
	return js
}

func (js *joinScreen) close() {
	if js.cancel != nil {
		js.cancel()
	}
}

func (js *joinScreen) typing() bool { return !js.busy }

func (js *joinScreen) key(ev *tcell.EventKey) {
	if !js.busy {
		js.field.InputHandler()(ev, func(tview.Primitive) {})
		js.status = ""
	}
}

func (js *joinScreen) paste(t string) {
	if !js.busy {
		js.field.PasteHandler()(t, func(tview.Primitive) {})
		js.status = ""
	}
}

// connect dials the code's peer, opens the match stream and joins.
func (js *joinScreen) connect() {
	a := js.a
	t, err := invite.Parse(js.field.GetText())
	if err != nil {
		js.status, js.bad = err.Error(), true
		return
	}
	ctx, cancel := context.WithCancel(a.ctx)
	js.cancel = cancel
	js.busy, js.since, js.bad = true, time.Now(), false
	js.status = fmt.Sprintf("connecting to %s…", shortID(t.ID.String()))
	a.ensureNet(func(h *p2p.Host) {
		n := a.net
		a.goBack(func() {
			st, err := dialAndJoin(ctx, h, t, a.selfPlayer(), func(s string) { a.post(func() { js.status = s }) },
				func() (*group.Router, error) { return n.groupRouter(h, a.log) })
			a.post(func() {
				js.busy = false
				if err != nil {
					if !errors.Is(err, context.Canceled) {
						js.status, js.bad = err.Error(), true
					}
					return
				}
				st.key = a.cfg.Key
				if st.m != nil {
					st = a.netStart(st.m, st.opponent, true)
				}
				a.startMatch(st)
			})
		})
	})
	if a.net != nil && a.net.err != nil {
		js.busy, js.status, js.bad = false, "the network did not start: "+a.net.err.Error(), true
	}
}

// dialAndJoin dials the code's host and joins its match: a two-player
// match on the stream, or, when the host offers a table of more (its info
// answer says how many), the group handshake, which moves the match to a
// pubsub topic through router.
func dialAndJoin(ctx context.Context, h *p2p.Host, t invite.Target, self session.Self, progress func(string),
	router func() (*group.Router, error)) (matchStart, error) {
	dctx, cancel := context.WithTimeout(ctx, ConnectTimeout)
	defer cancel()
	id, err := h.ConnectInvite(dctx, t.Invite)
	if err != nil {
		return matchStart{}, fmt.Errorf("cannot reach the host: %w", err)
	}
	players := 2
	if info, err := h.QueryInfo(dctx, id); err == nil {
		players = offerPlayers(info.Offer)
	}
	var r *group.Router
	if players > 2 {
		// The router must run before the handshake: the other joiners
		// find this peer through it.
		if r, err = router(); err != nil {
			return matchStart{}, fmt.Errorf("the pubsub router did not start: %w", err)
		}
	}
	c, err := h.OpenMatch(dctx, id)
	if err != nil {
		return matchStart{}, fmt.Errorf("the host did not open a match stream: %w", err)
	}
	if players > 2 {
		progress(fmt.Sprintf("connected (%s); waiting for the table of %d to fill…", c.Kind(), players))
		m, err := session.JoinGroup(ctx, r, c, self, nil)
		if err != nil {
			return matchStart{}, err
		}
		return matchStart{group: m}, nil
	}
	progress(fmt.Sprintf("connected (%s); agreeing on the match…", c.Kind()))
	m, err := session.Join(ctx, c, self, nil)
	if err != nil {
		_ = c.Close()
		return matchStart{}, err
	}
	name := shownName(m.Header.Players[0].Name, FriendlyName(c.Remote()))
	return matchStart{m: m, opponent: name}, nil
}

// offerPlayers reads the table size from a host's offer ("air standard 3");
// an offer without one is a two-player game.
func offerPlayers(offer string) int {
	f := strings.Fields(offer)
	if len(f) < 3 {
		return 2
	}
	n, err := strconv.Atoi(f[2])
	if err != nil || n < 2 {
		return 2
	}
	return n
}

func (js *joinScreen) draw(scr tcell.Screen, x, y, w, h int) {
	a, th := js.a, js.a.th
	titleBar(scr, th, x, y, w, []style.Seg{style.S("Salvo · Join a game", th.Base)},
		[]style.Seg{style.S(a.you(), th.Base)})
	row := y + 2
	style.Print(scr, x+2, row, w-4, th.Base, "Paste or type the invite code the host gave you:")
	row += 2
	js.field.SetRect(x+2, row, w-4, 1)
	js.field.Draw(scr)
	row += 2
	t, err := invite.Parse(js.field.GetText())
	switch {
	case errors.Is(err, invite.ErrEmpty):
		style.Print(scr, x+2, row, w-4, th.Dim, "a code looks like SALVO1-AB3XK-… (case, spaces and dashes do not matter)")
	case err != nil:
		style.Print(scr, x+2, row, w-4, th.Bad, style.Truncate(style.Fail+" "+err.Error(), w-4))
	default:
		msg := fmt.Sprintf("%s host %s, %d address(es) to try", style.OK, shortID(t.ID.String()), t.Addrs)
		if t.Invite.Short() {
			msg = fmt.Sprintf("%s host %s, short code: looked up in the public DHT", style.OK, shortID(t.ID.String()))
		}
		if t.Relayed > 0 {
			msg += fmt.Sprintf(" (%d through a relay)", t.Relayed)
		}
		if !t.Issued.IsZero() {
			msg += ", made " + ageText(time.Since(t.Issued))
		}
		style.Print(scr, x+2, row, w-4, th.Good, msg)
	}
	row += 2
	if js.status != "" {
		st := th.Base
		prefix := ""
		if js.busy {
			st, prefix = th.Warn, a.spinner()+" "
		}
		if js.bad {
			st, prefix = th.Bad, style.Fail+" "
		}
		text := prefix + js.status
		if js.busy {
			text += " · " + waited(time.Since(js.since))
		}
		for _, l := range style.Wrap(text, w-4, "  ") {
			style.Print(scr, x+2, row, w-4, st, l)
			row++
		}
	}
}

func (js *joinScreen) bindings() []keys.Binding {
	if js.busy {
		return []keys.Binding{{Keys: []keys.Key{keyEsc}, Label: "esc", Hint: "cancel", Help: "stop connecting", Run: func() {
			if js.cancel != nil {
				js.cancel()
			}
		}}}
	}
	return []keys.Binding{
		{Keys: []keys.Key{keyEnter}, Label: "enter", Hint: "join", Help: "connect to the host and join its game", Run: js.connect},
		{Keys: []keys.Key{keyEsc}, Label: "esc", Hint: "back", Pin: true, Help: "back to the lobby", Run: js.a.toLobby},
	}
}

// ageText says how old a code is: "just now", "5 min ago", "3 h ago".
func ageText(d time.Duration) string {
	switch {
	case d < 2*time.Minute: // codes carry their issue time to the minute
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h ago", int(d.Hours()))
	}
	return fmt.Sprintf("%d days ago", int(d.Hours()/24))
}
