package boardtest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// App is an interface that runs until stopped, such as a *tui.App.
type App interface {
	// Run runs the interface until Stop; it returns once it has stopped.
	Run() error
	// Stop ends Run.
	Stop()
}

// Options tune [Start]. The zero value waits [DefaultWait].
type Options struct {
	// Wait is how long WaitFor and its kin wait; zero means [DefaultWait].
	Wait time.Duration
	// StopWithin is how long the test waits for the interface to stop at
	// its end before it fails; zero means 30 s.
	StopWithin time.Duration
}

// UI is an [App] running on a [Screen], driven through its [Term].
type UI struct {
	*Term
	// Screen is the screen the interface draws on.
	Screen *Screen
	app    App
	done   chan error
	once   sync.Once
	within time.Duration
}

// Start runs app (which must draw on scr) until the test ends, waits for
// its first frame, and resizes scr to w×h as a terminal would, waiting for
// a frame of that size. The interface is stopped at the test's cleanup, or
// earlier by [UI.Stop].
func Start(t testing.TB, app App, scr *Screen, w, h int, o Options) *UI {
	t.Helper()
	if app == nil || scr == nil {
		t.Fatal("boardtest.Start: no application or no screen")
		return nil
	}
	u := &UI{Term: &Term{T: t, Sim: scr, Read: scr.Lines, Timeout: o.Wait}, Screen: scr, app: app, done: make(chan error, 1), within: o.StopWithin}
	if u.within <= 0 {
		u.within = 30 * time.Second
	}
	go func() { u.done <- app.Run() }()
	t.Cleanup(u.Stop)
	deadline := time.Now().Add(10 * time.Second)
	for scr.Frames() == 0 {
		select {
		case err := <-u.done:
			u.done <- err // for Stop
			t.Fatalf("the interface stopped before drawing: %v", err)
			return u
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("no first draw within 10 s")
			return u
		}
		time.Sleep(poll)
	}
	u.Resize(w, h)
	return u
}

// Stop ends the interface and waits for it to stop (once; later calls do
// nothing).
func (u *UI) Stop() {
	u.once.Do(func() {
		u.app.Stop()
		select {
		case <-u.done:
		case <-time.After(u.within):
			u.T.Errorf("the interface did not stop within %v", u.within)
		}
	})
}

// Resize changes the screen's size as a terminal resize would, and waits
// for a frame of that size.
func (u *UI) Resize(w, h int) {
	u.T.Helper()
	u.Post(w, h)
	u.WaitLines(fmt.Sprintf("a %dx%d frame", w, h), 10*time.Second, func([]string) bool {
		_, fw, fh := u.Screen.Frame()
		return fw == w && fh == h
	})
}

// Post changes the screen's size as a terminal resize would, without
// waiting for the interface to draw at it. It fails the test if the
// interface takes no event for 10 s.
func (u *UI) Post(w, h int) {
	u.T.Helper()
	u.Screen.SetSize(w, h)
	deadline := time.Now().Add(10 * time.Second)
	for u.Screen.PostEvent(tcell.NewEventResize(w, h)) != nil {
		if time.Now().After(deadline) {
			u.T.Fatalf("the interface took no resize to %dx%d within 10 s", w, h)
			return
		}
		time.Sleep(poll)
	}
}

// Cells returns the last frame's cells and its width.
func (u *UI) Cells() ([]tcell.SimCell, int) {
	c, w, _ := u.Screen.Frame()
	return c, w
}
