package howto

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine/games"
)

// rulebooks names the rulebook each page summarises (shared/rules).
var rulebooks = map[string]string{
	"ubuild": "battleship-u-build.txt",
	"cards":  "battleship-card-game-coordinates.txt",
	"oceans": "battleship-card-game-oceans.txt",
	"sea":    "mission-command-sea.txt",
	"air":    "mission-command-air.txt",
}

// Every game has a page with the parts a new player needs, in order, and
// names every variant the game offers.
func TestEveryGameHasAPage(t *testing.T) {
	want := []string{"Goal", "Set-up", "How it ends", "Variants"}
	for _, e := range games.All() {
		p, err := Lookup(e.Spec.Name)
		if err != nil {
			t.Fatal(err)
		}
		if p.Title != e.Spec.Title {
			t.Errorf("%s: title %q, want %q", e.Spec.Name, p.Title, e.Spec.Title)
		}
		secs := p.Sections()
		at := 0
		for _, w := range want {
			i := indexFrom(secs, w, at)
			if i < 0 {
				t.Errorf("%s: no section %q after %v in %v", e.Spec.Name, w, want[:max(0, at)], secs)
				continue
			}
			at = i + 1
		}
		if !hasPrefix(secs, "A turn") && !hasPrefix(secs, "A round") {
			t.Errorf("%s: no section on a turn: %v", e.Spec.Name, secs)
		}
		variants := sectionText(p, "Variants")
		for _, v := range e.Spec.Variants {
			if !regexp.MustCompile(`(^|\W)` + regexp.QuoteMeta(v) + `(\W|$)`).MatchString(variants) {
				t.Errorf("%s: the variant %q is not explained:\n%s", e.Spec.Name, v, variants)
			}
		}
	}
}

// Every page marks the house rules it states (DATA.md's house rows), and a
// "house:" mark is never left in the middle of a text, where it would show
// unmarked.
func TestHouseRulesAreMarked(t *testing.T) {
	for _, name := range games.Names() {
		p, _ := Lookup(name)
		n := 0
		for _, b := range p.Blocks {
			if b.House {
				n++
			}
			if strings.Contains(strings.ToLower(b.Text), "house:") {
				t.Errorf("%s: a house mark inside a text: %q", name, b.Text)
			}
		}
		if n == 0 {
			t.Errorf("%s: no house rule marked", name)
		}
	}
}

// The pages are our own words: no run of eight words of a rulebook appears
// in its page. Skipped where the rulebooks are not beside the repository.
func TestPagesAreOwnWords(t *testing.T) {
	dir := os.Getenv("SALVO_RULES")
	if dir == "" {
		dir = "/work/shared/rules"
	}
	const run = 8
	for game, file := range rulebooks {
		raw, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Skipf("rulebooks not found (%v); set SALVO_RULES", err)
		}
		book := words(string(raw))
		seen := map[string]bool{}
		for i := 0; i+run <= len(book); i++ {
			seen[strings.Join(book[i:i+run], " ")] = true
		}
		p, _ := Lookup(game)
		for _, b := range p.Blocks {
			ws := words(b.Text)
			for i := 0; i+run <= len(ws); i++ {
				if s := strings.Join(ws[i:i+run], " "); seen[s] {
					t.Errorf("%s: copied from the rulebook: %q", game, s)
				}
			}
		}
	}
}

func TestLookupUnknownGame(t *testing.T) {
	if _, err := Lookup("nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("Lookup(nope) = %v", err)
	}
}

var wordRE = regexp.MustCompile(`[a-z0-9]+`)

func words(s string) []string { return wordRE.FindAllString(strings.ToLower(s), -1) }

func indexFrom(ss []string, s string, from int) int {
	for i := from; i < len(ss); i++ {
		if ss[i] == s {
			return i
		}
	}
	return -1
}

func hasPrefix(ss []string, p string) bool {
	for _, s := range ss {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// sectionText is the text of a section's blocks, one a line.
func sectionText(p Page, heading string) string {
	var b strings.Builder
	in := false
	for _, bl := range p.Blocks {
		if bl.Kind == Heading {
			in = bl.Text == heading
			continue
		}
		if in {
			b.WriteString(bl.Text + "\n")
		}
	}
	return b.String()
}
