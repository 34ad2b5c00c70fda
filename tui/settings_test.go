package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine/games"
)

// Saved settings read back the same, from a file only the player can read,
// written without leaving a temporary file behind.
func TestSettingsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	want := Settings{Name: "Ann Bonny", Game: "sea", Variant: "standard", Bot: "random", Colours: ColoursOff}
	if err := SaveSettings(dir, want); err != nil {
		t.Fatal(err)
	}
	// Saving twice replaces the file (the rename path over an old file).
	if err := SaveSettings(dir, want); err != nil {
		t.Fatal(err)
	}
	got, err := LoadSettings(dir)
	if err != nil || got != want {
		t.Fatalf("LoadSettings = %+v, %v; want %+v", got, err, want)
	}
	st, err := os.Stat(filepath.Join(dir, SettingsFile))
	if err != nil {
		t.Fatal(err)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		t.Errorf("settings file mode %v, want 0600", perm)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("the data directory holds %d files after saving, want only %s", len(ents), SettingsFile)
	}
	// No file: every default, no error.
	if s, err := LoadSettings(t.TempDir()); err != nil || s != (Settings{}) {
		t.Fatalf("LoadSettings(empty dir) = %+v, %v", s, err)
	}
	// Bad values are refused before they are written.
	if err := SaveSettings(dir, Settings{Name: "a\u202eb"}); err == nil {
		t.Fatal("a name with a bidi override was saved")
	}
}

// A broken settings file is named with what is wrong, and the interface
// starts with the defaults and says so, never fails.
func TestCorruptSettingsFile(t *testing.T) {
	for _, c := range []struct{ name, content, want string }{
		{"not JSON", "{name: ann", "not a settings file"},
		{"unknown game", `{"game": "chess"}`, `game "chess": unknown; the games are`},
		{"variant of another game", `{"game": "sea", "variant": "team"}`, `variant "team": sea has no such variant`},
		{"bad bot", `{"bot": "genius"}`, `bot "genius": unknown level`},
		{"hidden character in the name", "{\"name\": \"ann\\u0007\"}", "name:"},
		{"bad colours", `{"colours": "purple"}`, `colours "purple"`},
		{"too large", `{"name": "` + strings.Repeat("x", maxSettingsBytes) + `"}`, "larger than"},
		{"not a file", "", "settings"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, SettingsFile)
			if c.name == "not a file" {
				if err := os.Mkdir(path, 0o700); err != nil {
					t.Fatal(err)
				}
			} else if err := os.WriteFile(path, []byte(c.content), 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := LoadSettings(dir)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) || s != (Settings{}) {
				t.Fatalf("LoadSettings = %+v, %v; want an error naming %s and %q", s, err, path, c.want)
			}
		})
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, SettingsFile), []byte(`{"game": "chess", "name": "x"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	hs := start(t, Config{Offline: true, DataDir: dir}, 120, 40)
	hs.WaitFor("settings not used, defaults in force: game \"chess\": unknown; the games are ubuild, cards", "g game: U-Build")
	// Good settings can be saved over the broken file.
	hs.Keys("s")
	hs.WaitFor("Settings", "enter saves")
	hs.Keys(tcell.KeyEnter)
	hs.WaitFor("settings saved")
	if _, err := LoadSettings(dir); err != nil {
		t.Fatalf("the settings saved over a broken file do not load: %v", err)
	}
}

// The settings screen saves the name, game, variant and bot; the next start
// uses them; a flag given on the command line still wins.
func TestSavedSettingsAreUsedByTheNextStart(t *testing.T) {
	dir := t.TempDir()
	hs := start(t, Config{Offline: true, DataDir: dir}, 80, 24)
	hs.WaitFor("Settings  s")
	hs.Keys("s")
	hs.WaitFor("Settings", "made up from your peer ID")
	// A name with a hidden character is refused as it is typed.
	hs.scr.InjectKey(tcell.KeyRune, '\u202e', tcell.ModNone)
	hs.WaitFor("name: ")
	hs.Keys(tcell.KeyEnter)
	hs.WaitFor("control or format character")
	hs.Keys(tcell.KeyCtrlU, "Ann", tcell.KeyDown, tcell.KeyRight, tcell.KeyDown, tcell.KeyRight, tcell.KeyDown, tcell.KeyLeft)
	hs.WaitFor("Card Game (coordinate cards)", "beginner", "‹ random ›")
	hs.Keys(tcell.KeyEnter)
	hs.WaitFor("settings saved", "you: Ann")
	hs.resize(120, 40)
	hs.WaitFor("variant beginner", "bot random")
	hs.stop()
	want := Settings{Name: "Ann", Game: "cards", Variant: "beginner", Bot: "random", Colours: ColoursOn}
	if s, err := LoadSettings(dir); err != nil || s != want {
		t.Fatalf("saved %+v, %v; want %+v", s, err, want)
	}

	next := start(t, Config{Offline: true, DataDir: dir}, 120, 40)
	next.WaitFor("you: Ann", "game Battleship Card Game (coordinate cards)", "variant beginner", "bot random")
	var name, game, vari, bot string
	next.onUI(func() { a := next.app; name, game, vari, bot = a.name, a.game, a.vari, a.bot })
	if name != "Ann" || game != "cards" || vari != "beginner" || bot != "random" {
		t.Fatalf("next start: %q %q %q %q", name, game, vari, bot)
	}
	next.stop()

	flags := start(t, Config{Offline: true, DataDir: dir, Name: "Bob", Game: "sea", Bot: "strong"}, 120, 40)
	flags.WaitFor("you: Bob", "game Mission Command Sea", "variant standard", "bot strong")
}

// Colours off in the settings starts the monochrome theme; the saved
// variant belongs to the saved game only.
func TestSettingsColoursAndVariant(t *testing.T) {
	dir := t.TempDir()
	if err := SaveSettings(dir, Settings{Game: "air", Variant: "team", Colours: ColoursOff}); err != nil {
		t.Fatal(err)
	}
	a, err := New(Config{DataDir: dir, Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	if !a.th.Mono || a.game != "air" || a.vari != "team" {
		t.Fatalf("mono %v, game %q, variant %q", a.th.Mono, a.game, a.vari)
	}
	b, err := New(Config{DataDir: dir, Offline: true, Game: "sea"})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := games.Lookup("sea")
	if b.vari != e.Spec.Variants[0] {
		t.Fatalf("the saved air variant applied to sea: %q", b.vari)
	}
}

// The settings form reads whole at 80x24 and 120x40: every field's label
// and value, and the line that says where it saves.
func TestSettingsFormReadsWhole(t *testing.T) {
	t.Parallel()
	hs := start(t, Config{Offline: true}, 80, 24)
	hs.Keys("s")
	hs.WaitFor("enter saves")
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		hs.resize(size[0], size[1])
		txt := hs.WaitFor("name", "‹ U-Build ›", "‹ standard ›", "‹ strong ›", "‹ on ›", "enter saves to")
		lines := strings.Split(strings.TrimRight(txt, "\n"), "\n")
		if bad := cutLines(lines, size[0]); len(bad) > 0 {
			t.Errorf("the settings form at %dx%d cuts %q\n%s", size[0], size[1], bad, txt)
		}
	}
}

// FuzzLoadSettings feeds any file as the settings: nothing panics, and
// whatever loads without an error passes Check and survives a save and a
// load unchanged.
func FuzzLoadSettings(f *testing.F) {
	f.Add([]byte(`{"name": "ann", "game": "air", "variant": "team", "bot": "random", "colours": "off"}`))
	f.Add([]byte(`{"name": "\u202e", "game": "chess"}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`[1, 2]`))
	f.Add([]byte(`{"variant": "standard"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, SettingsFile), raw, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := LoadSettings(dir)
		if err != nil {
			if s != (Settings{}) {
				t.Fatalf("an error with settings %+v", s)
			}
			return
		}
		if err := s.Check(); err != nil {
			t.Fatalf("loaded settings fail Check: %v", err)
		}
		if err := SaveSettings(dir, s); err != nil {
			t.Fatal(err)
		}
		if again, err := LoadSettings(dir); err != nil || again != s {
			t.Fatalf("round trip: %+v, %v; want %+v", again, err, s)
		}
	})
}

// The network row of the settings form saves lan_only, and the next start
// keeps the player off the public network: its host gets no public
// bootstrap list and runs no DHT.
func TestSettingsLANOnly(t *testing.T) {
	dir := t.TempDir()
	hs := start(t, Config{Offline: true, DataDir: dir}, 80, 24)
	hs.WaitFor("Settings  s")
	hs.Keys("s")
	hs.WaitFor("network", "internet and LAN")
	hs.Keys(tcell.KeyUp, tcell.KeyRight)
	hs.WaitFor("LAN only")
	hs.Keys(tcell.KeyEnter)
	hs.WaitFor("settings saved")
	hs.stop()
	if s, err := LoadSettings(dir); err != nil || !s.LANOnly {
		t.Fatalf("saved %+v, %v; want lan_only", s, err)
	}
	next := start(t, Config{Offline: true, DataDir: dir, PublicBootstrap: []string{"/ip4/127.0.0.1/tcp/1/p2p/12D3KooWKN7uRfZwaXyUWASDNgsob9VS6Uye7G7gTnqUkR3rUkGY"}}, 80, 24)
	next.WaitFor("Settings  s")
	var lanOnly bool
	next.onUI(func() { lanOnly = next.app.cfg.LANOnly })
	if !lanOnly {
		t.Fatal("lan_only setting not in force at the next start")
	}
}
