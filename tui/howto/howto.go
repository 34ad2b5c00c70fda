// Package howto holds the how-to-play pages of the games, one a game, in
// the project's own words: the rulebooks in shared/rules were read and
// summarised, never copied. Every rule that is our choice where the
// rulebook is silent or its pictures were lost (the "house" rows of
// shared/rules/DATA.md and the engines' package docs) is marked, so a
// player who knows the box can see at once where Salvo differs.
//
// The pages are plain text files embedded in the binary (pages/NAME.txt,
// NAME the game's short name), so that editing a sentence touches no code.
// Their format is small on purpose: the first line is the title, "# " starts
// a section, "- " a bullet, a blank line ends a paragraph, and a paragraph
// or bullet that starts with "house: " is a house rule.
package howto

import (
	"embed"
	"fmt"
	"strings"
)

//go:embed pages/*.txt
var pages embed.FS

// Kind is what a block of a page is.
type Kind int

// The kinds of blocks a page has.
const (
	Heading Kind = iota // a section title
	Para                // a paragraph
	Bullet              // an item of a list
)

// housePrefix marks a house rule in a page's text.
const housePrefix = "house: "

// Block is one heading, paragraph or bullet of a page.
type Block struct {
	Kind Kind
	Text string
	// House marks a rule that is Salvo's choice, not the rulebook's.
	House bool
}

// Page is the how-to-play page of one game.
type Page struct {
	Title  string
	Blocks []Block
}

// Sections lists the headings of the page, in order.
func (p Page) Sections() []string {
	var out []string
	for _, b := range p.Blocks {
		if b.Kind == Heading {
			out = append(out, b.Text)
		}
	}
	return out
}

// Lookup returns the page of the game with this short name (engine Spec
// Name).
func Lookup(game string) (Page, error) {
	raw, err := pages.ReadFile("pages/" + game + ".txt")
	if err != nil {
		return Page{}, fmt.Errorf("howto: no page for the game %q", game)
	}
	return parse(string(raw)), nil
}

// parse reads a page's text (see the package doc for the format).
func parse(text string) Page {
	var p Page
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	p.Title = strings.TrimSpace(lines[0])
	var para []string
	flush := func() {
		if len(para) > 0 {
			p.Blocks = append(p.Blocks, block(Para, strings.Join(para, " ")))
			para = nil
		}
	}
	for _, l := range lines[1:] {
		l = strings.TrimSpace(l)
		switch {
		case l == "":
			flush()
		case strings.HasPrefix(l, "# "):
			flush()
			p.Blocks = append(p.Blocks, Block{Kind: Heading, Text: strings.TrimPrefix(l, "# ")})
		case strings.HasPrefix(l, "- "):
			flush()
			p.Blocks = append(p.Blocks, block(Bullet, strings.TrimPrefix(l, "- ")))
		default:
			para = append(para, l)
		}
	}
	flush()
	return p
}

// block makes a paragraph or bullet, reading its house mark.
func block(k Kind, text string) Block {
	if rest, ok := strings.CutPrefix(text, housePrefix); ok {
		return Block{Kind: k, Text: rest, House: true}
	}
	return Block{Kind: k, Text: text}
}
