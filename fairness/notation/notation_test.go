package notation_test

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness/notation"
	"github.com/salvo-game/salvo/fairness/untrusted"
)

var update = flag.Bool("update", false, "rewrite the golden notations in testdata from the golden transcripts")

// goldens lists every golden transcript: one per game and variant (and
// table size), as package fairness keeps them.
func goldens(t testing.TB) []string {
	t.Helper()
	paths, err := filepath.Glob("../testdata/*.jsonl")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden transcripts: %v", err)
	}
	return paths
}

func build(t testing.TB, path string) *notation.Notation {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n, _, err := notation.FromTranscript(f, games.Spec)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return n
}

func goldenNotation(path string) string {
	return filepath.Join("testdata", strings.TrimSuffix(filepath.Base(path), ".jsonl")+".salvo")
}

// TestRoundTripGoldens: for every golden transcript of every game and
// variant, the notation Write gives parses back to the structure it was
// written from, and that structure writes back to the same text; the
// text is the golden notation kept in testdata (rewritten with -update).
func TestRoundTripGoldens(t *testing.T) {
	for _, path := range goldens(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			n := build(t, path)
			text := n.String()
			got, err := notation.Parse(strings.NewReader(text))
			if err != nil {
				t.Fatalf("Parse(Write(t)): %v", err)
			}
			if !reflect.DeepEqual(got, n) {
				t.Fatalf("Parse(Write(t)) differs from the structure written")
			}
			if again := got.String(); again != text {
				t.Fatalf("Write(Parse(n)) differs from n")
			}
			if err := notation.Check(got, n); err != nil {
				t.Fatalf("a notation differs from itself: %v", err)
			}
			golden := goldenNotation(path)
			if *update {
				if err := os.WriteFile(golden, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestRoundTripGoldens -update)", err)
			}
			if string(want) != text {
				t.Fatalf("the notation of %s is not the golden %s (the format changed? -update rewrites it)", path, golden)
			}
		})
	}
}

// TestGoldenWriterMatchesParser: the golden notations (as a reader gets
// them) parse and write back byte for byte.
func TestGoldenWriterMatchesParser(t *testing.T) {
	for _, path := range goldens(t) {
		text, err := os.ReadFile(goldenNotation(path))
		if err != nil {
			t.Fatal(err)
		}
		n, err := notation.Parse(bytes.NewReader(text))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if n.String() != string(text) {
			t.Fatalf("%s: Write(Parse(n)) != n", path)
		}
	}
}

// one golden transcript of each game, for the mismatch tests.
var perGame = map[string]string{
	"ubuild": "../testdata/ubuild-standard.jsonl",
	"cards":  "../testdata/cards-standard-2p.jsonl",
	"oceans": "../testdata/oceans-standard-2p.jsonl",
	"sea":    "../testdata/sea-standard-2p.jsonl",
	"air":    "../testdata/air-standard-3p.jsonl",
}

func TestPerGameCoversEveryGame(t *testing.T) {
	for _, g := range games.Names() {
		if perGame[g] == "" {
			t.Errorf("no mismatch test for game %s", g)
		}
	}
}

// edit changes the first line of text that starts with prefix (after its
// indentation) by replacing old with new in it, and returns the edited
// text and the line's number.
func edit(t *testing.T, text, prefix, old, new string) (string, int) {
	t.Helper()
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(l, " "), prefix) && strings.Contains(l, old) {
			lines[i] = strings.Replace(l, old, new, 1)
			return strings.Join(lines, "\n"), i + 1
		}
	}
	t.Fatalf("no line starts with %q and holds %q", prefix, old)
	return "", 0
}

// TestMismatchEveryGame: for every game, a notation with one move, one
// result, one tag, one effect or one revealed value changed fails the
// check, which names the changed line; one with a comment added passes.
func TestMismatchEveryGame(t *testing.T) {
	for game, path := range perGame {
		want := build(t, path)
		text := want.String()
		mv := firstItem(t, want, notation.ItemMove)
		cases := []struct{ what, prefix, old, new string }{
			{"move", "move ", mv, mv + " 1"},
			{"result", "[Result ", " won", " lost"},
			{"tag", "[Variant ", `"`, `"x`},
			{"player", "[Player1 ", `"`, `"y`},
			{"effect", "> ", "> ", "> not "},
			{"roll", "roll ", "= ", "= 1"},
			{"reveal", "reveal ", "reveal ", "reveal x"},
		}
		for _, c := range cases {
			t.Run(game+"/"+c.what, func(t *testing.T) {
				bad, line := edit(t, text, c.prefix, c.old, c.new)
				got, err := notation.Parse(strings.NewReader(bad))
				var syn *notation.SyntaxError
				if errors.As(err, &syn) {
					if syn.Line != line {
						t.Fatalf("syntax error at line %d, the edit is at %d: %v", syn.Line, line, err)
					}
					return // refused before any check: named all the same
				}
				if err != nil {
					t.Fatal(err)
				}
				err = notation.Check(got, want)
				var mm *notation.Mismatch
				if !errors.As(err, &mm) || mm.Line != line {
					t.Fatalf("changed line %d: Check says %v", line, err)
				}
			})
		}
		t.Run(game+"/comment", func(t *testing.T) {
			commented, _ := edit(t, text, "move ", mv, mv+"\n  ; a fine move")
			got, err := notation.Parse(strings.NewReader(commented))
			if err != nil {
				t.Fatal(err)
			}
			if err := notation.Check(got, want); err != nil {
				t.Fatalf("a comment made the notation differ: %v", err)
			}
		})
		t.Run(game+"/truncated", func(t *testing.T) {
			cut := text[:strings.LastIndex(text, "\nreveal ")+1]
			got, err := notation.Parse(strings.NewReader(cut))
			if err != nil {
				t.Fatal(err)
			}
			var mm *notation.Mismatch
			if err := notation.Check(got, want); !errors.As(err, &mm) || mm.Got != "" {
				t.Fatalf("a notation missing its last reveal: Check says %v", err)
			}
		})
	}
}

func firstItem(t *testing.T, n *notation.Notation, k notation.ItemKind) string {
	t.Helper()
	for _, m := range n.Messages {
		for _, it := range m.Items {
			if it.Kind == k {
				return it.Text
			}
		}
	}
	t.Fatalf("no %s item", k)
	return ""
}

// TestParseErrors: every flaw is an error naming its line and what is
// wrong with it.
func TestParseErrors(t *testing.T) {
	head := "[Notation \"salvo-notation/1\"]\n[Game \"ubuild\"]\n\n"
	cases := []struct {
		name, text string
		line       int
		says       string
	}{
		{"transcript", `{"salvo":"salvo-transcript/1"}` + "\n", 1, "not a Salvo match notation"},
		{"empty", "", 1, "no tags"},
		{"other format", "[Notation \"salvo-notation/9\"]\n", 1, "first tag must be"},
		{"unquoted tag", "[Notation \"salvo-notation/1\"]\n[Game ubuild]\n", 2, "double-quoted"},
		{"bad tag name", "[Notation \"salvo-notation/1\"]\n[G-ame \"x\"]\n", 2, "letters and digits"},
		{"tag after moves", head + "1. ann\n[Game \"x\"]\n", 5, "after the first message"},
		{"item first", head + "  move x\n", 4, "outside a message"},
		{"unknown item", head + "1. ann\n  jump x\n", 5, "unknown item"},
		{"empty item", head + "1. ann\n  move \n", 5, "with its text"},
		{"seq down", head + "2. ann\n1. bob\n", 5, "must rise"},
		{"seq word", head + "01. ann\n", 4, "not a plain number"},
		{"two-word player", head + "1. ann lee\n", 4, "not a label"},
		{"short reveal", head + "reveal ann grid\n", 4, "reveal OWNER NAME"},
		{"message after reveal", head + "reveal ann grid 1\n1. ann\n", 5, "after the reveals"},
		{"escape", head + "1. ann\n  > \x1b[2J clean\n", 5, "U+001B"},
		{"bidi", head + "; \u202e\n", 4, "U+202E"},
		{"not utf-8", head + "; \xff\n", 4, "UTF-8"},
		{"junk", head + "hello\n", 4, "not a tag, message"},
		{"long line", head + "; " + strings.Repeat("x", notation.MaxLineBytes) + "\n", 4, "longer than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := notation.Parse(strings.NewReader(c.text))
			var syn *notation.SyntaxError
			if !errors.As(err, &syn) || syn.Line != c.line || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("got %v; want line %d saying %q", err, c.line, c.says)
			}
			for _, r := range err.Error() {
				if untrusted.Hidden(r) {
					t.Fatalf("the error holds %U raw: %q", r, err)
				}
			}
		})
	}
}

// TestParseLineCount: a notation past MaxLines is refused at the first line
// too many, without reading the rest.
func TestParseLineCount(t *testing.T) {
	var b strings.Builder
	b.WriteString("[Notation \"salvo-notation/1\"]\n")
	for range notation.MaxLines + 5 {
		b.WriteString(";\n")
	}
	_, err := notation.Parse(strings.NewReader(b.String()))
	var syn *notation.SyntaxError
	if !errors.As(err, &syn) || syn.Line != notation.MaxLines+1 {
		t.Fatalf("got %v", err)
	}
}

// TestHostileNames: a transcript whose player names hold terminal escapes
// and bidi overrides (an old transcript, written before names were
// checked) gives a notation with none of them raw, which parses.
func TestHostileNames(t *testing.T) {
	raw, err := os.ReadFile("../testdata/ubuild-standard.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	hostile := bytes.Replace(raw, []byte(`"name":"bot-a"`), []byte("\"name\":\"bot\\u001b[2J\u202ea\""), 1)
	n, _, err := notation.FromTranscript(bytes.NewReader(hostile), games.Spec)
	if err != nil {
		t.Fatal(err)
	}
	text := n.String()
	for i, r := range text {
		if untrusted.Hidden(r) && r != '\n' {
			t.Fatalf("notation holds %U raw at byte %d", r, i)
		}
	}
	back, err := notation.Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := back.Tag("Player0"); p != "bot\x1b[2J\u202ea" {
		t.Fatalf("the name did not survive quoting: %q", p)
	}
	if l, _ := back.Tag("Label0"); l != "seat0" {
		t.Fatalf("a hostile name labels its seat in the body: %q", l)
	}
}

// TestRenderMove shows moves in the games' own terms.
func TestRenderMove(t *testing.T) {
	cases := map[string]string{
		`{"ship":"battleship","shots":["E-5","F-6"]}`:                         "ship=battleship shots=[E-5 F-6]",
		`{"kind":"fire","destroyer":1,"target":{"kind":"fighter","index":6}}`: "fire destroyer=1 target=(fighter index=6)",
		`{"action":"bonus","bonus":true}`:                                     "bonus bonus=true",
		`{"kind":"say","text":"hi there\u001b"}`:                              `say text="hi there\x1b"`,
		`{"kind":3}`:                                                          "kind=3",
		`[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]`:                            `"[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]"`,
		`{"a":1} x`: `"{\"a\":1} x"`,
	}
	for in, want := range cases {
		if got := notation.RenderMove([]byte(in)); got != want {
			t.Errorf("RenderMove(%s) = %s, want %s", in, got, want)
		}
	}
}
