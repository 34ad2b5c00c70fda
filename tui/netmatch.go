package tui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/untrusted"
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/group"
	"github.com/salvo-game/salvo/p2p/session"
	"github.com/salvo-game/salvo/tui/board"
)

// netConf makes a two-player match play over the network with session's
// reconnecting transport (Match.PlayNet, or session.Resume for a match
// taken up again from the store): a dropped stream is re-dialled and the
// match resumed with no message lost, and a restarted program resumes it
// from the lobby.
type netConf struct {
	res   *session.Resumer
	store session.Store
	// dialer is true on the side that opened the first match stream (the
	// joiner, or an inviting host): it re-dials.
	dialer bool
	// resume is a match of the store taken up again (matchStart.m is nil).
	resume *session.Saved
	// own are the slots of the values this seat committed before a
	// restart (from its transcript), for the board to draw again.
	own []engine.Slot
	// router is the host's pubsub router, for a table taken up again.
	router *group.Router
}

// tableNet is where a table over the network is kept: the match store,
// and the host it is played on.
type tableNet struct {
	store session.Store
	host  *p2p.Host
}

// tableNet is the store of a table played on host h.
func (a *App) tableNet(h *p2p.Host) *tableNet { return &tableNet{store: a.store(), host: h} }

// netPlay is the table's play configuration in the store: cfg's.
func (t *tableNet) netPlay(cfg session.PlayConfig) session.NetPlayConfig {
	return session.NetPlayConfig{Key: cfg.Key, Agent: cfg.Agent, Timeout: cfg.Timeout, Observe: cfg.Observe, Hooks: cfg.Hooks,
		Logger: cfg.Logger, Store: t.store, Reconnect: session.ReconnectConfig{GiveUp: cfg.GiveUp}}
}

// store is the folder of network matches: the same folder of the data
// directory as the other transcripts (session.Store's layout).
func (a *App) store() session.Store {
	return session.Store{Dir: filepath.Join(a.cfg.DataDir, MatchesDir)}
}

// netStart is the matchStart of an agreed two-player match over the
// network.
func (a *App) netStart(m *session.Match, opponent string, dialer bool) matchStart {
	return matchStart{m: m, key: a.cfg.Key, opponent: opponent, net: &netConf{res: a.net.res, store: a.store(), dialer: dialer}}
}

// giveUp is how long the other peer may stay unreachable before it
// forfeits.
func (a *App) giveUp() time.Duration {
	if a.cfg.GiveUp > 0 {
		return a.cfg.GiveUp
	}
	return session.DefaultGiveUp
}

// runNet starts the local seat's referee over the reconnecting transport
// (session.Runner): the agreed match, or the match of the store taken up
// again.
func (st matchStart) runNet(ctx context.Context, cfg session.NetPlayConfig) *session.Runner {
	n := st.net
	cfg.Store, cfg.Router = n.store, n.router
	if n.resume != nil {
		return session.ResumeMatch(ctx, n.res, n.resume.Match, cfg)
	}
	return session.StartMatch(ctx, n.res, st.m, n.dialer, cfg)
}

// resumeMatch takes a match of the store up again after this program (or
// the other player's) stopped: the match screen opens at once and says
// "reconnecting" until the other peer is back.
func (a *App) resumeMatch(sv session.Saved) {
	if _, live := a.live(); live {
		a.lobby.status = "finish or leave the match on screen first"
		return
	}
	name := opponentsText(playerNames(sv.Header), sv.Seat)
	store := a.store()
	a.ensureNet(func(h *p2p.Host) {
		if a.top() != a.lobby || a.net.res == nil {
			return
		}
		own, err := ownSlots(store.Transcript(sv.Match), sv.Header, sv.Seat)
		if err != nil {
			a.lobby.status = "cannot resume: " + err.Error()
			return
		}
		var router *group.Router
		if sv.Group {
			if router, err = a.net.groupRouter(h, a.log); err != nil {
				a.lobby.status = "cannot resume: the pubsub router did not start: " + err.Error()
				return
			}
		}
		a.startMatch(matchStart{key: a.cfg.Key, opponent: name, net: &netConf{res: a.net.res, store: store, dialer: false, resume: &sv, own: own, router: router}})
	})
	if a.net != nil && a.net.err != nil {
		a.lobby.status = "the network did not start: " + a.net.err.Error()
	}
}

// resumeStored takes up the match of the store named id where it stands,
// as the lobby's resume row does: `salvo resume` opens the interface on it
// for the player (a bot plays only when asked, headless). A match that
// cannot go on stays in the lobby with the reason in its status line.
func (a *App) resumeStored(id string) {
	sv, err := a.store().Load(id)
	switch {
	case err != nil:
		a.lobby.status = "cannot resume: " + err.Error()
	case !sv.InProgress():
		a.lobby.status = fmt.Sprintf("cannot resume match %.12s…: it is over", id)
	default:
		a.resumeMatch(sv)
	}
}

// playerNames lists the players' display names (a short peer ID for a
// player without one).
func playerNames(h fairness.Header) []string {
	out := make([]string, len(h.Players))
	for s, p := range h.Players {
		out[s] = shownName(p.Name, untrusted.Escape(shortID(p.Peer)))
	}
	return out
}

// ownSlots lists the slots of every value seat committed in the
// transcript at path (commit and choose inputs), so that a board resumed
// after a restart can draw the player's own hidden data again from the
// referee's copy of the secrets.
func ownSlots(path string, h fairness.Header, seat engine.Seat) ([]engine.Slot, error) {
	_, envs, err := fairness.LoadMatch(games.Spec, path)
	if err != nil {
		return nil, err
	}
	if seat < 0 || int(seat) >= len(h.Players) {
		return nil, fmt.Errorf("seat %d is not at this table", seat)
	}
	me := h.Players[seat].Peer
	var out []engine.Slot
	for _, e := range envs {
		if e.From != me {
			continue
		}
		b, err := fairness.DecodeBody(e.Body)
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", e.Seq, err)
		}
		for _, in := range b.Inputs {
			n := 0
			switch in.T {
			case fairness.InCommit:
				n = in.Size
			case fairness.InChoose:
				n = 1
			}
			for i := range n {
				out = append(out, engine.Slot{Owner: seat, Name: in.Name, Index: i})
			}
		}
	}
	return out, nil
}

// ownPeeker adds fixed slots (this seat's own commitments before a
// restart) to what a view's Peeker names.
type ownPeeker struct {
	view board.Peeker
	own  []engine.Slot
}

// Peek implements board.Peeker.
func (p ownPeeker) Peek(g engine.Game, seat engine.Seat) []engine.Slot {
	out := append([]engine.Slot(nil), p.own...)
	if p.view != nil {
		out = append(out, p.view.Peek(g, seat)...)
	}
	return out
}

// The two frames of the protocol's resume handshake and its end frame
// (docs/PROTOCOL.md, "The end of a match and resuming").
// kindText is the connection kind for the title bar.
func kindText(kind string, lostFor time.Duration) string {
	if kind == session.KindReconnecting {
		return fmt.Sprintf("reconnecting… (%s)", waited(lostFor))
	}
	return kind
}

// forfeitReason rewrites the referee's "X forfeits (abandoned)" for the
// end screen, from the closing record's detail: a peer that left on
// purpose, or one that never came back within the give-up time.
func forfeitReason(c *fairness.Closing, who string, giveUp time.Duration) string {
	if c == nil {
		return ""
	}
	switch {
	case c.Closing == fairness.CloseLeft:
		return who + " left the match and forfeits"
	case c.Closing != fairness.CloseAbandoned:
		return ""
	case strings.Contains(c.Detail, session.ErrPeerGone.Error()):
		return fmt.Sprintf("%s did not come back within %s and forfeits", who, durText(giveUp))
	case strings.Contains(c.Detail, p2p.ErrPeerClosed.Error()):
		return who + " left the match and forfeits"
	}
	return ""
}

// lossReason says why we lost when the match ended on another player's
// closing record that blames our seat (it gave up waiting for us, and we
// came back late to learn it); "" for any other end.
func lossReason(c *fairness.Closing, seat engine.Seat, who string) string {
	if c == nil || engine.Seat(c.Seat) != seat {
		return ""
	}
	switch {
	case c.Closing == fairness.CloseTimeout:
		return who + " waited longer than its time limit for your move and recorded your forfeit"
	case c.Closing == fairness.CloseAbandoned && strings.Contains(c.Detail, session.ErrPeerGone.Error()):
		return who + " gave up waiting for you to reconnect and recorded your forfeit"
	}
	return ""
}

// durText says a duration in words: "2 min", "90 s", "1 min 30 s".
func durText(d time.Duration) string {
	if d >= time.Minute && d%time.Minute == 0 {
		return fmt.Sprintf("%d min", int(d.Minutes()))
	}
	if d < time.Minute && d%time.Second != 0 {
		return d.Round(100 * time.Millisecond).String()
	}
	return waited(d)
}

// loserWords turns an engine's reason, written from the winner's side
// ("sank the whole fleet"), into the loser's view of the same fact.
var loserWords = strings.NewReplacer(
	"the whole enemy fleet", "your whole fleet",
	"the whole fleet", "your whole fleet",
	"every enemy fighter and destroyer", "every one of your fighters and destroyers",
	"both opposing planes", "both your planes",
)

// winnerDeeds are the first words of the engines' reasons that are verbs
// whose subject is the winner.
var winnerDeeds = map[string]bool{"sank": true, "shot": true, "destroyed": true, "controls": true}

// namesSeat reports whether w names a seat.
func namesSeat(w engine.Words) bool {
	for _, p := range w.Parts() {
		if p.IsSeat {
			return true
		}
	}
	return false
}

// lostBecause says why we lost with the winner as the subject: an engine's
// reason is the winner's deed, and "you lost: sank the whole fleet" read
// as if the loser had done it. A reason that names its own subject (it
// names a seat, or is a sentence of its own) is only told with the
// players' names (name).
func lostBecause(players int, winners []engine.Seat, why engine.Words, name func(engine.Seat) string) string {
	reason := why.String()
	if reason == "" || strings.ContainsAny(reason, ":;") || namesSeat(why) || len(winners) == 0 {
		return why.Say(name)
	}
	who := make([]string, 0, len(winners))
	for _, w := range winners {
		who = append(who, name(w))
	}
	if players == 2 {
		reason = loserWords.Replace(reason)
	}
	sep := " "
	if verb, _, _ := strings.Cut(reason, " "); !winnerDeeds[verb] {
		sep = ": " // "ann and bob: last squadron flying"
	}
	return strings.Join(who, " and ") + sep + reason
}
