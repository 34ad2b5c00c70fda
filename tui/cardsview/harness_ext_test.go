package cardsview_test

import (
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/salvo-game/salvo/tui"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/style"
)

// ui runs the whole interface on a boardtest screen: keys in, frames out.
// Every wait polls with a timeout and shows the screen on failure.
type ui struct {
	*boardtest.UI
	dir string
}

// startUI runs the interface with cfg on a w×h screen: offline, its data
// in a temporary folder, listening on loopback only, seeded.
func startUI(t testing.TB, cfg tui.Config, w, h int) *ui {
	t.Helper()
	scr := boardtest.NewScreen()
	cfg.Screen = scr
	cfg.Offline = true
	if cfg.DataDir == "" {
		cfg.DataDir = t.TempDir()
	}
	cfg.ListenAddrs = []string{"/ip4/127.0.0.1/tcp/0"}
	if cfg.Rand == nil {
		cfg.Rand = rand.New(rand.NewPCG(1, 2))
	}
	if cfg.Theme == nil {
		cfg.Theme = style.New(false)
	}
	app, err := tui.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &ui{UI: boardtest.Start(t, app, scr, w, h, boardtest.Options{Wait: 20 * time.Second}), dir: cfg.DataDir}
}

// transcripts lists the match transcripts the interface wrote.
func (u *ui) transcripts() []string {
	m, _ := filepath.Glob(filepath.Join(u.dir, tui.MatchesDir, "*.jsonl"))
	return m
}
