package tui

import (
	"testing"
	"time"
)

func TestTerminalTooSmall(t *testing.T) {
	hs := start(t, Config{Offline: true}, 100, 30)
	hs.WaitFor("Practice against a bot")
	for _, size := range [][2]int{{79, 24}, {80, 23}, {40, 10}} {
		hs.resize(size[0], size[1])
		hs.WaitFor("terminal too small (needs 80x24)")
	}
	hs.resize(80, 24)
	hs.WaitFor("Practice against a bot", "Recent matches", "? help")
	// Keys do nothing but q while too small: h (host) is ignored, q quits.
	hs.resize(60, 20)
	hs.Keys("h", "q")
	select {
	case <-hs.done:
	case <-time.After(10 * time.Second):
		t.Fatalf("q did not quit while the terminal was too small\n%s", hs.Dump())
	}
	hs.once.Do(func() {})
	if _, ok := hs.app.top().(*lobbyScreen); !ok {
		t.Fatalf("a key pressed while too small opened %T", hs.app.top())
	}
}
