package tui

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness/untrusted"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// SettingsFile is the settings' file in the data directory.
const SettingsFile = "settings.json"

// maxSettingsBytes bounds what LoadSettings reads: a settings file is a
// few hundred bytes, and a huge one is not worth holding in memory.
const maxSettingsBytes = 64 << 10

// The values of Settings.Colours.
const (
	ColoursOn  = "on"  // the coloured theme (unless NO_COLOR is set)
	ColoursOff = "off" // the monochrome theme
)

// Settings are the player's saved choices, read at start. An empty field
// means the built-in default; a command-line flag set to a value overrides
// the saved one.
type Settings struct {
	// Name is the display name ("" made up from the peer ID).
	Name string `json:"name,omitempty"`
	// Game and Variant are what the lobby offers first.
	Game    string `json:"game,omitempty"`
	Variant string `json:"variant,omitempty"`
	// Bot is the practice bot's level.
	Bot string `json:"bot,omitempty"`
	// Colours is ColoursOn or ColoursOff ("" on). NO_COLOR still wins.
	Colours string `json:"colours,omitempty"`
	// LANOnly keeps the player off the public network (--lan-only).
	LANOnly bool `json:"lan_only,omitempty"`
}

// Check says what is wrong with the settings, naming the field and the
// values it may take.
func (s Settings) Check() error {
	if err := untrusted.ValidateName(s.Name); err != nil {
		return fmt.Errorf("name: %w", err)
	}
	if s.Game != "" {
		e, ok := games.Lookup(s.Game)
		if !ok {
			return fmt.Errorf("game %q: unknown; the games are %s", s.Game, strings.Join(games.Names(), ", "))
		}
		if s.Variant != "" && !slices.Contains(e.Spec.Variants, s.Variant) {
			return fmt.Errorf("variant %q: %s has no such variant; its variants are %s", s.Variant, s.Game, strings.Join(e.Spec.Variants, ", "))
		}
	} else if s.Variant != "" {
		return fmt.Errorf("variant %q without a game", s.Variant)
	}
	if s.Bot != "" && !slices.Contains(games.BotLevels, s.Bot) {
		return fmt.Errorf("bot %q: unknown level; the levels are %s", s.Bot, strings.Join(games.BotLevels, ", "))
	}
	if s.Colours != "" && s.Colours != ColoursOn && s.Colours != ColoursOff {
		return fmt.Errorf("colours %q: want %q or %q", s.Colours, ColoursOn, ColoursOff)
	}
	return nil
}

// SettingsError is why a settings file could not be used: Path names the
// file, Err what is wrong with it.
type SettingsError struct {
	Path string
	Err  error
}

func (e *SettingsError) Error() string { return "settings " + e.Path + ": " + e.Err.Error() }

func (e *SettingsError) Unwrap() error { return e.Err }

// LoadSettings reads the settings of the data directory dir. No file is
// no error (every default). A file that cannot be read, is not JSON or
// holds a value Check refuses is an error naming the file and what is
// wrong, with zero Settings: the caller says so and goes on with the
// defaults, as a player with a broken file must still be able to play (and
// to save good settings over it).
func LoadSettings(dir string) (Settings, error) {
	path := filepath.Join(dir, SettingsFile)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Settings{}, nil
	}
	if err != nil {
		return Settings{}, &SettingsError{path, err}
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, maxSettingsBytes+1))
	if err != nil {
		return Settings{}, &SettingsError{path, err}
	}
	if len(raw) > maxSettingsBytes {
		return Settings{}, &SettingsError{path, fmt.Errorf("larger than %d bytes", maxSettingsBytes)}
	}
	var s Settings
	if err := json.Unmarshal(raw, &s); err != nil {
		return Settings{}, &SettingsError{path, fmt.Errorf("not a settings file: %w", err)}
	}
	if err := s.Check(); err != nil {
		return Settings{}, &SettingsError{path, err}
	}
	return s, nil
}

// SaveSettings writes s into the data directory dir, readable by the
// player only. It writes a temporary file and renames it over the old one,
// so a crash or a full disk leaves the old settings or the new, never half
// a file.
func SaveSettings(dir string, s Settings) error {
	if err := s.Check(); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	raw, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	tmp, err := os.CreateTemp(dir, SettingsFile+".*.tmp")
	if err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename, a no-op
	if err := writeSynced(tmp, append(raw, '\n')); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, SettingsFile)); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	return nil
}

// writeSynced writes data to f with mode 0600, flushes it to the disk and
// closes f.
func writeSynced(f *os.File, data []byte) error {
	err := f.Chmod(0o600)
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	return errors.Join(err, f.Close())
}

// withSettings fills the fields of cfg the command line left empty from
// the saved settings, and returns a note for the lobby when the file could
// not be used. The saved variant applies only to the saved game.
func (a *App) withSettings(cfg Config) (Config, string) {
	s, err := LoadSettings(a.cfg.DataDir)
	if err != nil {
		// What is wrong comes first: at 80 columns the path may be cut.
		a.log.Warn("settings not used", "err", err)
		why := err.Error()
		if se := (*SettingsError)(nil); errors.As(err, &se) {
			why = se.Err.Error() + " (" + se.Path + ")"
		}
		return cfg, "settings not used, defaults in force: " + why
	}
	if cfg.Name == "" {
		cfg.Name = s.Name
	}
	if cfg.Game == "" {
		cfg.Game = s.Game
	}
	if cfg.Game == s.Game && cfg.Variant == "" {
		cfg.Variant = s.Variant
	}
	if cfg.Bot == "" {
		cfg.Bot = s.Bot
	}
	if cfg.Theme == nil && s.Colours == ColoursOff {
		cfg.Theme = style.New(true)
	}
	cfg.LANOnly = cfg.LANOnly || s.LANOnly
	return cfg, ""
}

// openSettings shows the settings form, filled with the choices in force.
func (a *App) openSettings() {
	f := &settingsForm{a: a, name: newField(a.th, "", "made up from your peer ID"), game: a.game, vari: a.vari, bot: a.bot, colour: !a.th.Mono, lanOnly: a.cfg.LANOnly}
	if a.name != FriendlyName(a.self) {
		f.name.SetText(a.name)
	}
	f.name.Focus(nil)
	a.openOverlay(f)
}

// Rows of the settings form.
const (
	rowName = iota
	rowGame
	rowVariant
	rowBot
	rowColours
	rowNetwork
	numRows
)

// settingsForm edits and saves the settings: a name field, then choices
// that ←→ change. Enter saves and applies them at once.
type settingsForm struct {
	a      *App
	row    int
	name   *tview.InputField
	game   string
	vari   string
	bot    string
	colour bool
	// lanOnly keeps the player off the public network.
	lanOnly bool
	err     string // why the last save failed
}

// settings are the form's values as saved.
func (f *settingsForm) settings() Settings {
	c := ColoursOn
	if !f.colour {
		c = ColoursOff
	}
	return Settings{Name: f.name.GetText(), Game: f.game, Variant: f.vari, Bot: f.bot, Colours: c, LANOnly: f.lanOnly}
}

// change moves the selected choice by d (a wrap-around list).
func (f *settingsForm) change(d int) {
	next := func(list []string, cur string) string {
		return list[(max(0, slices.Index(list, cur))+d+len(list))%len(list)]
	}
	switch f.row {
	case rowGame:
		f.game = next(games.Names(), f.game)
		e, _ := games.Lookup(f.game)
		f.vari = e.Spec.Variants[0]
	case rowVariant:
		e, _ := games.Lookup(f.game)
		f.vari = next(e.Spec.Variants, f.vari)
	case rowBot:
		f.bot = next(games.BotLevels, f.bot)
	case rowColours:
		f.colour = !f.colour
	case rowNetwork:
		f.lanOnly = !f.lanOnly
	}
}

// save writes the settings and puts them in force: the lobby's game,
// variant and bot, the name of the next match, and the colours.
func (f *settingsForm) save() {
	s := f.settings()
	if err := SaveSettings(f.a.cfg.DataDir, s); err != nil {
		f.err = err.Error()
		return
	}
	a := f.a
	a.closeOverlay()
	a.name = s.Name
	if a.name == "" {
		a.name = FriendlyName(a.self)
	}
	a.game, a.vari, a.bot = s.Game, s.Variant, s.Bot
	restart := a.net != nil && a.cfg.LANOnly != s.LANOnly
	a.cfg.LANOnly = s.LANOnly // the next start of the network
	*a.th = *style.New(!f.colour || style.NoColor())
	if a.lobby != nil {
		a.lobby.fitPlayers()
		a.lobby.status = "settings saved"
		switch {
		case restart:
			a.lobby.status += " (the network setting takes effect after a restart)"
		case a.net != nil:
			a.lobby.status += " (LAN peers see a new name after a restart)"
		}
	}
}

func (f *settingsForm) draw(scr tcell.Screen, x, y, w, h int) {
	th := f.a.th
	bx, by, bw, bh := dialogRect(x, y, w, h, 72, numRows+7)
	style.Fill(scr, bx, by, bw, bh, th.Base)
	ix, iy, iw, _ := boxed(scr, th, bx, by, bw, bh, "Settings", th.Accent)
	const labelW = 11
	e, _ := games.Lookup(f.game)
	values := [numRows]string{"", shortTitle(e.Spec.Title), f.vari, f.bot, coloursWord(f.colour), networkWord(f.lanOnly)}
	labels := [numRows]string{"name", "game", "variant", "bot", "colours", "network"}
	for r := range numRows {
		ry := iy + 1 + r
		ptr, st := "  ", th.Dim
		if r == f.row {
			ptr, st = style.Pointer+" ", th.Accent
		}
		style.PrintSegs(scr, ix+1, ry, iw-2, style.S(ptr, th.Accent), style.S(style.Pad(labels[r], labelW-2), st))
		if r == rowName {
			f.name.SetRect(ix+1+labelW, ry, iw-2-labelW, 1)
			f.name.Draw(scr)
			continue
		}
		style.PrintSegs(scr, ix+1+labelW, ry, iw-2-labelW, style.S("‹ ", th.Dim), style.S(values[r], th.Base), style.S(" ›", th.Dim))
	}
	msg, st := "enter saves to "+filepath.Join(f.a.cfg.DataDir, SettingsFile), th.Dim
	switch err := untrusted.ValidateName(f.name.GetText()); {
	case f.err != "":
		msg, st = style.Fail+" "+f.err, th.Bad
	case err != nil:
		msg, st = style.Fail+" name: "+err.Error(), th.Bad
	case style.NoColor() && f.colour:
		msg, st = "NO_COLOR is set: the screen stays monochrome", th.Warn
	}
	for i, l := range style.Wrap(msg, iw-2, "  ") {
		if i < 2 {
			style.Print(scr, ix+1, iy+numRows+2+i, iw-2, st, l)
		}
	}
}

// coloursWord is the colours row's value.
func coloursWord(on bool) string {
	if on {
		return ColoursOn
	}
	return ColoursOff + " (monochrome)"
}

// networkWord is the network row's value.
func networkWord(lanOnly bool) string {
	if lanOnly {
		return "LAN only"
	}
	return "internet and LAN"
}

func (f *settingsForm) bindings() []keys.Binding {
	move := func(d int) func() { return func() { f.row = (f.row + d + numRows) % numRows } }
	bs := []keys.Binding{
		{Keys: []keys.Key{keyEnter}, Label: "enter", Hint: "save", Help: "save the settings in the data directory and use them now", Run: f.save},
		{Keys: []keys.Key{keyEsc}, Label: "esc", Hint: "cancel", Help: "close without saving", Run: f.a.closeOverlay},
		{Keys: []keys.Key{keys.K(tcell.KeyDown), keys.K(tcell.KeyTab)}, Label: "↑↓", Hint: "field", Help: "the next field (tab too)", Run: move(1)},
		{Keys: []keys.Key{keys.K(tcell.KeyUp), keys.K(tcell.KeyBacktab)}, Label: "↑", Hint: "field", Hidden: true, Run: move(-1)},
	}
	if f.row != rowName {
		bs = append(bs,
			keys.Binding{Keys: []keys.Key{keys.K(tcell.KeyRight), keys.R(' ')}, Label: "←→", Hint: "change", Help: "the next value of the selected choice (space too)", Run: func() { f.change(1) }},
			keys.Binding{Keys: []keys.Key{keys.K(tcell.KeyLeft)}, Label: "←", Hint: "change", Hidden: true, Run: func() { f.change(-1) }})
	}
	return bs
}

func (f *settingsForm) key(ev *tcell.EventKey) {
	if f.row == rowName {
		f.name.InputHandler()(ev, func(tview.Primitive) {})
		f.err = ""
	}
}

func (f *settingsForm) paste(t string) {
	if f.row == rowName {
		f.name.PasteHandler()(t, func(tview.Primitive) {})
	}
}

func (f *settingsForm) typing() bool { return f.row == rowName }
