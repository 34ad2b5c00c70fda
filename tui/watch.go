package tui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/watch"
	"github.com/salvo-game/salvo/tui/invite"
	"github.com/salvo-game/salvo/tui/style"
)

// WatchedDir is the folder of the matches directory that keeps the
// records spectators verified (salvo audit reads them like any other).
const WatchedDir = "watched"

// WatchWait is how long a spectator waits for a host's match to start.
const WatchWait = 5 * time.Minute

// liveWatch is the audit viewer's live side when it follows a match as a
// spectator: the record on disk holds only lines that passed every check
// (watch.Watch verifies each before it keeps it), and the viewer replays
// it again as it grows, so the board, the messages and their checks are
// the audit viewer's own.
type liveWatch struct {
	cancel  context.CancelFunc
	status  string // what the watch is doing, while it has no record
	stopped string // why it stopped early: a false line, a refusal
	ended   bool   // the watch is over
	dirty   atomic.Bool
}

// openWatch opens the audit viewer on the match that code's player
// plays, as a spectator.
func (a *App) openWatch(code string) {
	as := &auditScreen{a: a, field: newField(a.th, "/", "search the messages"), live: &liveWatch{status: "connecting to the player…"}}
	a.closeOverlay()
	a.push(as)
	t, err := invite.Parse(code)
	if err != nil {
		as.live.stopped, as.live.ended = "not an invite code: "+err.Error(), true
		return
	}
	ctx, cancel := context.WithCancel(a.ctx)
	as.live.cancel = cancel
	a.ensureNet(func(h *p2p.Host) {
		a.goBack(func() { as.follow(ctx, h, t) })
	})
	if a.net != nil && a.net.err != nil {
		as.live.stopped, as.live.ended = "the network did not start: "+a.net.err.Error(), true
	}
}

// follow runs the watch (on a goroutine of its own) and keeps the
// record's file and the screen up to date.
func (as *auditScreen) follow(ctx context.Context, h *p2p.Host, t invite.Target) {
	a, lw := as.a, as.live
	dctx, cancel := context.WithTimeout(ctx, ConnectTimeout)
	id, err := h.ConnectInvite(dctx, t.Invite)
	cancel()
	if err != nil {
		a.post(func() { lw.stopped, lw.ended = "cannot reach the player: "+err.Error(), true })
		return
	}
	a.post(func() { lw.status = "waiting for the match to start…" })
	rec := watch.NewRecord()
	saved := make(chan struct{})
	go func() {
		defer close(saved)
		as.save(ctx, rec)
	}()
	stopReload := make(chan struct{})
	go as.reloads(stopReload)
	_, err = watch.Watch(ctx, peer.AddrInfo{ID: id}, watch.Config{Host: h.Libp2p(), Specs: games.Spec, Record: rec, Wait: WatchWait, Log: a.log})
	rec.End()
	<-saved
	close(stopReload)
	a.post(func() {
		lw.ended = true
		var stop *watch.Stopped
		switch {
		case errors.As(err, &stop):
			lw.stopped = "stopped: " + stop.Error() + "; nothing after it is shown"
		case err != nil && ctx.Err() == nil:
			lw.stopped = err.Error()
		}
		as.reload()
	})
}

// save writes the record's lines, as they are verified, to a file of the
// watched folder named by the match, and marks the screen for a reload.
func (as *auditScreen) save(ctx context.Context, rec *watch.Record) {
	first, err := rec.Line(ctx, 1)
	if err != nil {
		return
	}
	h, _, err := fairness.ReadTranscript(bytes.NewReader(append(first, '\n')))
	if err == nil && len(h.Match) < 16 {
		err = errors.New("short match ID")
	}
	var f *os.File
	if err == nil {
		f, err = as.createWatched(h.Match)
	}
	if err != nil {
		as.a.post(func() { as.err = err })
		return
	}
	defer f.Close()
	path := f.Name()
	as.a.post(func() { as.path = path })
	for n := 1; ; n++ {
		line, err := rec.Line(ctx, n)
		if err != nil {
			return
		}
		if _, err := f.Write(append(line, '\n')); err != nil {
			as.a.post(func() { as.err = err })
			return
		}
		as.live.dirty.Store(true)
	}
}

// createWatched creates the file a watched match's record goes to.
func (as *auditScreen) createWatched(match string) (*os.File, error) {
	dir, err := as.a.matchesDir()
	if err != nil {
		return nil, err
	}
	dir = filepath.Join(dir, WatchedDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("watched folder: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, match[:16]+".jsonl"), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("watched record: %w", err)
	}
	return f, nil
}

// reloadEvery bounds how often the viewer replays the growing record.
const reloadEvery = 250 * time.Millisecond

// reloads replays the record on the screen, at most every reloadEvery,
// while it grows, until stop is closed.
func (as *auditScreen) reloads(stop <-chan struct{}) {
	t := time.NewTicker(reloadEvery)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			if as.live.dirty.Swap(false) {
				as.a.post(as.reload)
			}
		}
	}
}

// reload replays the record file again; a viewer that showed the newest
// message moves on to the new newest, one looking back stays where it is.
func (as *auditScreen) reload() {
	path := as.path
	if path == "" {
		return
	}
	as.a.goBack(func() {
		data, err := replayFile(path)
		as.a.post(func() {
			sel, follow := as.sel, as.data == nil || as.sel >= len(as.data.steps)-1
			as.loaded(data, err)
			if !follow && err == nil && sel < len(data.steps) {
				as.sel = sel
				as.show()
			}
		})
	})
}

// liveHeading is the title's first words: an audit names its file, a
// watch says it is live.
func (as *auditScreen) liveHeading() string {
	switch {
	case as.live == nil && as.data != nil && as.data.unverified:
		return "Notation, UNVERIFIED · " + filepath.Base(as.path)
	case as.live == nil:
		return "Audit · " + filepath.Base(as.path)
	case as.live.ended:
		return "Watched"
	}
	return "Watching · live"
}

// liveVerdict is the verdict line of a watch: why it stopped, or, while
// the match goes on, that every message shown passed every check.
func (as *auditScreen) liveVerdict(rep *fairness.Report) (string, bool) {
	lw := as.live
	switch {
	case lw == nil:
		return "", false
	case lw.stopped != "":
		return style.Fail + " " + lw.stopped, true
	case !lw.ended && rep != nil && rep.Verdict == fairness.Incomplete:
		text := fmt.Sprintf("%s live: %d messages, every one checked as it arrived", style.OK, len(rep.Steps))
		if _, next, ok := strings.Cut(rep.Detail, "while the match waits for "); ok {
			text += " · waiting for " + next
		}
		return text, true
	}
	return "", false
}

// close stops a watch when its screen goes.
func (as *auditScreen) close() {
	if as.live != nil && as.live.cancel != nil {
		as.live.cancel()
	}
}

// watchOfferWord starts the LAN offer of a player whose match may be
// watched: "watch ubuild standard".
const watchOfferWord = "watch"

// watching reports whether a LAN peer's offer says it plays a match
// spectators may follow.
func watching(offer string) bool {
	f := strings.Fields(offer)
	return len(f) > 1 && f[0] == watchOfferWord
}

// advertiseWatch tells the LAN, while a network match its host opened to
// spectators runs (until played is closed), that it may be watched: the
// lobbies nearby list it with a Watch entry.
func (a *App) advertiseWatch(st matchStart, played <-chan struct{}) {
	h := st.header()
	if !h.Watch || st.practice || a.net == nil || a.net.host == nil {
		return
	}
	host := a.net.host
	if err := host.SetOffer(watchOfferWord + " " + offerText(h.Game, h.Variant)); err != nil {
		return
	}
	go func() {
		<-played
		_ = host.SetOffer("")
	}()
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
