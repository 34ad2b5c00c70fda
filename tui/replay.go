package tui

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/tui/board"
)

// auditStep is one line of a transcript, replayed: the game as it stood
// after it.
type auditStep struct {
	line   int
	seq    uint64
	seat   engine.Seat
	kind   string // "message", "closing", "raw"
	inputs []string
	events []engine.Event
	ok     bool
	err    engine.Words // what failed, its seats apart for the names
	game   engine.Game
}

// replayed is a transcript audited and replayed step by step.
type replayed struct {
	path     string
	header   fairness.Header
	spec     engine.Spec
	report   *fairness.Report
	steps    []auditStep
	firstBad int // index of the first failing step, or -1
	// unverified marks a notation read on its own (see openRecord): no
	// board, no checks, and the screen says so.
	unverified bool
}

// replayFile audits the transcript at path and replays it, keeping the
// game after every message.
func replayFile(path string) (*replayed, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	rep, err := fairness.Audit(f, games.Spec)
	f.Close()
	if err != nil {
		return nil, err
	}
	r := &replayed{path: path, header: rep.Header, report: rep, firstBad: -1}
	spec, ok := games.Spec(rep.Header.Game)
	if !ok {
		return nil, fmt.Errorf("unknown game %q", rep.Header.Game)
	}
	r.spec = spec
	f, err = os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h, tr, err := fairness.ReadTranscript(f)
	if err != nil {
		return nil, err
	}
	m, err := fairness.NewMatch(spec, h)
	if err != nil {
		r.steps = append(r.steps, auditStep{line: 1, kind: "header", err: engine.WordsOf(err)})
		r.firstBad = 0
		return r, nil
	}
	r.steps = append(r.steps, auditStep{line: 1, kind: "header", ok: true, seat: engine.NoSeat, game: m.Game().Clone()})
	// A second match, fed one input at a time, tells what each input of a
	// message answered (a volley, its answer…), which the wire kinds
	// ("move,move") do not say.
	shadow, _ := fairness.NewMatch(spec, h)
	for {
		ln, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			r.steps = append(r.steps, auditStep{line: len(r.steps) + 1, kind: "raw", seat: engine.NoSeat, err: engine.WordsOf(err), game: m.Game().Clone()})
			break
		}
		st := auditStep{line: ln.No, seat: engine.NoSeat}
		switch {
		case ln.Closing != nil:
			c := ln.Closing
			st.kind, st.seq, st.ok = "closing", c.Seq, c.Closing != fairness.CloseViolation
			st.seat = h.Seat(c.By)
			st.err = engine.Wordsf("closing record by %s: %s by %s after message %d: %s", shortID(c.By), c.Closing, engine.Seat(c.Seat), c.Seq, c.Detail)
		case ln.Raw != nil:
			st.kind, st.seat = "raw", h.Seat(ln.Raw.From)
			st.err = engine.Plain("an undecodable message, kept as received")
		default:
			e := ln.Envelope
			st.kind, st.seq, st.seat = "message", e.Seq, h.Seat(e.From)
			if body, err := fairness.DecodeBody(e.Body); err == nil {
				if st.inputs, shadow = inputWords(shadow, st.seat, body.Inputs); shadow != nil {
					shadow.Staged(e, st.seat, body.Inputs)
				}
			}
			evs, err := m.Accept(e)
			st.events, st.ok = evs, err == nil
			if err != nil {
				st.err = engine.WordsOf(err)
			}
		}
		st.game = m.Game().Clone()
		if !st.ok && r.firstBad < 0 {
			r.firstBad = len(r.steps)
		}
		r.steps = append(r.steps, st)
	}
	return r, nil
}

// text returns the searchable text of a step.
func (s auditStep) text() string { return strings.ToLower(s.said(engine.Words.String)) }

// said is the step's text with its words told by say (the players' names
// for the seats they name, or "seat N" with Words.String).
func (s auditStep) said(say func(engine.Words) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s %s %s %s", s.seq, say(engine.Wordsf("%s", s.seat)), s.kind, strings.Join(s.inputs, " "), say(s.err))
	for _, e := range s.events {
		b.WriteString(" " + say(e.Words()))
	}
	return b.String()
}

// inputWords names the inputs of one message by what each answered, as
// shadow (a match one message behind the replay) asked for them; it
// returns the shadow to go on with, nil once it lost step (then the wire
// kinds stand).
func inputWords(shadow *fairness.Match, from engine.Seat, ins []fairness.WireInput) ([]string, *fairness.Match) {
	out := make([]string, 0, len(ins))
	for _, in := range ins {
		if shadow == nil {
			out = append(out, string(in.T))
			continue
		}
		st, ok := shadow.Next()
		if _, err := shadow.Stage(from, in); !ok || err != nil {
			shadow = nil
			out = append(out, string(in.T))
			continue
		}
		out = append(out, needWord(st, in.T))
	}
	return out, shadow
}

// needWord names what an input answered, in a player's word: "volley",
// "answer", "commit grid", "roll", "shuffle".
func needWord(st fairness.Step, t fairness.InputKind) string {
	n := st.Need
	prompt := n.Prompt
	if _, rest, ok := board.AfterSeat(n.Asks()); ok {
		prompt = rest // the words after the seat the prompt begins with
	}
	verb, _, _ := strings.Cut(strings.TrimSpace(prompt), " ")
	switch {
	case t == fairness.InHello:
		return "dice chain"
	case t == fairness.InShare, t == fairness.InPreshare:
		return "roll" // a pre-share: the seat's share of a roll to come
	case t == fairness.InRemove:
		return "departure" // whatever the match waited for then
	case verb == "fires":
		return "volley"
	case verb == "answers" || n.Kind == engine.NeedMove && len(n.Open) > 0:
		return "answer"
	case n.Kind == engine.NeedMove && n.Name != "":
		return strings.ReplaceAll(n.Name, "/", " ")
	case n.Kind == engine.NeedCommit && n.Name != "":
		return "commit " + strings.ReplaceAll(n.Name, "/", " ")
	case n.Kind == engine.NeedOpen:
		return "reveal"
	}
	return string(t)
}
