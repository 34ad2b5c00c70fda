package boardtest

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// DefaultWait is how long [Term.WaitFor], [Term.WaitGone] and [Term.WaitRe]
// wait when [Term.Timeout] is zero.
const DefaultWait = 30 * time.Second

// poll is how often a wait looks at the screen again.
const poll = 5 * time.Millisecond

// Term drives a whole interface through its simulation screen: keys and
// clicks go in as a terminal would send them, the screen comes out as text,
// and every wait polls with a timeout and fails the test with the screen.
type Term struct {
	// T is the test the terminal fails.
	T testing.TB
	// Sim is the screen keys and clicks are injected into.
	Sim tcell.SimulationScreen
	// Read returns the screen as lines, or nil while there is nothing to
	// read. It must be safe to call while the interface draws (a
	// [Screen]'s Lines is).
	Read func() []string
	// Timeout is how long WaitFor, WaitGone and WaitRe wait; zero means
	// [DefaultWait].
	Timeout time.Duration
}

// Lines returns the screen as lines (nil when Read is nil or has nothing).
func (m *Term) Lines() []string {
	if m.Read == nil {
		return nil
	}
	return m.Read()
}

// Text returns the screen as text, every line ended by a newline.
func (m *Term) Text() string { return Join(m.Lines()) }

// Dump formats the screen for a failure message.
func (m *Term) Dump() string { return "screen:\n" + m.Text() }

func (m *Term) timeout() time.Duration {
	if m.Timeout > 0 {
		return m.Timeout
	}
	return DefaultWait
}

// WaitLines polls until ok holds for the screen's lines and returns them;
// it fails the test, showing the screen and what it waited for, once
// timeout has passed. A screen with no lines yet is never offered to ok.
func (m *Term) WaitLines(what string, timeout time.Duration, ok func([]string) bool) []string {
	m.T.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if l := m.Lines(); l != nil && ok(l) {
			return l
		}
		if time.Now().After(deadline) {
			m.T.Fatalf("waited %v for %s\n%s", timeout, what, m.Dump())
			return nil
		}
		time.Sleep(poll)
	}
}

// WaitFunc is [Term.WaitLines] on the screen's text (as [Term.Text]).
func (m *Term) WaitFunc(what string, timeout time.Duration, ok func(string) bool) string {
	m.T.Helper()
	return Join(m.WaitLines(what, timeout, func(l []string) bool { return ok(Join(l)) }))
}

// WaitFor polls until every one of texts is on screen, and returns the
// screen.
func (m *Term) WaitFor(texts ...string) string {
	m.T.Helper()
	return m.WaitFunc(fmt.Sprintf("%q", texts), m.timeout(), func(s string) bool {
		for _, t := range texts {
			if !strings.Contains(s, t) {
				return false
			}
		}
		return true
	})
}

// WaitGone polls until text is off the screen.
func (m *Term) WaitGone(text string) {
	m.T.Helper()
	m.WaitFunc(fmt.Sprintf("%q to go", text), m.timeout(), func(s string) bool { return !strings.Contains(s, text) })
}

// WaitRe polls until re matches the screen, and returns the submatches.
func (m *Term) WaitRe(re *regexp.Regexp) []string {
	m.T.Helper()
	if re == nil {
		m.T.Fatal("WaitRe: no regular expression")
		return nil
	}
	var sub []string
	m.WaitFunc(re.String(), m.timeout(), func(s string) bool {
		sub = re.FindStringSubmatch(s)
		return sub != nil
	})
	return sub
}

// Keys types: a string rune by rune, a tcell.Key as a key press. Anything
// else fails the test.
func (m *Term) Keys(ks ...any) {
	m.T.Helper()
	if m.Sim == nil {
		m.T.Fatal("keys: no screen")
		return
	}
	for _, k := range ks {
		switch k := k.(type) {
		case string:
			for _, r := range k {
				m.Sim.InjectKey(tcell.KeyRune, r, tcell.ModNone)
			}
		case tcell.Key:
			m.Sim.InjectKey(k, 0, tcell.ModNone)
		default:
			m.T.Fatalf("keys: %T", k)
		}
	}
}

// Click clicks the left button at x, y (press and release).
func (m *Term) Click(x, y int) {
	if m.Sim == nil {
		return
	}
	m.Sim.InjectMouse(x, y, tcell.Button1, tcell.ModNone)
	m.Sim.InjectMouse(x, y, tcell.ButtonNone, tcell.ModNone)
}

// Find returns where text is on screen: its column (in cells) and row.
func (m *Term) Find(text string) (x, y int, ok bool) {
	return Find(m.Lines(), text)
}

// Find returns where text first stands in lines: its column (in runes) and
// row.
func Find(lines []string, text string) (x, y int, ok bool) {
	for y, l := range lines {
		if i := strings.Index(l, text); i >= 0 {
			return len([]rune(l[:i])), y, true
		}
	}
	return 0, 0, false
}

// PromptLine returns the match screen's prompt line of screen text s: the
// line above the key bar, and the one above that when the prompt took two
// (a row of the board and side pane has their "│" between them), joined;
// "" when there is none.
func PromptLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	n := len(lines)
	if n < 2 {
		return ""
	}
	if n >= 5 { // a screen, not a few lines of a test
		if above := lines[n-3]; !strings.Contains(above, "│") && strings.TrimSpace(above) != "" {
			return " " + strings.TrimSpace(above) + " " + strings.TrimSpace(lines[n-2])
		}
	}
	return lines[n-2]
}

// KeyBar returns the key-hint bar of screen text s (its last line).
func KeyBar(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// endings are the match screen's words for a match that is over.
var endings = []string{"you won", "you lost", "draw:", "CHEATING DETECTED", "the match stopped", "the match failed", "you left"}

// Ended reports whether screen text s shows the end of a match.
func Ended(s string) bool {
	for _, w := range endings {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// Settle polls until changed holds for the screen's lines or within has
// passed, and reports whether it held. It never fails the test: it is for
// waiting until the interface has taken a key that it may also ignore.
func (m *Term) Settle(within time.Duration, changed func([]string) bool) bool {
	deadline := time.Now().Add(within)
	for {
		if l := m.Lines(); l != nil && changed(l) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(poll)
	}
}

// WaitFile polls until the file at path holds more than white space, such
// as the invite code a hosting interface writes, and returns its content
// trimmed of white space. It fails the test, showing the screen, once
// timeout has passed.
func (m *Term) WaitFile(path string, timeout time.Duration) string {
	m.T.Helper()
	var got string
	m.WaitLines("the file "+path, timeout, func([]string) bool {
		b, err := os.ReadFile(path)
		got = strings.TrimSpace(string(b))
		return err == nil && got != ""
	})
	return got
}

// Alternate plays several interfaces at one table: until done holds, it
// offers each player a turn in order (turn(i) reports whether player i
// acted) and sleeps a moment when nobody did. Once within has passed it
// fails the test, saying what it waited for and showing every player's
// screen (terms, by player).
func Alternate(t testing.TB, what string, within time.Duration, terms []*Term, done func() bool, turn func(i int) bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !done() {
		if time.Now().After(deadline) {
			var b strings.Builder
			for i, m := range terms {
				fmt.Fprintf(&b, "\nplayer %d %s", i, m.Dump())
			}
			t.Fatalf("waited %v for %s%s", within, what, b.String())
			return
		}
		acted := false
		for i := range terms {
			if turn(i) {
				acted = true
			}
		}
		if !acted {
			time.Sleep(poll)
		}
	}
}
