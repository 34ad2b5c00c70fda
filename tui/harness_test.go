package tui

import (
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/style"
)

// harness runs the whole interface on a tcell simulation screen: keys in,
// screen text out. Every wait polls with a timeout and dumps the screen on
// failure; nothing sleeps for a fixed time.
type harness struct {
	boardtest.Term
	t       testing.TB
	scr     tcell.SimulationScreen
	app     *App
	done    chan error
	drew    chan struct{}
	w, h    int
	once    sync.Once
	stopped chan struct{} // closed when Run has returned
}

// start runs an App with cfg on a w×h simulation screen. By default it is
// offline (no main host), keeps its data in a temporary folder, listens on
// loopback only and seeds its randomness.
func start(t testing.TB, cfg Config, w, h int) *harness {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	cfg.Screen = scr
	if cfg.DataDir == "" {
		cfg.DataDir = t.TempDir()
	}
	if cfg.ListenAddrs == nil {
		cfg.ListenAddrs = []string{"/ip4/127.0.0.1/tcp/0"}
	}
	if cfg.Rand == nil {
		cfg.Rand = rand.New(rand.NewPCG(1, 2))
	}
	if cfg.Theme == nil {
		cfg.Theme = style.New(false)
	}
	hs := &harness{t: t, scr: scr, done: make(chan error, 1), drew: make(chan struct{}), stopped: make(chan struct{}), w: w, h: h}
	hs.Term = boardtest.Term{T: t, Sim: scr, Read: hs.lines}
	first := cfg.OnFirstDraw
	cfg.OnFirstDraw = func() {
		if first != nil {
			first()
		}
		close(hs.drew)
	}
	app, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs.app = app
	go func() {
		err := app.Run()
		close(hs.stopped)
		hs.done <- err
	}()
	select {
	case <-hs.drew:
	case err := <-hs.done:
		t.Fatalf("the interface stopped before drawing: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("no first draw within 10 s")
	}
	hs.resize(w, h)
	t.Cleanup(hs.stop)
	return hs
}

// stop ends the interface and waits for it (once).
func (hs *harness) stop() {
	hs.once.Do(func() {
		hs.app.Stop()
		select {
		case <-hs.done:
		case <-time.After(20 * time.Second):
			hs.t.Errorf("the interface did not stop within 20 s")
		}
	})
}

// resize changes the screen size as a terminal resize would.
func (hs *harness) resize(w, h int) {
	hs.w, hs.h = w, h
	hs.scr.SetSize(w, h)
	hs.scr.PostEventWait(tcell.NewEventResize(w, h))
	// Wait until the interface has laid itself out at the new size, so
	// that keys sent next meet that layout.
	deadline := time.Now().Add(5 * time.Second)
	for {
		var rw, rh int
		hs.onUI(func() { _, _, rw, rh = hs.app.root.GetRect() })
		if rw == w && rh == h {
			return
		}
		if time.Now().After(deadline) {
			hs.t.Fatalf("the interface did not take the size %dx%d (it is %dx%d)\n%s", w, h, rw, rh, hs.Dump())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// lines returns the screen as lines of text. It reads the cells on the
// tview goroutine (the simulation screen hands out its live buffer, which
// draws write to), or directly once the interface has stopped.
func (hs *harness) lines() []string {
	var out []string
	read := func() {
		cells, w, h := hs.scr.GetContents()
		out = boardtest.Lines(cells, w, h)
	}
	select {
	case <-hs.stopped:
		read()
		return out
	default:
	}
	done := make(chan struct{})
	hs.app.post(func() { read(); close(done) })
	select {
	case <-done:
	case <-hs.stopped:
		read()
	case <-time.After(10 * time.Second):
		hs.t.Fatal("the UI goroutine did not answer within 10 s")
	}
	return out
}

// cells returns a copy of the screen's cells (read as text is).
func (hs *harness) cells() []tcell.SimCell {
	var out []tcell.SimCell
	done := make(chan struct{})
	hs.app.post(func() {
		c, _, _ := hs.scr.GetContents()
		out = append(out, c...)
		close(done)
	})
	<-done
	return out
}

// line returns row y of the screen.
func (hs *harness) line(y int) string {
	lines := strings.Split(hs.Text(), "\n")
	if y < 0 {
		y += len(lines) - 1
	}
	if y < 0 || y >= len(lines) {
		return ""
	}
	return lines[y]
}

// status returns a match screen's prompt line (both rows when it took
// two).
func (hs *harness) status() string { return boardtest.PromptLine(hs.Text()) }

// onUI runs f on the tview goroutine and waits for it. f must not call
// t.Fatal (it would end the tview goroutine).
func (hs *harness) onUI(f func()) {
	done := make(chan struct{})
	hs.app.post(func() { f(); close(done) })
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		hs.t.Fatal("the UI goroutine did not run a queued function within 10 s")
	}
}

var _ = tview.MouseLeftClick
