package tui

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// Start says which screen the interface opens on.
type Start int

// The screens the interface can open on.
const (
	StartLobby    Start = iota // the lobby (salvo)
	StartPractice              // a practice match against a bot (salvo play)
	StartHost                  // hosting, with the invite code (salvo host)
	StartJoin                  // joining by code (salvo join CODE)
	StartAudit                 // the audit viewer on a file
	StartResume                // a network match of the store, where it stands (salvo resume)
	StartWatch                 // watching the match of the player an invite code names (salvo watch CODE)
)

// Config sets up the interface.
type Config struct {
	// Screen is where to draw; nil means the terminal. Tests pass a
	// tcell simulation screen.
	Screen tcell.Screen
	// Theme overrides the look; nil means style.Default() (monochrome
	// under NO_COLOR).
	Theme *style.Theme
	// Logger receives the interface's and the network's logs; it must not
	// write to the terminal. Nil discards.
	Logger *slog.Logger
	// DataDir keeps match transcripts; "" means p2p.DataDir().
	DataDir string
	// Profile is which of the data directory's profiles DataDir is (see
	// p2p.ClaimDataDir): above 1, another player runs on this machine, and
	// the title bar says which player this is.
	Profile int
	// Key is the player's identity; nil means an ephemeral key.
	Key crypto.PrivKey
	// Name is the player's display name; "" means a name made up from the
	// peer ID.
	Name string
	// Game and Variant are what to play or host; "" means the first game
	// and its default variant.
	Game, Variant string
	// Bot is the practice bot's level ("random" or "strong"; "" strong).
	Bot string
	// BotSeed seeds the practice bot; 0 means a random seed.
	BotSeed uint64
	// BotCheat makes the practice bot cheat in the named way (package
	// fairness/cheat). For tests and demonstrations only.
	BotCheat string
	// Start is the first screen; Code is the invite code for StartJoin
	// and StartWatch and File the transcript for StartAudit; Resume is the match ID
	// of the store for StartResume.
	Start  Start
	Code   string
	File   string
	Resume string
	// ListenAddrs are the main host's listen addresses; empty means every
	// interface. Offline keeps the lobby from starting a host at all.
	ListenAddrs []string
	Offline     bool
	// MDNS announces the player on the LAN and lists LAN peers.
	MDNS bool
	// Relays are circuit relays (multiaddrs ending in /p2p/<ID>) to hold a
	// reservation on, so players behind other NATs can reach this host;
	// their addresses go into the invite code. Bootstrap are peers to join
	// the Salvo DHT through (a joiner then also finds a host whose code's
	// addresses went stale).
	Relays, Bootstrap []string
	// PublicBootstrap is the public network's bootstrap list
	// (p2p.PublicBootstrap, set by the program; tests leave it empty):
	// with no Bootstrap, and neither LANOnly nor the lan_only setting,
	// the host joins the public DHT through it, to be found by a short
	// invite code and to find relays. LANOnly keeps the player off it.
	PublicBootstrap []string
	LANOnly         bool
	// Timeout overrides how long a remote seat may take for one step.
	Timeout time.Duration
	// GiveUp is how long the other player of a match over the network may
	// stay unreachable before it forfeits; 0 means session.DefaultGiveUp.
	GiveUp time.Duration
	// Watchable opens the matches this player hosts to spectators (salvo
	// host --watchable; the lobby's w toggles it). Off unless asked for.
	Watchable bool
	// Players is the table's size for practice and hosting (games that
	// allow more than two, such as Mission Command Air); 0 means 2, or the
	// smallest table the variant allows.
	Players int
	// Rand feeds the interface's random keys (random layout); nil means a
	// random seed. Tests seed it.
	Rand *rand.Rand
	// OnFirstDraw, if set, is called once after the first full draw (for
	// start-up measurements).
	OnFirstDraw func()
}

// App is the Salvo terminal interface.
type App struct {
	cfg   Config
	th    *style.Theme
	log   *slog.Logger
	tv    *tview.Application
	root  *root
	posts *poster
	rand  *rand.Rand
	self  peer.ID
	name  string
	game  string
	vari  string
	bot   string
	// watchable is the host's choice to let spectators follow its matches.
	watchable bool

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup // goroutines that must end before Run returns

	// Only touched on the tview goroutine:
	stack   []screen
	overlay overlay
	net     *network
	lobby   *lobbyScreen
	first   bool
	clip    string // text to copy after the next draw
	frame   int    // spinner frame
	// quitAsk is the open "Quit Salvo?" question, if any: ctrl-c on it
	// quits.
	quitAsk overlay
	// left are the network matches the player left on purpose: never
	// offered for resuming, even before the store forgets them.
	left map[string]bool
	// settingsNote says why the saved settings were not used (the lobby
	// shows it at start); "" when they were.
	settingsNote string
}

// New prepares the interface; Run shows it.
func New(cfg Config) (*App, error) {
	a := &App{cfg: cfg, th: cfg.Theme, log: cfg.Logger, rand: cfg.Rand, name: cfg.Name, left: map[string]bool{}}
	if a.th == nil {
		a.th = style.Default()
	}
	if a.log == nil {
		a.log = slog.New(slog.DiscardHandler)
	}
	if a.rand == nil {
		a.rand = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	if cfg.Key == nil {
		k, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			return nil, fmt.Errorf("tui: key: %w", err)
		}
		a.cfg.Key = k
	}
	id, err := peer.IDFromPrivateKey(a.cfg.Key)
	if err != nil {
		return nil, fmt.Errorf("tui: peer ID: %w", err)
	}
	a.self = id
	if a.cfg.DataDir == "" {
		d, err := p2p.DataDir()
		if err != nil {
			return nil, fmt.Errorf("tui: %w", err)
		}
		a.cfg.DataDir = d
	}
	cfg, a.settingsNote = a.withSettings(cfg)
	a.cfg.LANOnly = cfg.LANOnly
	if cfg.Theme != nil {
		a.th = cfg.Theme
	}
	if a.name = cfg.Name; a.name == "" {
		a.name = FriendlyName(id)
	}
	a.game = cfg.Game
	if a.game == "" {
		a.game = games.Names()[0]
	}
	entry, ok := games.Lookup(a.game)
	if !ok {
		return nil, fmt.Errorf("tui: unknown game %q", a.game)
	}
	a.vari = cfg.Variant
	if a.vari == "" {
		a.vari = entry.Spec.Variants[0]
	}
	a.bot = cfg.Bot
	a.watchable = cfg.Watchable
	if a.bot == "" {
		a.bot = DefaultBot
	}
	if _, ok := entry.Bots[a.bot]; !ok {
		return nil, fmt.Errorf("tui: no %q bot for %s", a.bot, a.game)
	}
	if n := cfg.Players; n != 0 && !slices.Contains(a.seatCounts(), n) {
		return nil, fmt.Errorf("tui: %s (%s) is not played by %d: it takes %s players", entry.Spec.Title, a.vari, n, countsText(a.seatCounts()))
	}
	a.ctx, a.cancel = context.WithCancel(context.Background())
	a.posts = newPoster()
	a.root = newRoot(a)
	return a, nil
}

// Run shows the interface until the player quits. It returns once every
// match it ran has written its transcript and every host is closed.
func (a *App) Run() error {
	a.tv = tview.NewApplication()
	if a.cfg.Screen != nil {
		a.tv.SetScreen(a.cfg.Screen)
	}
	a.tv.EnableMouse(true).EnablePaste(true)
	a.tv.SetRoot(a.root, true).SetFocus(a.root)
	a.tv.SetInputCapture(a.capture)
	a.tv.SetAfterDrawFunc(a.afterDraw)
	a.lobby = newLobby(a)
	a.lobby.status = a.settingsNote
	a.push(a.lobby)
	switch a.cfg.Start {
	case StartPractice:
		a.practice()
	case StartHost:
		a.push(newHostScreen(a))
	case StartJoin:
		js := newJoinScreen(a)
		a.push(js)
		if a.cfg.Code != "" {
			js.field.SetText(a.cfg.Code)
			js.connect()
		}
	case StartAudit:
		a.openAudit(a.cfg.File)
	case StartResume:
		a.resumeStored(a.cfg.Resume)
	case StartWatch:
		a.openWatch(a.cfg.Code)
	}
	go a.posts.run(a.tv)
	a.wg.Add(1)
	go a.ticker()
	err := a.tv.Run()
	a.shutdown()
	return err
}

// shutdown ends every match and closes the network after the screen is
// gone.
func (a *App) shutdown() {
	for _, s := range a.stack {
		s.close()
	}
	a.cancel()
	a.posts.stop()
	done := make(chan struct{})
	go func() { a.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		a.log.Warn("shutdown: goroutines still running after 10 s")
	}
	if a.net != nil {
		a.net.close()
	}
}

// Stop ends Run (safe from any goroutine).
func (a *App) Stop() {
	if a.tv != nil {
		a.tv.Stop()
	}
}

// post runs f on the tview goroutine; it never blocks.
func (a *App) post(f func()) { a.posts.post(f) }

// goBack runs f in a goroutine that Run waits for at the end.
func (a *App) goBack(f func()) {
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		f()
	}()
}

func (a *App) ticker() {
	defer a.wg.Done()
	t := time.NewTicker(TickEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			a.post(func() {
				a.frame++
				if s := a.top(); s != nil {
					s.tick()
				}
			})
		case <-a.ctx.Done():
			return
		}
	}
}

// spinner returns the current spinner frame.
func (a *App) spinner() string { return style.Spinner[a.frame%len(style.Spinner)] }

// top returns the screen on top.
func (a *App) top() screen {
	if len(a.stack) == 0 {
		return nil
	}
	return a.stack[len(a.stack)-1]
}

// push shows s on top of the others.
func (a *App) push(s screen) {
	a.stack = append(a.stack, s)
	s.shown()
}

// pop closes the top screen; the lobby never closes this way.
func (a *App) pop() {
	if len(a.stack) <= 1 {
		return
	}
	t := a.top()
	a.stack = a.stack[:len(a.stack)-1]
	t.close()
	a.top().shown()
}

// toLobby closes every screen above the lobby.
func (a *App) toLobby() {
	for len(a.stack) > 1 {
		a.pop()
	}
}

// openOverlay shows o above the current screen.
func (a *App) openOverlay(o overlay) { a.overlay = o }

// closeOverlay hides the overlay.
func (a *App) closeOverlay() { a.overlay = nil }

// live reports whether a match is being played.
func (a *App) live() (*matchScreen, bool) {
	for _, s := range a.stack {
		if m, ok := s.(*matchScreen); ok && m.live() {
			return m, true
		}
	}
	return nil, false
}

// quit leaves the program, asking first if that abandons a live match.
func (a *App) quit() {
	if m, ok := a.live(); ok && (a.overlay == nil || a.overlay != a.quitAsk) {
		a.quitAsk = newConfirm(a, "Quit Salvo?", m.quitText(), "quit", func() { a.tv.Stop() })
		a.openOverlay(a.quitAsk)
		return
	}
	// No match, or ctrl-c again on the question: ctrl-c always quits.
	a.tv.Stop()
}

// bindings returns the keys in force: the overlay's or the screen's, then
// the global ones.
func (a *App) bindings() []keys.Binding {
	var local []keys.Binding
	typing := false
	if a.overlay != nil {
		local = a.overlay.bindings()
		typing = a.overlay.typing()
	} else if s := a.top(); s != nil {
		local = s.bindings()
		typing = s.typing()
	}
	global := []keys.Binding{
		{Keys: []keys.Key{keys.K(tcell.KeyCtrlC)}, Label: "ctrl-c", Hint: "quit", Help: "quit Salvo (asks first during a match; ctrl-c again quits)", Hidden: true, Run: a.quit},
	}
	if !typing && a.overlay == nil {
		global = append([]keys.Binding{{Keys: []keys.Key{keys.R('?')}, Label: "?", Hint: "help", Help: "show every key in force, searchable", Pin: true, Run: a.showHelp}}, append(a.learnBindings(), global...)...)
	}
	return keys.Merge(local, global)
}

// showHelp opens the full, searchable help of the keys in force.
func (a *App) showHelp() {
	bs := a.bindings()
	a.openOverlay(newHelp(a, bs))
}

// capture handles Ctrl-C before tview does (tview would stop at once).
func (a *App) capture(ev *tcell.EventKey) *tcell.EventKey {
	if ev.Key() == tcell.KeyCtrlC {
		a.quit()
		return nil
	}
	return ev
}

// matchesDir returns the folder of match transcripts, creating it.
func (a *App) matchesDir() (string, error) {
	d := filepath.Join(a.cfg.DataDir, MatchesDir)
	if err := os.MkdirAll(d, 0o700); err != nil {
		return "", fmt.Errorf("transcripts folder: %w", err)
	}
	return d, nil
}

// gameTitle returns the full name of the selected game.
func (a *App) gameTitle() string {
	e, _ := games.Lookup(a.game)
	return e.Spec.Title
}

// setClipboard copies text to the terminal's clipboard (OSC 52) after the
// next draw.
func (a *App) setClipboard(text string) { a.clip = text }

// afterDraw runs after every draw: the first-draw hook, a pending copy.
func (a *App) afterDraw(scr tcell.Screen) {
	if !a.first && len(a.stack) > 0 {
		a.first = true
		if a.cfg.OnFirstDraw != nil {
			a.cfg.OnFirstDraw()
		}
	}
	if a.clip != "" {
		scr.SetClipboard([]byte(a.clip))
		a.clip = ""
	}
}

// countsText lists table sizes: "2", "2-4", "3 or 4".
func countsText(ns []int) string {
	switch {
	case len(ns) == 1:
		return fmt.Sprint(ns[0])
	case len(ns) > 2 && ns[len(ns)-1]-ns[0] == len(ns)-1:
		return fmt.Sprintf("%d-%d", ns[0], ns[len(ns)-1])
	}
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprint(n)
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}
