// Package notation is Salvo's match notation: a line-oriented text record
// of one match, written for people first (as chess has PGN and Go has SGF)
// and checkable against the signed transcript it came from.
//
// A transcript proves everything but is made for machines: hashes,
// signatures, openings, dice preimages. The notation keeps what a reader
// wants from it, in the game's own terms: a header of tags (game, variant,
// players, date, verdict, result, match ID), then every message with the
// moves it carried, the joint rolls it completed and the effects the rules
// gave them, then the hidden values the match revealed. Comments (lines
// starting with ';') may go anywhere. docs/NOTATION.md specifies the format.
//
// A notation is only a claim. [Check] compares one with what a transcript
// proves ([FromTranscript] replays it through the audit), and names the
// first line that says anything else; a notation read on its own is
// unverified, and the viewer says so.
//
// Everything read here comes from a file someone else wrote: [Parse] bounds
// the line length and the line count, refuses control and format
// characters (a notation is shown on terminals), and answers every flaw
// with a *SyntaxError naming the line; it never panics.
package notation

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Format names this notation's version; it is the first tag of every
// notation ([Notation "salvo-notation/1"]).
const Format = "salvo-notation/1"

// Limits of what Parse reads (and Write writes): room for the longest
// honest match many times over, bounded so that a hostile file costs little.
const (
	MaxLineBytes = 4096   // one line, without its newline
	MaxLines     = 200000 // lines in one notation
	// MaxBytes bounds the whole text: lines and line count alone let a
	// hostile file reach 800 MB, all of it held by the viewer or a check.
	// The longest golden notation is under 100 KB.
	MaxBytes = 16 << 20
)

// Notation is one match's notation, as Parse reads it and FromTranscript
// builds it. Every element keeps the line it is on (Line, from 1) and the
// comments written just before it (Notes, without their ';').
type Notation struct {
	Tags     []Tag
	Messages []Message
	Reveals  []Reveal
	// Tail holds the comments after the last element.
	Tail []string
}

// Tag is one header line: [Name "Value"].
type Tag struct {
	Line  int
	Notes []string
	Name  string
	Value string
}

// Message is one signed message of the match: its number (the transcript's
// seq), the player who sent it (by label, see docs/NOTATION.md) and what
// it carried.
type Message struct {
	Line   int
	Notes  []string
	Seq    uint64
	Player string
	Items  []Item
}

// ItemKind says what an item line of a message says.
type ItemKind string

// The item kinds, as each line starts.
const (
	ItemMove   ItemKind = "move" // a player's decision, in the game's own terms
	ItemRoll   ItemKind = "roll" // a joint roll completed: its name and values
	ItemEffect ItemKind = ">"    // what the rules made of it, one event per line
	ItemFault  ItemKind = "!"    // why the audit refused the message
)

// Item is one line of a message.
type Item struct {
	Line  int
	Notes []string
	Kind  ItemKind
	Text  string
}

// Reveal is one committed vector as far as the match opened it: the owner
// (a player's label, or "table" for a shared deck), its name and a value
// per leaf ("?" for a leaf never opened).
type Reveal struct {
	Line   int
	Notes  []string
	Player string
	Name   string
	Values []string
}

// Tag returns the value of the first tag named name, and whether there is one.
func (n *Notation) Tag(name string) (string, bool) {
	for _, t := range n.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// SyntaxError is a flaw of a notation file, at a line.
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// ErrNotNotation is wrapped by Parse's error for input that does not start
// as a notation at all (a transcript, say).
var ErrNotNotation = errors.New("not a Salvo match notation")

// line is one line of the canonical layout: the element field holding its
// number (nil for a blank line) and its text.
type line struct {
	no   *int
	text string
	note bool
}

// layout walks the canonical form of n, line by line; WriteTo prints it and
// number gives each element its line. Notes come with the indentation of
// the element they precede.
func (n *Notation) layout(visit func(line)) {
	notes := func(ns []string, indent string) {
		for _, s := range ns {
			visit(line{text: indent + noteText(s), note: true})
		}
	}
	for i := range n.Tags {
		t := &n.Tags[i]
		notes(t.Notes, "")
		visit(line{no: &t.Line, text: "[" + t.Name + " " + strconv.Quote(t.Value) + "]"})
	}
	if len(n.Messages) > 0 {
		visit(line{})
	}
	for i := range n.Messages {
		m := &n.Messages[i]
		notes(m.Notes, "")
		visit(line{no: &m.Line, text: fmt.Sprintf("%d. %s", m.Seq, m.Player)})
		for j := range m.Items {
			it := &m.Items[j]
			notes(it.Notes, "  ")
			visit(line{no: &it.Line, text: "  " + string(it.Kind) + " " + it.Text})
		}
	}
	if len(n.Reveals) > 0 {
		visit(line{})
	}
	for i := range n.Reveals {
		r := &n.Reveals[i]
		notes(r.Notes, "")
		visit(line{no: &r.Line, text: "reveal " + r.Player + " " + r.Name + " " + strings.Join(r.Values, " ")})
	}
	notes(n.Tail, "")
}

func noteText(s string) string {
	if s == "" {
		return ";"
	}
	return "; " + s
}

// number sets every element's Line to where WriteTo puts it.
func (n *Notation) number() {
	no := 0
	n.layout(func(l line) {
		no++
		if l.no != nil {
			*l.no = no
		}
	})
}

// WriteTo writes n in its canonical form: what Parse reads back as n.
func (n *Notation) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriter(w)
	var total int64
	var err error
	no := 0
	n.layout(func(l line) {
		no++
		if err != nil {
			return
		}
		if len(l.text) > MaxLineBytes {
			err = fmt.Errorf("notation line %d would be %d bytes, over the limit of %d", no, len(l.text), MaxLineBytes)
			return
		}
		k, e := bw.WriteString(l.text + "\n")
		total += int64(k)
		err = e
	})
	switch {
	case err != nil:
	case no > MaxLines:
		err = fmt.Errorf("notation of %d lines, over the limit of %d", no, MaxLines)
	case total > MaxBytes:
		err = fmt.Errorf("notation of %d bytes, over the limit of %d", total, MaxBytes)
	}
	if err != nil {
		return total, err
	}
	return total, bw.Flush()
}

// String returns n's canonical form.
func (n *Notation) String() string {
	var b strings.Builder
	if _, err := n.WriteTo(&b); err != nil {
		return "; " + err.Error() + "\n"
	}
	return b.String()
}
