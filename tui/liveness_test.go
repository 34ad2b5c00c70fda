package tui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/p2p/session"
	"github.com/salvo-game/salvo/tui/board/boardtest"
)

// liveDeadline is how soon after a player's link dies the others' title
// and status must say who is gone (issue 14, requirement 3).
const liveDeadline = 5 * time.Second

// countdown matches the give-up countdown: "gives up in 1:57".
var countdown = regexp.MustCompile(`gives up in \d+:\d\d`)

// TestTitleCountsDownAnOutage kills the joiner's network mid-match while
// the host waits for it: within seconds the host's title bar says what
// the link is doing ("reconnecting · 2 s, gives up in 1:58") and the
// status line who is gone and when it forfeits, at 80x24 too.
func TestTitleCountsDownAnOutage(t *testing.T) {
	t.Parallel()
	host, guest := netPair(t, "ubuild", Config{Offline: true}, Config{Offline: true})
	drive(host, 3)
	gd := drive(guest, 4)
	waitSeq(t, host, 6)
	gd.paused.Store(true)
	waitAsked(t, guest) // the host then waits for the joiner
	guest.onUI(func() { _ = guest.app.net.host.Close() })
	cut := time.Now()
	for _, size := range [][2]int{{100, 30}, {80, 24}} {
		host.resize(size[0], size[1])
		host.WaitFunc("the outage in the title and the status", liveDeadline-time.Since(cut), func(string) bool {
			title, status := host.line(0), host.status()
			return strings.Contains(title, "reconnecting · ") && countdown.MatchString(title) &&
				regexp.MustCompile(`the link to bob dropped .* bob forfeits in 1:\d\d`).MatchString(status)
		})
		t.Logf("%dx%d:\n%s\n%s", size[0], size[1], host.line(0), host.status())
	}
}

// TestTableSaysWhoIsGoneAndGivesUp hosts a table of three and kills one
// player's network: within seconds the other two titles name it with the
// give-up countdown (at 80x24 too), and once the match waits for it past
// the give-up time it is taken off the table, as the free-for-all has it:
// both feeds say its planes leave the board and play goes on (before,
// every screen said "in sync" and waited for it ten minutes; then the
// match ended by its forfeit with a shared win).
func TestTableSaysWhoIsGoneAndGivesUp(t *testing.T) {
	t.Parallel()
	const giveUp = 3 * time.Second
	cfg := func(name string) Config {
		return Config{Offline: true, Name: name, Game: "air", Timeout: time.Minute, GiveUp: giveUp}
	}
	host := start(t, cfg("ann"), 100, 30)
	host.WaitFor("players 2")
	host.Keys("n", "h")
	host.WaitFor("waiting for players to join: 0 of 2 seated")
	var code string
	host.onUI(func() { code = host.app.top().(*hostScreen).code })
	join := func(name string) *harness {
		c := cfg(name)
		c.Start, c.Code = StartJoin, code
		return start(t, c, 100, 30)
	}
	bob := join("bob")
	host.WaitFor("1 of 2 seated")
	cy := join("cy")
	for _, h := range []*harness{host, bob, cy} {
		h.WaitFor("gossipsub", "Your hand (7 cards)")
	}
	bob.resize(80, 24) // the title must say it at 80x24 too
	cy.onUI(func() { _ = cy.app.net.host.Close() })
	cut := time.Now()
	for _, h := range []*harness{host, bob} {
		h.WaitFunc("cy gone in the title", liveDeadline-time.Since(cut), func(string) bool {
			title := h.line(0)
			return strings.Contains(title, "cy gone") && (countdown.MatchString(title) || strings.Contains(title, "forfeits on its turn"))
		})
	}
	t.Logf("ann's title: %s\nbob's title at 80x24: %s", host.line(0), bob.line(0))
	// The others play on; once the match waits for cy it leaves the board.
	const leftLine = "cy left: their planes leave the board; play goes on"
	var seen [2]bool
	deadline := time.Now().Add(60 * time.Second)
	for !seen[0] || !seen[1] {
		for i, h := range []*harness{host, bob} {
			// One read of the screen: the status line may change
			// between two reads.
			txt := h.Text()
			status := boardtest.PromptLine(txt)
			switch {
			case strings.Contains(txt, leftLine) || h.feedHas(leftLine):
				seen[i] = true
			case strings.Contains(status, "Choose a card for the"):
				h.Keys("x", tcell.KeyEnter)
			case strings.Contains(status, "cy is gone"):
				if !regexp.MustCompile(`cy leaves the board in \d+:\d\d`).MatchString(status) {
					t.Fatalf("the status line has no countdown\n%s", h.Dump())
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("cy was not taken off the table\nann %s\nbob %s", host.Dump(), bob.Dump())
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Nobody waits for cy any more: the titles stop counting down.
	for _, h := range []*harness{host, bob} {
		h.WaitFunc("cy no longer gone in the title", 10*time.Second, func(string) bool { return !strings.Contains(h.line(0), "cy gone") })
	}
}

// The outage texts: a countdown in minutes and seconds, and the time
// gone in seconds (short enough for the title at 80 columns).
func TestOutageWords(t *testing.T) {
	for _, c := range []struct {
		d          time.Duration
		clock, ago string
	}{
		{0, "0:00", "0 s"},
		{-time.Second, "0:00", "0 s"},
		{97 * time.Second, "1:37", "97 s"},
		{119*time.Second + 600*time.Millisecond, "2:00", "119 s"},
		{12 * time.Minute, "12:00", "12 min 0 s"},
	} {
		if got := clock(c.d); got != c.clock {
			t.Errorf("clock(%v) = %q, want %q", c.d, got, c.clock)
		}
		if got := gone(c.d); got != c.ago {
			t.Errorf("gone(%v) = %q, want %q", c.d, got, c.ago)
		}
	}
}

// feedHas reports whether the match screen's event feed holds a line
// with text (the feed may be scrolled or hidden at a small size).
func (hs *harness) feedHas(text string) bool {
	found := false
	hs.tryUI(func() {
		if ms, ok := hs.app.top().(*matchScreen); ok {
			for _, e := range ms.feed.entries {
				found = found || strings.Contains(e.text, text)
			}
		}
	})
	return found
}

// The title bar's outage words follow the transport's link phase.
func TestOutageTitleReadsThePhase(t *testing.T) {
	for _, c := range []struct {
		phase session.LinkPhase
		want  string
	}{
		{session.LinkReconnecting, "reconnecting · 23 s, gives up in 1:37"},
		{session.LinkWaiting, "reconnecting · 23 s, gives up in 1:37"},
		{session.LinkResuming, "resuming · 23 s, gives up in 1:37"},
	} {
		if got := outageTitle(c.phase, 23*time.Second, 97*time.Second); got != c.want {
			t.Errorf("%s: %q, want %q", c.phase, got, c.want)
		}
	}
}
