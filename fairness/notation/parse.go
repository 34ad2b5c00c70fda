package notation

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/salvo-game/salvo/fairness/untrusted"
)

// Parse reads a notation. Blank lines are skipped; comments are kept with
// the element that follows them; every other line must be a tag (before
// the first message), a message, an item of the message above it, or a
// reveal (after the messages). The first element must be the Notation tag
// naming Format. Any flaw is a *SyntaxError naming its line (wrapping
// ErrNotNotation when the very first line shows the input is no notation).
func Parse(r io.Reader) (*Notation, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxLineBytes+1)
	p := &parser{n: &Notation{}}
	read := 0
	for sc.Scan() {
		p.no++
		if p.no > MaxLines {
			return nil, p.fail("the notation goes on past %d lines", MaxLines)
		}
		if read += len(sc.Bytes()) + 1; read > MaxBytes {
			return nil, p.fail("the notation goes on past %d bytes", MaxBytes)
		}
		if err := p.line(strings.TrimSuffix(sc.Text(), "\r")); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &SyntaxError{Line: p.no + 1, Msg: fmt.Sprintf("longer than %d bytes", MaxLineBytes)}
		}
		return nil, fmt.Errorf("read notation: %w", err)
	}
	if len(p.n.Tags) == 0 {
		return nil, &SyntaxError{Line: max(1, p.no), Msg: ErrNotNotation.Error() + ": no tags"}
	}
	p.n.Tail = p.notes
	return p.n, nil
}

type parser struct {
	n     *Notation
	no    int
	notes []string // comments waiting for the next element
	state int      // 0 tags, 1 messages, 2 reveals
}

const (
	inTags = iota
	inMessages
	inReveals
)

func (p *parser) fail(format string, args ...any) error {
	return &SyntaxError{Line: p.no, Msg: fmt.Sprintf(format, args...)}
}

// take hands the waiting comments to an element.
func (p *parser) take() []string {
	ns := p.notes
	p.notes = nil
	return ns
}

func (p *parser) line(s string) error {
	if err := checkLine(s); err != nil {
		return p.fail("%v", err)
	}
	body := strings.TrimLeft(s, " ")
	switch {
	case body == "":
		return nil
	case body[0] == ';':
		p.notes = append(p.notes, strings.TrimPrefix(body[1:], " "))
		return nil
	case len(p.n.Tags) == 0 && body[0] != '[':
		return &SyntaxError{Line: p.no, Msg: fmt.Sprintf("%v: it starts with %s, a notation with its [Notation %q] tag", ErrNotNotation, quoteStart(body), Format)}
	case body[0] == '[':
		return p.tag(body)
	case strings.HasPrefix(s, "  "):
		return p.item(body)
	case strings.HasPrefix(s, "reveal "):
		return p.reveal(s)
	case s[0] >= '0' && s[0] <= '9':
		return p.message(s)
	}
	return p.fail("not a tag, message, item, reveal or comment: %s", quoteStart(body))
}

// checkLine refuses what no notation line holds: bytes that are not UTF-8,
// and characters a terminal acts on or hides.
func checkLine(s string) error {
	if !utf8.ValidString(s) {
		return errors.New("not valid UTF-8")
	}
	for i, r := range s {
		if untrusted.Hidden(r) {
			return fmt.Errorf("character %U at byte %d is a control or format character", r, i+1)
		}
	}
	return nil
}

// quoteStart shows the start of a line in an error, escaped.
func quoteStart(s string) string {
	if len(s) > 24 {
		s = s[:24] + "…"
	}
	return strconv.Quote(s)
}

func (p *parser) tag(s string) error {
	if p.state != inTags {
		return p.fail("a tag after the first message; tags form the header")
	}
	if !strings.HasSuffix(s, "]") {
		return p.fail("a tag must end with ]")
	}
	name, quoted, ok := strings.Cut(s[1:len(s)-1], " ")
	if !ok || !validTagName(name) {
		return p.fail("a tag is [Name \"value\"], with a name of letters and digits")
	}
	val, err := strconv.Unquote(quoted)
	if err != nil || !strings.HasPrefix(quoted, `"`) {
		return p.fail("tag %s: its value must be one double-quoted string", name)
	}
	if len(p.n.Tags) == 0 && (name != "Notation" || val != Format) {
		return &SyntaxError{Line: p.no, Msg: fmt.Sprintf("%v: the first tag must be [Notation %q]", ErrNotNotation, Format)}
	}
	p.n.Tags = append(p.n.Tags, Tag{Line: p.no, Notes: p.take(), Name: name, Value: val})
	return nil
}

func validTagName(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for i, r := range s {
		isLetter := r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z'
		if !isLetter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

func (p *parser) message(s string) error {
	if p.state == inReveals {
		return p.fail("a message after the reveals")
	}
	num, player, ok := strings.Cut(s, ". ")
	if !ok {
		return p.fail("a message is \"N. PLAYER\"")
	}
	seq, err := strconv.ParseUint(num, 10, 64)
	if err != nil || num != strconv.FormatUint(seq, 10) {
		return p.fail("message number %s: not a plain number", quoteStart(num))
	}
	if !validLabel(player) {
		return p.fail("message %d: player %s is not a label (one word, see the Player tags)", seq, quoteStart(player))
	}
	if k := len(p.n.Messages); k > 0 && seq <= p.n.Messages[k-1].Seq {
		return p.fail("message %d after message %d: numbers must rise", seq, p.n.Messages[k-1].Seq)
	}
	p.state = inMessages
	p.n.Messages = append(p.n.Messages, Message{Line: p.no, Notes: p.take(), Seq: seq, Player: player})
	return nil
}

// validLabel accepts one word: what names a player in the body.
func validLabel(s string) bool {
	return s != "" && !strings.ContainsAny(s, " \t")
}

func (p *parser) item(body string) error {
	if p.state != inMessages {
		return p.fail("an indented item line outside a message")
	}
	kind, text, ok := strings.Cut(body, " ")
	if !ok || text == "" {
		return p.fail("an item is \"move …\", \"roll …\", \"> …\" or \"! …\" with its text")
	}
	switch k := ItemKind(kind); k {
	case ItemMove, ItemRoll, ItemEffect, ItemFault:
		m := &p.n.Messages[len(p.n.Messages)-1]
		m.Items = append(m.Items, Item{Line: p.no, Notes: p.take(), Kind: k, Text: text})
		return nil
	}
	return p.fail("unknown item %s: an item is move, roll, > (an effect) or ! (a fault)", quoteStart(kind))
}

func (p *parser) reveal(s string) error {
	f := strings.Split(s, " ")
	if len(f) < 4 {
		return p.fail("a reveal is \"reveal OWNER NAME VALUE...\"")
	}
	for i, v := range f {
		if v == "" {
			return p.fail("reveal: two spaces in a row before word %d", i+1)
		}
	}
	p.state = inReveals
	p.n.Reveals = append(p.n.Reveals, Reveal{Line: p.no, Notes: p.take(), Player: f[1], Name: f[2], Values: f[3:]})
	return nil
}
