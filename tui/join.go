package tui

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/p2p"
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
		a.goBack(func() {
			m, c, err := dialAndJoin(ctx, h, t, a.selfPlayer(), func(s string) { a.post(func() { js.status = s }) })
			a.post(func() {
				js.busy = false
				if err != nil {
					if !errors.Is(err, context.Canceled) {
						js.status, js.bad = err.Error(), true
					}
					return
				}
				name := m.Header.Players[0].Name
				if name == "" {
					name = FriendlyName(c.Remote())
				}
				a.startMatch(matchStart{m: m, key: a.cfg.Key, opponent: name, release: func() { _ = c.Close() }})
			})
		})
	})
	if a.net != nil && a.net.err != nil {
		js.busy, js.status, js.bad = false, "the network did not start: "+a.net.err.Error(), true
	}
}

func dialAndJoin(ctx context.Context, h *p2p.Host, t invite.Target, self session.Self, progress func(string)) (*session.Match, *p2p.Conn, error) {
	dctx, cancel := context.WithTimeout(ctx, ConnectTimeout)
	defer cancel()
	id, err := h.ConnectInvite(dctx, t.Invite)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot reach the host: %w", err)
	}
	c, err := h.OpenMatch(dctx, id)
	if err != nil {
		return nil, nil, fmt.Errorf("the host did not open a match stream: %w", err)
	}
	progress(fmt.Sprintf("connected (%s); agreeing on the match…", c.Kind()))
	m, err := session.Join(ctx, c, self, nil)
	if err != nil {
		_ = c.Close()
		return nil, nil, err
	}
	return m, c, nil
}

func (js *joinScreen) draw(scr tcell.Screen, x, y, w, h int) {
	a, th := js.a, js.a.th
	titleBar(scr, th, x, y, w, []style.Seg{style.S("Salvo · Join a game", th.Base)},
		[]style.Seg{style.S(fmt.Sprintf("you: %s (%s)", a.name, shortID(a.self.String())), th.Base)})
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
