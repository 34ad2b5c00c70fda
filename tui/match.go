package tui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p/session"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// link is what the status line reads from the match stream (a *p2p.Conn).
type link interface {
	Kind() string
	RTT() time.Duration
}

// matchStart is an agreed match, ready to play on the match screen: two
// players over a match stream (m), or a table of more over a pubsub topic
// (group).
type matchStart struct {
	m        *session.Match
	group    *session.GroupMatch
	key      crypto.PrivKey
	opponent string
	practice bool
	timeout  time.Duration
	// release frees what the match used (the loopback pair, the stream)
	// once it is over or abandoned.
	release func()
	// net makes a two-player match over the network survive dropped links
	// and restarts (nil for practice and tables), and takes a table of the
	// store up again.
	net *netConf
	// table keeps a table over the network in the match store (nil for
	// practice and two players).
	table *tableNet
}

// agreed is the agreed match's header, the local seat and the game's
// registry entry, whichever way the match was agreed.
func (st matchStart) agreed() (fairness.Header, engine.Seat, games.Entry) {
	switch {
	case st.group != nil:
		return st.group.Header, st.group.Seat, st.group.Entry
	case st.m != nil:
		return st.m.Header, st.m.Seat, st.m.Entry
	}
	e, _ := games.Lookup(st.net.resume.Header.Game)
	return st.net.resume.Header, st.net.resume.Seat, e
}

// header is the agreed match's header.
func (st matchStart) header() fairness.Header {
	h, _, _ := st.agreed()
	return h
}

// seat is the local seat.
func (st matchStart) seat() engine.Seat {
	_, s, _ := st.agreed()
	return s
}

// spec is the game's spec.
func (st matchStart) spec() engine.Spec {
	_, _, e := st.agreed()
	return e.Spec
}

// stream is the two-player match stream (nil for a table or a resumed
// match).
func (st matchStart) stream() session.Stream {
	if st.group != nil || st.m == nil {
		return nil
	}
	return st.m.Stream
}

// play runs the local seat's referee to the end of the match.
func (st matchStart) play(ctx context.Context, cfg session.PlayConfig) (*fairness.Result, error) {
	if st.group != nil && st.table != nil {
		return st.group.PlayStored(ctx, st.table.host, st.table.netPlay(cfg))
	}
	if st.group != nil {
		return st.group.Play(ctx, cfg)
	}
	return st.m.Play(ctx, cfg)
}

// opponentsText names the other players for the title bar: the one
// opponent, a list of them, or how many when the list is long.
func opponentsText(names []string, seat engine.Seat) string {
	var others []string
	for s, n := range names {
		if engine.Seat(s) != seat {
			others = append(others, n)
		}
	}
	if t := strings.Join(others, ", "); len([]rune(t)) <= MaxOpponentsText || len(others) < 2 {
		return t
	}
	return fmt.Sprintf("%d opponents", len(others))
}

// matchScreen is a live match: the title bar, the board, the verification
// pane and the prompt line.
type matchScreen struct {
	base
	a          *App
	st         matchStart
	spec       engine.Spec
	seat       engine.Seat
	names      []string
	opponent   string
	transcript string
	view       board.View
	describer  board.Describer
	human      *board.Human
	ctx        context.Context
	cancel     context.CancelFunc
	// stopFor ends ctx with a cause: fairness.ErrLeaving when the player
	// leaves a table, whose referee then hands its left record over.
	stopFor context.CancelCauseFunc
	vlog    *verifyLog
	feed    *eventFeed
	mates   []string    // teammates' names (the Air team game)
	mover   engine.Seat // whose turn it is, as far as the notes tell

	game     engine.Game
	noted    engine.Game // the game of the referee's last note
	seq      uint64
	inSync   bool
	req      *board.Request
	waiting  bool
	waitSeat engine.Seat
	waitNeed engine.Need
	since    time.Time
	done     bool
	result   *fairness.Result
	runErr   error
	evidence *evidence
	kind     string
	rtt      time.Duration
	logFocus bool
	logWide  bool
	released bool

	// A match over the network: its reconnecting transport (set by the
	// referee's goroutine), when the link was lost, the kinds of
	// connection the title bar showed in order, whether the player left on
	// purpose, and played, closed when the referee's run is over.
	rc      atomic.Pointer[session.Reconnecting]
	over    atomic.Bool // the referee's last note came: the link no longer matters
	lostAt  time.Time
	kinds   []string
	leaving bool
	// othersGone: the referee heard that the others are gone while we owe
	// a move (a "lost" note). Our move records their forfeit; leaving then
	// signs nothing, for our forfeit would be a lie.
	othersGone bool
	played     chan struct{}
	// runner runs a match over the network (nil for any other): the
	// screen renders its notes and suspends or leaves through it.
	runner *session.Runner
	links  liveness // who is gone, read every KindEvery (liveness.go)
}

// startMatch opens the match screen above the lobby and starts the referee.
func (a *App) startMatch(st matchStart) {
	a.closeOverlay()
	a.toLobby()
	ms := newMatchScreen(a, st)
	a.push(ms)
	ms.begin()
}

func newMatchScreen(a *App, st matchStart) *matchScreen {
	h := st.header()
	ms := &matchScreen{a: a, st: st, spec: st.spec(), seat: st.seat(), opponent: st.opponent, waitSeat: engine.NoSeat, mover: engine.NoSeat, played: make(chan struct{})}
	for s, p := range h.Players {
		name := p.Name
		if name == "" {
			name = shortID(p.Peer)
		}
		if engine.Seat(s) == ms.seat {
			name = a.name
		}
		ms.names = append(ms.names, name)
	}
	env := board.Env{Theme: a.th, Spec: ms.spec, Variant: h.Variant, Rand: a.rand}
	if f, ok := board.Lookup(ms.spec.Name); ok {
		ms.view = f(env)
	} else {
		ms.view = newPlainView(a.th)
	}
	ms.describer, _ = ms.view.(board.Describer)
	ms.vlog = newVerifyLog(a.th)
	ms.feed = newEventFeed(a.th, ms.view)
	ms.ctx, ms.stopFor = context.WithCancelCause(a.ctx)
	ms.cancel = func() { ms.stopFor(nil) }
	if l, ok := st.stream().(link); ok {
		ms.setKind(l.Kind())
	}
	if st.net != nil && st.net.resume != nil {
		ms.setKind(session.KindReconnecting)
	}
	if st.group != nil {
		ms.kind = "gossipsub"
	}
	if st.practice {
		ms.kind = "loopback"
	}
	g, err := ms.spec.New(engine.Setup{Seats: len(h.Players), Variant: h.Variant})
	if err == nil {
		ms.game = g
		ms.view.Show(ms.snapshot())
	}
	if ms.opponent == "" {
		var foes []string
		foes, ms.mates = sides(ms.names, ms.seat, g)
		ms.opponent = opponentsText(foes, engine.NoSeat)
	}
	return ms
}

// say tells words (a reason, a prompt) that name seats with the players'
// names.
func (ms *matchScreen) say(w engine.Words) string { return board.Snapshot{Names: ms.names}.Say(w) }

// name is the display name of seat.
func (ms *matchScreen) name(seat engine.Seat) string {
	return board.Snapshot{Names: ms.names}.Name(seat)
}

func (ms *matchScreen) snapshot() board.Snapshot {
	var known board.Known
	if ms.human != nil {
		known = ms.human.Known()
	}
	return board.Snapshot{Game: ms.game, Seat: ms.seat, Secrets: known, Names: ms.names}
}

// setKind notes the connection kind the transport reports now.
func (ms *matchScreen) setKind(k string) {
	if k == ms.kind || ms.done {
		return
	}
	if k == session.KindReconnecting {
		ms.lostAt = time.Now()
	}
	ms.kind = k
	ms.kinds = append(ms.kinds, k)
}

// begin starts the referee and the round-trip probe.
func (ms *matchScreen) begin() {
	a := ms.a
	ms.human = board.NewHuman(a.post, ms.ask, ms.withdraw)
	ms.human.OnAnswered(ms.answered)
	var pk board.Peeker
	if p, ok := ms.view.(board.Peeker); ok {
		pk = p
	}
	if ms.st.net != nil && len(ms.st.net.own) > 0 {
		pk = ownPeeker{view: pk, own: ms.st.net.own}
	}
	if pk != nil {
		ms.human.SetPeeker(pk)
	}
	switch {
	case ms.st.net != nil:
		ms.transcript = ms.st.net.store.TranscriptFor(ms.st.header(), ms.seat)
	case ms.st.table != nil:
		ms.transcript = ms.st.table.store.TranscriptFor(ms.st.header(), ms.seat)
	default:
		dir, err := a.matchesDir()
		if err != nil {
			ms.finish(nil, err)
			return
		}
		ms.transcript = filepath.Join(dir, session.TranscriptName(ms.st.header(), ms.seat))
	}
	timeout := ms.st.timeout
	if timeout == 0 {
		timeout = HumanTimeout
	}
	if a.cfg.Timeout > 0 {
		timeout = a.cfg.Timeout
	}
	st, key, path, ctx, seat, played := ms.st, ms.st.key, ms.transcript, ms.ctx, ms.seat, ms.played
	observe := func(n fairness.Note) {
		// The note's copy of our secrets: the cards a shared deck dealt us
		// show before we are asked anything.
		ms.human.Refresh(n.Game, seat, n.Secrets)
		if n.Dir == fairness.DirStop {
			ms.lastKind()
			ms.over.Store(true)
		}
		a.post(func() { ms.note(n) })
	}
	a.advertiseWatch(st, played)
	if st.net != nil {
		r := st.runNet(ctx, session.NetPlayConfig{Key: key, Agent: ms.human, Timeout: timeout, Observe: observe, Logger: a.log,
			Reconnect:   session.ReconnectConfig{GiveUp: a.giveUp()},
			OnTransport: func(rc *session.Reconnecting) { ms.rc.Store(rc) }})
		ms.runner = r
		a.goBack(func() {
			defer close(played)
			res, err := r.Result()
			a.post(func() { ms.finish(res, err) })
			r.Wait() // a program quitting now lets the other side fetch our last message
		})
		ms.watchLiveness()
		ms.watchLink()
		return
	}
	a.goBack(func() {
		defer close(played)
		res, err := st.play(ctx, session.PlayConfig{Key: key, Agent: ms.human, Transcript: path, Timeout: timeout,
			Observe: observe, Logger: a.log, GiveUp: a.giveUp()})
		if err != nil || res != nil && res.Closing != nil {
			// Closing the stream lets the other side see the end at once
			// (a table's topic is left when its Play returns).
			if c, ok := st.stream().(interface{ Close() error }); ok {
				_ = c.Close()
			}
		}
		a.post(func() { ms.finish(res, err) })
	})
	ms.watchLiveness()
	if l, ok := st.stream().(link); ok && !ms.st.practice {
		ms.every(RTTEvery, nil, func() {
			rtt := l.RTT()
			a.post(func() { ms.rtt = rtt })
		})
	}
}

// every runs f now and every d after on a background goroutine, until the
// screen's context ends or done is closed (a nil done: never). f runs off
// the UI goroutine: it posts what it changes.
func (ms *matchScreen) every(d time.Duration, done <-chan struct{}, f func()) {
	ctx := ms.ctx
	ms.a.goBack(func() {
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			f()
			select {
			case <-t.C:
			case <-ctx.Done():
				return
			case <-done:
				return
			}
		}
	})
}

func (ms *matchScreen) live() bool { return !ms.done }

// asking reports whether the referee waits for the local player.
func (ms *matchScreen) asking() bool { return ms.req != nil && ms.req.Pending() }

func (ms *matchScreen) ask(r *board.Request) {
	if ms.done {
		return
	}
	ms.req = r
	ms.logFocus = false
	if r.Game != nil {
		// The state the question is about (a match resumed on our turn
		// has had no note yet).
		ms.game = r.Game
		ms.view.Show(ms.snapshot())
	}
	ms.view.Ask(r)
}

// answered draws what the player just committed: a decision asked for
// ahead of the turn is taken with no note of the referee's to show it. The
// board goes back to the match as the referee's last note showed it: an
// early question's game is the match as it will stand at the player's turn
// (the others' set-up done), which would say it is still theirs to do.
func (ms *matchScreen) answered(*board.Request) {
	if ms.done {
		return
	}
	if ms.noted != nil {
		ms.game = ms.noted
	}
	ms.view.Show(ms.snapshot())
}

func (ms *matchScreen) withdraw(r *board.Request) {
	ms.view.Withdraw(r)
	if ms.req == r {
		ms.req = nil
	}
}

// note takes one note of the referee.
func (ms *matchScreen) note(n fairness.Note) {
	if n.Game != nil {
		ms.game, ms.noted = n.Game, n.Game
		ms.view.Show(ms.snapshot())
	}
	ms.seq = max(ms.seq, n.Seq)
	switch n.Dir {
	case fairness.DirWait:
		ms.waiting, ms.waitSeat, ms.waitNeed, ms.since = true, n.Wait, n.Need, time.Now()
	case fairness.DirIn, fairness.DirOut:
		ms.waiting, ms.inSync = false, true
	case fairness.DirLost:
		// The others are gone while we owe a move: our move comes first,
		// then their forfeit (the verification log says so).
		ms.inSync, ms.othersGone = false, true
	case fairness.DirStop:
		ms.waiting = false
		if !n.OK {
			ms.inSync = false
		}
	}
	ms.vlog.note(n, ms.names)
	ms.feed.note(n, ms.snapshot())
	ms.noteMover(n)
}

// finish takes the end of the referee's run.
func (ms *matchScreen) finish(res *fairness.Result, err error) {
	if ms.done {
		return
	}
	ms.done, ms.result, ms.runErr = true, res, err
	ms.waiting = false
	if ms.req != nil {
		ms.view.Withdraw(ms.req)
		ms.req = nil
	}
	if res != nil && res.Violation != nil {
		ms.evidence = gatherEvidence(res.Violation, ms.transcript, ms.describer, ms.name)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		ms.a.log.Warn("match ended with an error", "err", err)
	}
	ms.releaseNow()
}

func (ms *matchScreen) releaseNow() {
	if !ms.released && ms.st.release != nil {
		ms.released = true
		rel := ms.st.release
		ms.a.goBack(rel)
	}
}

// abandon leaves a live match: the referee stops and the stream closes,
// so the other side sees us leave (a table's topic is left).
func (ms *matchScreen) abandon() {
	ms.cancel()
	if c, ok := ms.st.stream().(interface{ Close() error }); ok {
		_ = c.Close()
	}
	ms.releaseNow()
}

// close is called when the screen goes for good. A live match the player
// did not leave on purpose is being stopped with the program: a match over
// the network is only suspended (its referee stops without a word, the
// other side waits for it to come back, and the lobby resumes it); any
// other is abandoned.
func (ms *matchScreen) close() {
	if !ms.done && !ms.leaving {
		if ms.st.net == nil {
			ms.abandon()
		}
	}
	ms.cancel()
}

// leave goes back to the lobby, asking first if the match is live.
func (ms *matchScreen) leave() {
	if !ms.done {
		ms.a.openOverlay(newConfirm(ms.a, "Leave the match?", ms.leaveText(), "leave", func() {
			ms.forfeit()
			ms.a.toLobby()
		}))
		return
	}
	ms.a.toLobby()
}

// goneWho names who is gone when the others left while we owe a move.
func (ms *matchScreen) goneWho() string {
	if len(ms.names) > 2 {
		return "the others are"
	}
	return ms.opponent + " is"
}

// out reports whether the game has put our seat out (a squadron shot
// down in a 3-4 player Air match): nothing waits for us any more, and
// leaving forfeits nothing.
func (ms *matchScreen) out() bool {
	o, ok := ms.game.(engine.Outer)
	return ok && !ms.done && o.Out(ms.seat)
}

// leaveText says what leaving a live match does.
func (ms *matchScreen) leaveText() string {
	if ms.out() {
		return fmt.Sprintf("You were shot down and are out of the game: leaving forfeits nothing, and the others play on without you. The transcript so far stays in %s.", ms.transcript)
	}
	if ms.othersGone {
		return fmt.Sprintf("The others are gone: make your move and their forfeit is recorded. Leaving now records nobody's forfeit, and the match stays unfinished. The transcript so far stays in %s.", ms.transcript)
	}
	if r, ok := ms.game.(engine.Remover); ok && r.PlaysOn(ms.seat) {
		return fmt.Sprintf("Leaving takes you off the table: your planes leave the board at once and the others play on without you, to the last player standing. The transcript so far stays in %s.", ms.transcript)
	}
	if len(ms.names) > 2 {
		return fmt.Sprintf("Leaving abandons the match: you forfeit, and the others win once the match waits for your move and you have been gone %s (unless they set another limit). The transcript so far stays in %s.",
			durText(ms.a.giveUp()), ms.transcript)
	}
	return fmt.Sprintf("Leaving abandons the match: %s wins by forfeit at once. The transcript so far stays in %s.", ms.opponent, ms.transcript)
}

// goneForGood says what becomes of this player at a table once the others
// have given up waiting for it: in a game that plays on without a leaver
// (engine.Remover) its planes leave the board, else it forfeits.
func (ms *matchScreen) goneForGood() string {
	if r, ok := ms.game.(engine.Remover); ok && r.PlaysOn(ms.seat) {
		return "your planes leave the board and they play on without you"
	}
	return "you forfeit and the others win"
}

// quitText says what quitting the program does to the live match.
func (ms *matchScreen) quitText() string {
	switch {
	case ms.out():
		return fmt.Sprintf("You were shot down and are out of the game: quitting forfeits nothing, and the others play on without you. The transcript so far stays in %s.", ms.transcript)
	case len(ms.names) > 2 && (ms.st.table != nil || ms.st.net != nil):
		return fmt.Sprintf("The match against %s is still on. Quitting pauses it: start Salvo again and resume it from the lobby (Recent matches, %s resume). Once the match waits for your move, the others wait %s for you (unless set otherwise), then %s.",
			ms.opponent, style.Play, durText(ms.a.giveUp()), ms.goneForGood())
	case len(ms.names) > 2:
		return fmt.Sprintf("The match against %s is still on. Quitting abandons it: once the others have waited for your next move, %s. The transcript so far stays in %s.",
			ms.opponent, ms.goneForGood(), ms.transcript)
	case ms.st.net != nil:
		return fmt.Sprintf("The match against %s is still on. Quitting pauses it: start Salvo again and resume it from the lobby (Recent matches, %s resume). %s waits %s for you (unless set otherwise), then wins by forfeit.",
			ms.opponent, style.Play, ms.opponent, durText(session.DefaultGiveUp))
	}
	return fmt.Sprintf("The match against %s is still on. Quitting abandons it: %s wins by forfeit. The transcript so far stays in %s.", ms.opponent, ms.opponent, ms.transcript)
}

// forfeit leaves a live match on purpose. Any other match (practice, a
// table) stops and signs our forfeit into our own transcript. A match over
// the network
// stops its referee as a stopping program would (nothing more is sent),
// then signs our forfeit into our own transcript and hands it to the
// other peer, on a fresh resume stream (session.Leave): its referee
// records that same record at once. The store marks the match ended, so
// the lobby does not offer to resume it.
func (ms *matchScreen) forfeit() {
	if ms.done || ms.leaving {
		return
	}
	ms.leaving = true
	if ms.othersGone || ms.out() {
		// The others left first, or we are out of the game and nothing
		// waits for us: nothing of ours to sign, our record just stops.
		ms.cancel()
		return
	}
	if ms.st.net == nil {
		// A table's referee signs our left record into our transcript and
		// hands it to the others (in a free-for-all they play on without
		// us at once); WriteAdmission below then finds the record there.
		ms.stopFor(fairness.ErrLeaving)
		ms.abandon()
		a, path, key, played := ms.a, ms.transcript, ms.st.key, ms.played
		a.goBack(func() {
			// Our own record ends with our signed forfeit, as the dialog
			// says (the others record theirs on their own).
			select {
			case <-played:
			case <-a.ctx.Done():
				return
			}
			if t := ms.st.table; t != nil {
				// A table of the store: our forfeit, and the store no
				// longer offers it for resuming.
				err := session.Leave(a.ctx, t.host, t.store, key, ms.st.header().Match)
				if err != nil {
					a.log.Info("the left table's transcript does not record our forfeit", "err", err)
				}
				return
			}
			if _, err := session.WriteAdmission(path, key); err != nil {
				a.log.Info("the left match's transcript does not record our forfeit", "err", err)
			}
		})
		return
	}
	ms.cancel()
	a, r := ms.a, ms.runner
	a.left[r.Match()] = true
	a.goBack(func() {
		ctx, cancel := context.WithTimeout(context.Background(), LeaveNotifyTimeout)
		defer cancel()
		if err := r.Leave(ctx); err != nil {
			a.log.Info("could not tell the other player we left; it forfeits us after its give-up time", "err", err)
		}
	})
}

// watchLink follows the match transport's connection kind (every
// KindEvery, so that "reconnecting" shows at once) and round-trip time
// (every RTTEvery) until the referee is done.
func (ms *matchScreen) watchLink() {
	a := ms.a
	ms.every(KindEvery, ms.played, func() {
		if rc := ms.rc.Load(); rc != nil && !ms.over.Load() {
			k := rc.Kind()
			a.post(func() { ms.setKind(k) })
		}
	})
	ms.every(RTTEvery, ms.played, func() {
		if rc := ms.rc.Load(); rc != nil {
			rtt := rc.RTT()
			a.post(func() { ms.rtt = rtt })
		}
	})
}

// lastKind reads the link's kind once more as the match ends (the
// referee's last note, before the transport closes): the poll, every
// KindEvery, may not have seen the link come back before a match that
// played out at once.
func (ms *matchScreen) lastKind() {
	if rc := ms.rc.Load(); rc != nil {
		k := rc.Kind()
		ms.a.post(func() { ms.setKind(k) })
	}
}

// reconnecting reports whether a network match has no link now.
func (ms *matchScreen) reconnecting() bool {
	return ms.st.net != nil && !ms.done && ms.kind == session.KindReconnecting
}

// outcomeText says how the match ended, from our side.
func (ms *matchScreen) outcomeText() (string, tcell.Style) {
	th := ms.a.th
	switch {
	case ms.evidence != nil:
		return fmt.Sprintf("%s %s cheated: the match is stopped and the transcript kept", style.Fail, ms.evidence.who), th.Bad
	case ms.result == nil && ms.runErr != nil:
		if errors.Is(ms.runErr, context.Canceled) {
			return "you left the match", th.Warn
		}
		return "the match failed: " + ms.sayError(ms.runErr), th.Bad
	case ms.result == nil:
		return "the match ended", th.Dim
	case ms.result.Removed:
		return "you were taken off the table after your silence: your planes left the board and the others play on", th.Warn
	}
	o := ms.result.Outcome
	switch {
	case o.Draw:
		return "draw: " + ms.say(o.Why()), th.Accent
	case len(o.Winners) > 0:
		for _, w := range o.Winners {
			if w == ms.seat {
				why := ms.say(o.Why())
				if r := forfeitReason(ms.result.Closing, ms.forfeiter(ms.result.Closing), ms.a.giveUp()); r != "" {
					why = r
				}
				return style.OK + " you won: " + why, th.Good
			}
		}
		why := lostBecause(len(ms.names), o.Winners, o.Why(), ms.name)
		if r := lossReason(ms.result.Closing, ms.seat, ms.opponent); r != "" {
			why = r
		}
		return "you lost: " + why, th.Warn
	case ms.result.Closing != nil:
		return "the match stopped: " + ms.say(stopWords(ms.result)), th.Warn
	case ms.runErr != nil:
		if errors.Is(ms.runErr, context.Canceled) {
			return "you left the match", th.Warn
		}
		return "the match failed: " + ms.sayError(ms.runErr), th.Bad
	}
	return "the match ended: " + ms.say(o.Why()), th.Dim
}

// turnText says whose turn it is, for the title bar.
func (ms *matchScreen) turnText() string {
	switch {
	case ms.evidence != nil:
		return "CHEAT DETECTED"
	case ms.done:
		t, _ := ms.outcomeText()
		return strings.TrimPrefix(strings.SplitN(t, ":", 2)[0], style.OK+" ")
	case ms.asking():
		return "your turn"
	case ms.waiting && ms.waitSeat != engine.NoSeat && ms.waitSeat != ms.seat:
		return ms.waitTurnText()
	}
	return "…"
}

func (ms *matchScreen) draw(scr tcell.Screen, x, y, w, h int) {
	th := ms.a.th
	conn := ms.linkText()
	if ms.done && ms.kind == session.KindReconnecting || ms.othersGone {
		conn = "link lost"
	}
	if ms.rtt > 0 && ms.kind != session.KindReconnecting {
		conn += fmt.Sprintf(" · rtt %d ms", max(1, ms.rtt.Milliseconds()))
	}
	tst := th.Accent
	if ms.asking() {
		tst = th.Warn
	}
	if ms.evidence != nil {
		tst = th.Bad
	}
	sync := style.S(fmt.Sprintf("seq %d %s in sync", ms.seq, style.OK), th.Base)
	if !ms.inSync && ms.seq > 0 || ms.evidence != nil {
		sync = style.S(fmt.Sprintf("seq %d %s stopped", ms.seq, style.Fail), th.Bad)
	}
	titleBar(scr, th, x, y, w, ms.titleLeft(w, conn, tst, []style.Seg{sync}), []style.Seg{sync})

	rows := ms.statusRows(w, h)
	bodyY, bodyH := y+1, h-1-len(rows)
	logW := LogWidth
	if ms.logWide {
		logW = min(LogWideWidth, w/2+4)
	}
	boardW := w - logW - 1
	if ms.evidence != nil {
		drawCheat(scr, th, ms.evidence, x, bodyY, boardW, bodyH)
	} else {
		ms.view.SetRect(x+1, bodyY, boardW-1, bodyH)
		ms.view.Draw(scr)
	}
	for j := bodyY; j < bodyY+bodyH; j++ {
		scr.Put(x+boardW, j, "│", th.Dim)
	}
	ms.drawSide(scr, x+boardW+2, bodyY, logW-2, bodyH)

	for i, l := range rows {
		style.PrintSegs(scr, x+1, y+h-len(rows)+i, w-2, l...)
	}
}

// statusLine is the prompt line: what is awaited, from whom, for how
// long; at the end, how it ended and where the transcript is.
func (ms *matchScreen) statusLine(w int) []style.Seg {
	a, th := ms.a, ms.a.th
	var line []style.Seg
	switch {
	case ms.done:
		t, st := ms.outcomeText()
		line = []style.Seg{style.S(t, st)}
		if ms.evidence == nil && ms.transcript != "" {
			// The whole path when it fits on a row, else the file's
			// name (a opens it; the lobby lists it): never a path cut
			// short.
			path := ms.transcript
			if len("transcript ")+style.Width(path) > w-2 {
				path = filepath.Base(path)
			}
			line = append(line, style.S(" · transcript "+path, th.Dim))
		}
	case ms.asking() && ms.othersGone:
		line = []style.Seg{style.S(fmt.Sprintf("%s %s gone: your move ends the match · ", style.Fail, ms.goneWho()), th.Bad), style.S(ms.view.Prompt(), th.Accent)}
	case ms.asking():
		line = []style.Seg{style.S(ms.view.Prompt(), th.Accent)}
	case ms.reconnecting():
		line = ms.outageLine()
	case ms.awayWait() != nil:
		line = ms.awayWait()
	case ms.waiting:
		line = []style.Seg{style.S(a.spinner()+" ", th.Warn), style.S(waitingText(ms.name(ms.waitSeat), ms.say(ms.waitNeed.Asks()), ms.waitNeed.Kind.String()), th.Warn),
			style.S(fmt.Sprintf(" · %s", waited(time.Since(ms.since))), th.Dim)}
		line = append(line, ms.awayTail()...)
	default:
		line = []style.Seg{style.S(a.spinner()+" checking and sending…", th.Dim)}
	}
	return line
}

// waitingText says whom we wait for and what for. An engine's prompt is
// addressed to the player who acts ("commit your fighters' strengths"):
// shown as is after another player's name it read as if it were ours, so
// such a prompt becomes the other player's deed ("waiting for bob to commit
// their fighters' strengths").
func waitingText(who, prompt, kind string) string {
	switch {
	case prompt == "":
		return fmt.Sprintf("waiting for %s: %s", who, kind)
	case yourWord.MatchString(prompt) && !strings.Contains(prompt, ":"):
		return fmt.Sprintf("waiting for %s to %s", who, strings.TrimSuffix(yourWord.ReplaceAllString(prompt, "their"), "?"))
	}
	return fmt.Sprintf("waiting for %s: %s", who, prompt)
}

// yourWord finds "your" as a word in a prompt.
var yourWord = regexp.MustCompile(`\byour\b`)

// shortTitle drops the "Battleship " of a game title for the title bar.
func shortTitle(t string) string { return strings.TrimPrefix(t, "Battleship ") }

// waited renders a waiting time: "4 s", "2 min 5 s".
func waited(d time.Duration) string {
	s := int(d.Seconds())
	if s < 60 {
		return fmt.Sprintf("%d s", s)
	}
	return fmt.Sprintf("%d min %d s", s/60, s%60)
}

func (ms *matchScreen) bindings() []keys.Binding {
	var local []keys.Binding
	switch {
	case ms.logFocus:
		local = []keys.Binding{
			{Keys: []keys.Key{keys.K(tcell.KeyUp), keys.R('k')}, Label: "↑↓", Hint: "select", Help: "select a line of the verification log", Run: func() { ms.vlog.move(-1) }},
			{Keys: []keys.Key{keys.K(tcell.KeyDown), keys.R('j')}, Label: "↓", Hint: "select", Hidden: true, Run: func() { ms.vlog.move(1) }},
			{Keys: []keys.Key{keyEnter}, Label: "enter", Hint: "raw message", Help: "show the selected message as signed, and the commitments its openings were checked against", Run: ms.openDetail},
			{Keys: []keys.Key{keys.R('l'), keyEsc}, Label: "l", Hint: "back to board", Help: "narrow the verification log and give the keys back to the board", Run: func() { ms.logFocus, ms.logWide = false, false }},
		}
	case !ms.done:
		local = ms.view.Bindings()
		local = append(local, ms.feedBinding(), keys.Binding{Keys: []keys.Key{keys.R('l')}, Label: "l", Hint: "log", Help: "widen the verification log and select its lines (enter shows a raw signed message)", Run: func() {
			ms.logFocus, ms.logWide = true, true
			ms.vlog.sel = len(ms.vlog.entries) - 1
		}})
	default:
		local = []keys.Binding{
			{Keys: []keys.Key{keys.R('a')}, Label: "a", Hint: "audit", Help: "open this match's transcript in the audit viewer", Run: func() { ms.a.openAudit(ms.transcript) }},
			ms.feedBinding(),
			{Keys: []keys.Key{keys.R('l')}, Label: "l", Hint: "log", Help: "widen the verification log and select its lines", Run: func() {
				ms.logFocus, ms.logWide = true, true
				ms.vlog.sel = len(ms.vlog.entries) - 1
			}},
		}
	}
	// Leaving an ended match takes q (or esc), never enter: a player who
	// presses enter to fire the moment the match stops must not lose the
	// result or the cheat panel.
	quit := keys.Binding{Keys: []keys.Key{keys.R('q')}, Label: "q", Hint: "leave", Pin: true, Help: "leave the match (asks first: leaving a live match forfeits it)", Run: ms.leave}
	if ms.done {
		quit.Keys = append(quit.Keys, keyEsc)
		quit.Hint, quit.Help = "lobby", "back to the lobby"
	}
	return keys.Merge(local, []keys.Binding{quit})
}

// openDetail shows the selected log line's message as it was signed.
func (ms *matchScreen) openDetail() {
	e, ok := ms.vlog.selected()
	if !ok || e.seq == 0 {
		return
	}
	h, m, err := findMessage(ms.transcript, e.seq)
	if err != nil {
		ms.a.openOverlay(newTextBox(ms.a, "Message", []style.Seg{style.S(err.Error(), ms.a.th.Bad)}))
		return
	}
	ms.a.openOverlay(newTextBox(ms.a, fmt.Sprintf("Message %d", e.seq), messageLines(ms.a, h, m, ms.describer, ms.name)))
}

func (ms *matchScreen) mouse(action tview.MouseAction, ev *tcell.EventMouse) bool {
	if ms.done || ms.evidence != nil {
		return false
	}
	ok, _ := ms.view.MouseHandler()(action, ev, func(tview.Primitive) {})
	return ok
}
