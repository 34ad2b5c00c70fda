package notation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/blake2b"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/untrusted"
)

// Write audits the transcript read from r and writes its notation to w.
func Write(w io.Writer, r io.Reader, specs fairness.Specs) error {
	n, _, err := FromTranscript(r, specs)
	if err != nil {
		return err
	}
	_, err = n.WriteTo(w)
	return err
}

// FromTranscript audits the transcript read from r and builds its
// notation from the audit's replay: what the signed record proves. It
// returns the audit's report too. Its error is the audit's (a file that is
// no transcript); a transcript with a violation still has a notation,
// whose Verdict tag and fault line say so.
func FromTranscript(r io.Reader, specs fairness.Specs) (*Notation, *fairness.Report, error) {
	rep, err := fairness.Audit(r, specs)
	if err != nil {
		return nil, nil, err
	}
	return FromReport(rep), rep, nil
}

// FromReport builds the notation of an audited transcript.
func FromReport(rep *fairness.Report) *Notation {
	h := rep.Header
	labels := Labels(h)
	name := func(s engine.Seat) string {
		if int(s) >= 0 && int(s) < len(labels) {
			return labels[s]
		}
		if s == engine.NoSeat {
			return tableLabel
		}
		return s.String()
	}
	n := &Notation{Tags: headerTags(rep, name)}
	for _, st := range rep.Steps {
		n.Messages = append(n.Messages, message(st, name))
	}
	n.Reveals = reveals(rep.Revealed, name)
	n.number()
	return n
}

// tableLabel owns what no seat owns: the shared deck.
const tableLabel = "table"

// Labels returns the word that names each seat in a notation's body: the
// player's name when it is one word of ASCII letters, digits and - _ . '
// (and no other player's, and not a seat's own word), else "seatN". Not
// any letter: Unicode has look-alikes of every Latin letter (Cyrillic В
// and о in "Воb"), and a player who took one of another's name would make
// the body name both alike, so that no reader could tell their moves, or
// the winner, apart. The full name stays in its Player tag.
func Labels(h fairness.Header) []string {
	out := make([]string, len(h.Players))
	seen := map[string]int{}
	for _, p := range h.Players {
		seen[p.Name]++
	}
	for i, p := range h.Players {
		out[i] = fmt.Sprintf("seat%d", i)
		if seen[p.Name] == 1 && wordName(p.Name) {
			out[i] = p.Name
		}
	}
	return out
}

var seatWordRe = regexp.MustCompile(`^seat\d+$`)

func wordName(s string) bool {
	if s == "" || utf8.RuneCountInString(s) > untrusted.MaxNameRunes || s == tableLabel || seatWordRe.MatchString(s) {
		return false
	}
	for _, r := range s {
		ascii := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		if !ascii && !strings.ContainsRune("-_.'", r) {
			return false
		}
	}
	return true
}

// headerTags lists the header: what the match is, who played, and what
// the audit concluded.
func headerTags(rep *fairness.Report, name func(engine.Seat) string) []Tag {
	h := rep.Header
	tags := []Tag{
		{Name: "Notation", Value: Format},
		{Name: "Game", Value: h.Game},
		{Name: "Variant", Value: h.Variant},
		{Name: "Rules", Value: h.Rules},
	}
	if h.Created != "" { // unknown in old transcripts, and not signed: see docs/NOTATION.md
		tags = append(tags, Tag{Name: "Date", Value: h.Created})
	}
	tags = append(tags, Tag{Name: "Match", Value: h.Match})
	for i, p := range h.Players {
		tags = append(tags,
			Tag{Name: fmt.Sprintf("Player%d", i), Value: p.Name},
			Tag{Name: fmt.Sprintf("Label%d", i), Value: name(engine.Seat(i))},
			Tag{Name: fmt.Sprintf("Peer%d", i), Value: p.Peer})
	}
	return append(tags,
		Tag{Name: "Verdict", Value: string(rep.Verdict)},
		Tag{Name: "Result", Value: shorten(result(rep, name))})
}

// result says how the match ended, naming the players by label.
func result(rep *fairness.Report, name func(engine.Seat) string) string {
	if rep.Verdict != fairness.Clean {
		return sayVerdict(rep.Header, rep.Summary(), name)
	}
	o := rep.Outcome
	if o.Draw || len(o.Winners) == 0 {
		return "draw: " + untrusted.Escape(o.Reason)
	}
	ws := make([]string, len(o.Winners))
	for i, s := range o.Winners {
		ws[i] = name(s)
	}
	return strings.Join(ws, " and ") + " won: " + untrusted.Escape(o.Reason)
}

// seatText matches "seat N" in texts that the audit wrote without marking
// the seats (a verdict, an error).
var seatText = regexp.MustCompile(`\bseat (\d+)\b`)

// say escapes text and writes each "seat N" in it by label.
func say(text string, name func(engine.Seat) string) string {
	text = seatText.ReplaceAllStringFunc(text, func(m string) string {
		k, err := strconv.Atoi(strings.TrimPrefix(m, "seat "))
		if err != nil {
			return m
		}
		return name(engine.Seat(k))
	})
	return untrusted.Escape(text)
}

// sayVerdict is say for the audit's verdict, which names a player as
// "seat N name (peer)": the label alone says it here. Every mention is
// replaced in one pass, left to right: replaced player by player, a name
// that spells another player's mention ("seat 0 Alice (12D3Ko…AAAA)")
// had that mention replaced inside it first, and the verdict then named
// Alice beside its violator.
func sayVerdict(h fairness.Header, text string, name func(engine.Seat) string) string {
	pairs := make([][2]string, 0, len(h.Players))
	for i, p := range h.Players {
		peer := p.Peer
		if len(peer) > 12 {
			peer = peer[:6] + "…" + peer[len(peer)-4:]
		}
		who := fmt.Sprintf("seat %d (%s)", i, untrusted.Escape(peer))
		if p.Name != "" {
			who = fmt.Sprintf("seat %d %s (%s)", i, untrusted.Escape(p.Name), untrusted.Escape(peer))
		}
		pairs = append(pairs, [2]string{who, name(engine.Seat(i))})
	}
	// The longest first where two mentions start at the same place.
	slices.SortStableFunc(pairs, func(a, b [2]string) int { return len(b[0]) - len(a[0]) })
	args := make([]string, 0, 2*len(pairs))
	for _, p := range pairs {
		args = append(args, p[0], p[1])
	}
	return say(strings.NewReplacer(args...).Replace(text), name)
}

// The referee's own events, which say how the protocol went (chains,
// commitments, preimages, openings, shuffles) rather than what happened in
// the game: a notation leaves them out, but keeps a joint roll's values.
var (
	protocolEvent = regexp.MustCompile(`^seat \d+ (committed dice chain [0-9a-f]{8}|committed \S+ \(\d+ leaves\) root [0-9a-f]{8}|revealed its preimage for roll \d+ |opened \d+ committed value\(s\), every path checks|committed its choice |opened its choice |published its key share for deck |shuffled deck .*, shuffle proof ✓$|unmasked \d+ card\(s\) of )`)
	rollEvent     = regexp.MustCompile(`^roll \d+ \((.*)\) = \[([-0-9 ]*)\] from `)
)

// message turns one audited step into a message: for each input, its move
// if it carried one, then what the replay said it did. A refused message
// has no events: its moves, then why it was refused.
func message(st fairness.AuditStep, name func(engine.Seat) string) Message {
	m := Message{Seq: st.Seq, Player: name(st.Seat)}
	for i, mv := range st.Moves {
		if len(mv) > 0 {
			m.Items = append(m.Items, Item{Kind: ItemMove, Text: RenderMove(mv)})
		}
		if !st.OK || i >= len(st.Cuts) {
			continue
		}
		end := len(st.Events)
		if i+1 < len(st.Cuts) {
			end = st.Cuts[i+1]
		}
		for _, e := range st.Events[st.Cuts[i]:end] {
			if it, ok := eventItem(e, name); ok {
				m.Items = append(m.Items, it)
			}
		}
	}
	if !st.OK {
		m.Items = append(m.Items, Item{Kind: ItemFault, Text: say(st.Error, name)})
	}
	for i := range m.Items {
		m.Items[i].Text = shorten(m.Items[i].Text)
	}
	return m
}

// maxText bounds the text of an item or a tag: a cheater's refused message
// may carry a move (or an unknown field named in the refusal) up to an
// envelope's size, which no notation line could hold, so the notation of
// the match that caught it could not be written, nor any parse.
const maxText = 1024

// shorten returns s when it fits maxText, else its start with its length
// and its whole BLAKE2b-256 digest: the same on both sides of Check, and
// two texts that differ past the cut still read differently.
func shorten(s string) string {
	if len(s) <= maxText {
		return s
	}
	cut := maxText - 128
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	sum := blake2b.Sum256([]byte(s))
	return fmt.Sprintf("%s… (%d bytes, blake2b %x)", s[:cut], len(s), sum)
}

// eventItem says one event of the replay as an item, or false for the
// referee's bookkeeping.
func eventItem(e engine.Event, name func(engine.Seat) string) (Item, bool) {
	if sub := rollEvent.FindStringSubmatch(e.Text); sub != nil {
		return Item{Kind: ItemRoll, Text: untrusted.Escape(sub[1]) + " = " + sub[2]}, true
	}
	if protocolEvent.MatchString(e.Text) {
		return Item{}, false
	}
	return Item{Kind: ItemEffect, Text: untrusted.Escape(e.Say(name))}, true
}

// reveals lists every committed vector the match opened, by owner (seats
// in order, the table last) and name.
func reveals(vals map[engine.Slot][]byte, name func(engine.Seat) string) []Reveal {
	type key struct {
		owner engine.Seat
		name  string
	}
	size := map[key]int{}
	for s := range vals {
		k := key{s.Owner, s.Name}
		size[k] = max(size[k], s.Index+1)
	}
	keys := make([]key, 0, len(size))
	for k := range size {
		keys = append(keys, k)
	}
	order := func(s engine.Seat) int {
		if s == engine.NoSeat {
			return 1 << 30
		}
		return int(s)
	}
	slices.SortFunc(keys, func(a, b key) int {
		if c := order(a.owner) - order(b.owner); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	out := make([]Reveal, 0, len(keys))
	for _, k := range keys {
		r := Reveal{Player: name(k.owner), Name: wordOf(k.name), Values: make([]string, size[k])}
		for i := range r.Values {
			v, ok := vals[engine.Slot{Owner: k.owner, Name: k.name, Index: i}]
			r.Values[i] = "?"
			if ok {
				r.Values[i] = RenderValue(v)
			}
		}
		out = append(out, r)
	}
	return out
}

// wordOf writes s as one word: itself when it is plain, else quoted.
func wordOf(s string) string {
	if plainWord(s) {
		return s
	}
	return untrusted.Escape(strconv.QuoteToASCII(s))
}

// RenderValue writes one opened value as one word: a one-byte value (a
// grid cell, a strength) as its number, a plain text value quoted, and
// anything else as x and its hex digits.
func RenderValue(v []byte) string {
	switch {
	case len(v) == 1:
		return strconv.Itoa(int(v[0]))
	case len(v) > 0 && utf8.Valid(v) && !bytes.ContainsFunc(v, func(r rune) bool { return r == ' ' || !unicode.IsPrint(r) || r > unicode.MaxASCII }):
		return strconv.Quote(string(v))
	}
	return fmt.Sprintf("x%x", v)
}

// plainWord reports whether s can stand unquoted in a move: ASCII letters,
// digits and a few signs, starting with a letter or digit.
func plainWord(s string) bool {
	if s == "" || s == "true" || s == "false" || s == "null" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || !strings.ContainsRune("-_./:#+", rune(c))) {
			return false
		}
	}
	return true
}

// maxDepth bounds the nesting RenderMove follows; a deeper move is shown
// as its JSON, quoted.
const maxDepth = 16

// RenderMove writes a move, which games encode as JSON in their own terms,
// for people: an object's fields as name=value, its "kind" or "action"
// first as a bare word, lists in [ ], nested objects in ( ), plain strings
// unquoted. {"ship":"battleship","shots":["E-5","F-6"]} reads
// "ship=battleship shots=[E-5 F-6]". What does not decode is quoted whole.
func RenderMove(raw []byte) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var b strings.Builder
	if err := renderValue(dec, &b, 0, true); err != nil {
		return untrusted.Escape(strconv.QuoteToASCII(string(raw)))
	}
	if _, err := dec.Token(); err != io.EOF {
		return untrusted.Escape(strconv.QuoteToASCII(string(raw)))
	}
	return b.String()
}

var errDepth = fmt.Errorf("a move nested deeper than %d", maxDepth)

func renderValue(dec *json.Decoder, b *strings.Builder, depth int, top bool) error {
	if depth > maxDepth {
		return errDepth
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			return renderList(dec, b, depth)
		}
		return renderObject(dec, b, depth, top)
	case string:
		if plainWord(t) {
			b.WriteString(t)
		} else {
			b.WriteString(strconv.QuoteToASCII(t))
		}
	case json.Number:
		b.WriteString(t.String())
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case nil:
		b.WriteString("null")
	}
	return nil
}

func renderList(dec *json.Decoder, b *strings.Builder, depth int) error {
	b.WriteByte('[')
	for first := true; dec.More(); first = false {
		if !first {
			b.WriteByte(' ')
		}
		if err := renderValue(dec, b, depth+1, false); err != nil {
			return err
		}
	}
	_, err := dec.Token() // ]
	b.WriteByte(']')
	return err
}

func renderObject(dec *json.Decoder, b *strings.Builder, depth int, top bool) error {
	if !top {
		b.WriteByte('(')
	}
	for first := true; dec.More(); first = false {
		if !first {
			b.WriteByte(' ')
		}
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		if key != "kind" && key != "action" {
			b.WriteString(wordOf(key) + "=")
		} else if err := bareOrField(dec, b, key, depth); err != nil {
			return err
		} else {
			continue
		}
		if err := renderValue(dec, b, depth+1, false); err != nil {
			return err
		}
	}
	_, err := dec.Token() // }
	if !top {
		b.WriteByte(')')
	}
	return err
}

// bareOrField writes the value of a "kind" or "action" field: a plain word
// alone, anything else as the field it is.
func bareOrField(dec *json.Decoder, b *strings.Builder, key string, depth int) error {
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return err
	}
	var s string
	if json.Unmarshal(v, &s) == nil && plainWord(s) {
		b.WriteString(s)
		return nil
	}
	b.WriteString(key + "=")
	inner := json.NewDecoder(bytes.NewReader(v))
	inner.UseNumber()
	return renderValue(inner, b, depth+1, false)
}
