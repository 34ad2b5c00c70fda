package tui

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/notation"
)

// unverified is the verdict the viewer shows for a notation read on its
// own: a notation is text anyone can write, and nothing in it is checked
// until salvo audit --notation compares it with its signed transcript.
const unverified fairness.Verdict = "unverified"

// isNotation reports whether the file at path starts as a match notation
// (a tag or a comment) rather than a transcript (a JSON header).
func isNotation(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b, _ := bufio.NewReader(f).Peek(64)
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && (b[0] == '[' || b[0] == ';')
}

// openRecord replays the file at path for the viewer: a transcript
// audited, a notation as it says, marked unverified.
func openRecord(path string) (*replayed, error) {
	if isNotation(path) {
		return replayNotation(path)
	}
	return replayFile(path)
}

// replayNotation reads a notation for the viewer: a step per message,
// whose lines stand for its events, and the reveals as a last step. There
// is no board: nothing here can be replayed without the transcript.
func replayNotation(path string) (*replayed, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	n, err := notation.Parse(f)
	if err != nil {
		return nil, err
	}
	h := notationHeader(n)
	spec, ok := games.Spec(h.Game)
	if !ok {
		return nil, fmt.Errorf("a notation of an unknown game %q", h.Game)
	}
	result, _ := n.Tag("Result")
	verdict, _ := n.Tag("Verdict")
	rep := &fairness.Report{Header: h, Verdict: unverified, Revealed: map[engine.Slot][]byte{},
		Detail: fmt.Sprintf("a notation alone proves nothing; it claims %q, %s. Check it against its transcript: salvo audit --notation FILE TRANSCRIPT", verdict, result)}
	r := &replayed{path: path, header: h, spec: spec, report: rep, firstBad: -1, unverified: true}
	r.steps = append(r.steps, auditStep{line: 1, kind: "header", ok: true, seat: engine.NoSeat})
	seats := map[string]engine.Seat{}
	for i := range h.Players {
		if l, ok := n.Tag("Label" + strconv.Itoa(i)); ok {
			seats[l] = engine.Seat(i)
		}
	}
	for _, m := range n.Messages {
		st := auditStep{line: m.Line, seq: m.Seq, seat: engine.NoSeat, kind: "notation", ok: true}
		if s, ok := seats[m.Player]; ok {
			st.seat = s
		}
		for _, it := range m.Items {
			if it.Kind == notation.ItemFault {
				st.ok, st.err = false, engine.Plain(it.Text)
				continue
			}
			if it.Kind != notation.ItemEffect {
				st.inputs = append(st.inputs, string(it.Kind))
			}
			st.events = append(st.events, engine.Event{Seat: engine.NoSeat, Kind: string(it.Kind), Text: itemText(it)})
		}
		if !st.ok && r.firstBad < 0 {
			r.firstBad = len(r.steps)
		}
		r.steps = append(r.steps, st)
	}
	if len(n.Reveals) > 0 {
		st := auditStep{line: n.Reveals[0].Line, seat: engine.NoSeat, kind: "notation", ok: true, inputs: []string{"reveals"}}
		for _, rv := range n.Reveals {
			st.events = append(st.events, engine.Event{Seat: engine.NoSeat, Kind: "reveal", Text: fmt.Sprintf("%s's %s: %s", rv.Player, rv.Name, strings.Join(rv.Values, " "))})
		}
		r.steps = append(r.steps, st)
	}
	return r, nil
}

// itemText is how the viewer lists one item of a message.
func itemText(it notation.Item) string {
	if it.Kind == notation.ItemEffect {
		return it.Text
	}
	return string(it.Kind) + " " + it.Text
}

// notationHeader gathers a header from a notation's tags, as far as they
// go: it names the game and the players, and proves nothing.
func notationHeader(n *notation.Notation) fairness.Header {
	tag := func(name string) string { v, _ := n.Tag(name); return v }
	h := fairness.Header{Format: tag("Notation"), Game: tag("Game"), Variant: tag("Variant"), Rules: tag("Rules"), Match: tag("Match"), Created: tag("Date")}
	for i := 0; i < 16; i++ {
		name, ok := n.Tag("Player" + strconv.Itoa(i))
		if !ok {
			break
		}
		h.Players = append(h.Players, fairness.Player{Name: name, Peer: tag("Peer" + strconv.Itoa(i))})
	}
	return h
}
