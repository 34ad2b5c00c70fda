package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/salvo-game/salvo/fairness"
)

// A side's absence is what it can prove, never what the other side says
// nor how old its transcript is: a player may think for ten minutes over
// one move, or wait that long for a stalling opponent, with the link up
// and nothing written. While a match runs, the process keeps a heartbeat
// in the store, <match ID>.alive: the file's modification time is the
// last moment the process was seen running the match. A restarted process
// was away from then until its start; without the file (a match of an
// older Salvo) it proves no absence at all. A link that was down while a
// process of ours ran is no absence of ours: that process waited, and
// would have given up on the other side itself. (An attacker who cut the
// link and came back after a quick restart of ours, once the link had
// been down for a give-up time, had its record of our forfeit adopted
// when the outage counted from the link's loss.)

// Heartbeat bounds: the file is written every give-up time / aliveParts,
// but not more often than aliveMin nor less often than aliveMax. A
// restart measures its outage long by at most one interval.
const (
	aliveParts = 8
	aliveMin   = 10 * time.Millisecond
	aliveMax   = 10 * time.Second
)

func (s Store) aliveFile(match string) string { return filepath.Join(s.Dir, match+".alive") }

// aliveEvery is the heartbeat interval for a give-up time.
func aliveEvery(giveUp time.Duration) time.Duration {
	return min(max(giveUp/aliveParts, aliveMin), aliveMax)
}

// keepAlive beats the heartbeat of match for rc, now and every interval,
// until stop is called; stop waits for the last beat to end.
func (s Store) keepAlive(match string, rc *Reconnecting) (stop func()) {
	path, err := s.file(match, s.aliveFile)
	if err != nil {
		rc.log.Warn("no heartbeat: a restart will date its outage from its start", "err", err)
		return func() {}
	}
	failed := false // said once, not every beat
	beat := func() {
		err := os.WriteFile(path, []byte("{}"), 0o600)
		if err != nil && !failed {
			rc.log.Warn("heartbeat not written: a restart may count its outage long", "err", err)
		}
		failed = err != nil
	}
	beat()
	done, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		t := time.NewTicker(aliveEvery(rc.cfg.GiveUp))
		defer t.Stop()
		for {
			select {
			case <-t.C:
				beat()
			case <-done:
				return
			}
		}
	}()
	return func() {
		close(done)
		<-ended
	}
}

// awaySince is when this side's process last ran match, as its heartbeat
// proves it: the last beat. ok is false when there is no heartbeat to go
// by.
func (s Store) awaySince(match string) (since time.Time, ok bool, err error) {
	path, err := s.file(match, s.aliveFile)
	if err != nil {
		return time.Time{}, false, err
	}
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, fmt.Errorf("session: heartbeat: %w", err)
	}
	return fi.ModTime(), true, nil
}

// dropAlive removes the heartbeat of a match that is over here.
func (s Store) dropAlive(match string) {
	if path, err := s.file(match, s.aliveFile); err == nil {
		_ = os.Remove(path)
	}
}

// awaySince is when the match lost its stream, for an outage under way
// (the zero time while a stream is up): the stream's loss, or, for a
// restarted process, its heartbeat's last beat. It is shown to the
// player; what counts as our absence for the other side's records is
// only the time our process did not run (claimCheck).
func (r *Reconnecting) awaySince() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cur != nil {
		return time.Time{}
	}
	since := r.link.since
	if !r.downSince.IsZero() && (since.IsZero() || r.downSince.Before(since)) {
		since = r.downSince
	}
	return since
}

// claimCheck says whether the closing record c that the other side handed
// over in its end frame may be taken as this side's forfeit: only when
// this side was away, as far as it can prove, for at least its own
// give-up time (then the other side may well have given up on it): its
// process did not run the match for that long, and the record is dated no
// later than the last message this side had when its stream came back. A link that was down while
// a process of ours ran proves nothing: that process waited, and would
// have given up itself. It returns why not otherwise, in words for the
// closing record this side writes instead and for the player: the other
// side's claim about our absence, which we know to be false, is named as
// its claim.
func (r *Reconnecting) claimCheck(c *fairness.Closing) (ok bool, why string) {
	if c.Closing == fairness.CloseLeft && c.By == r.remote.String() {
		// The other side's own word that it left: no claim about us, so
		// it needs no absence of ours (the referee checks that it blames
		// its writer and fits the match).
		return true, ""
	}
	r.mu.Lock()
	away, giveUp, back := r.outage, r.cfg.GiveUp, r.backAt
	r.mu.Unlock()
	switch {
	case away < giveUp:
		return false, fmt.Sprintf("the other side claims %s after message %d, but this side was here: the longest it was away is %v, under its give-up time %v",
			claimWords(c), c.Seq, away.Round(time.Millisecond), giveUp)
	case c.Seq > back:
		// The absence ended when the stream came back, at message back:
		// a record dated after that is about a time this side was here.
		return false, fmt.Sprintf("the other side claims %s after message %d, but this side was here since message %d",
			claimWords(c), c.Seq, back)
	}
	return true, ""
}

// claimWords says what a closing record from the network claims, in
// words of our own (its detail, free text from the other side, is left
// out).
func claimWords(c *fairness.Closing) string {
	switch c.Closing {
	case fairness.CloseAbandoned:
		return fmt.Sprintf("seat %d abandoned the match", c.Seat)
	case fairness.CloseTimeout:
		return fmt.Sprintf("seat %d timed out", c.Seat)
	case fairness.CloseLeft:
		return fmt.Sprintf("seat %d left the match", c.Seat)
	case fairness.CloseViolation:
		return fmt.Sprintf("seat %d broke the rules", c.Seat)
	}
	return fmt.Sprintf("seat %d forfeited", c.Seat)
}
