package tui

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/style"
)

// evidence is what the cheat panel shows about a violation: who, which
// message, what it claimed, what the sender's own commitments prove.
type evidence struct {
	who        string
	seat       engine.Seat
	peer       string
	seq        uint64
	signed     bool
	claims     []string
	proofs     []string
	rule       string
	transcript string
}

// gatherEvidence reads the offending message back from the transcript,
// naming seats with name.
func gatherEvidence(v *fairness.Violation, path string, d board.Describer, name func(engine.Seat) string) *evidence {
	ev := &evidence{who: name(v.Seat), seat: v.Seat, peer: v.Peer, seq: v.Seq, signed: v.Signed,
		rule: ruleWords(engine.WordsOf(v.Err)).Say(name), transcript: path}
	_, m, err := findMessage(path, v.Seq)
	if err != nil || m.bodyErr != nil {
		return ev
	}
	var proofs []string
	for _, in := range m.body.Inputs {
		if in.T == fairness.InMove || in.T == fairness.InShare || in.T == fairness.InCommit {
			ev.claims = append(ev.claims, describeInput(in, d))
		}
		for _, o := range in.Open {
			proofs = append(proofs, describeOpening(o, m.commits, d, name))
		}
	}
	ev.proofs = relevant(proofs, ev.rule)
	return ev
}

// ruleWords is the words of a broken rule's error without the engine's
// "illegal input: " before the rule.
func ruleWords(w engine.Words) engine.Words {
	return w.Edit(func(t string) string { return strings.ReplaceAll(t, engine.ErrIllegal.Error()+": ", "") })
}

// relevant keeps the openings the broken rule talks about (those naming a
// word of it, such as the cell "B-1"), or the first two, and counts the
// rest.
func relevant(proofs []string, rule string) []string {
	if len(proofs) <= 2 {
		return proofs
	}
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(rule, func(r rune) bool { return r == ' ' || r == ':' || r == ',' || r == '(' || r == ')' }) {
		if len(w) >= 2 {
			words[w] = true
		}
	}
	var keep, rest []string
	for _, p := range proofs {
		hit := false
		for _, w := range strings.FieldsFunc(p, func(r rune) bool { return r == ' ' || r == ':' || r == ',' }) {
			if words[w] && strings.ContainsAny(w, "0123456789") {
				hit = true
				break
			}
		}
		if hit && len(keep) < 2 {
			keep = append(keep, p)
		} else {
			rest = append(rest, p)
		}
	}
	if len(keep) == 0 {
		keep, rest = proofs[:2], proofs[2:]
	}
	return append(keep, fmt.Sprintf("and %d more opening(s), each checked against the same commitment", len(rest)))
}

// drawCheat draws the red panel that replaces the board when the other
// side is caught cheating.
func drawCheat(scr tcell.Screen, th *style.Theme, ev *evidence, x, y, w, h int) {
	style.Fill(scr, x, y, w, h, th.Base)
	ix, iy, iw, ih := boxed(scr, th, x, y, w, h, style.Fail+" CHEATING DETECTED", th.Bad)
	style.Fill(scr, ix, iy, iw, 1, th.Alarm)
	style.Print(scr, ix+1, iy, iw-2, th.Alarm, fmt.Sprintf("%s %s broke the rules: the match is stopped", style.Fail, ev.who))
	row := iy + 2
	field := func(label, text string, st tcell.Style) {
		for i, l := range style.Wrap(text, iw-14, "") {
			if row >= iy+ih {
				return
			}
			lab := ""
			if i == 0 {
				lab = label
			}
			style.PrintSegs(scr, ix+1, row, iw-2, style.S(style.Pad(lab, 12), th.Accent), style.S(l, st))
			row++
		}
	}
	proof := "its signature on the message proves it came from them"
	if !ev.signed {
		proof = "it came over their authenticated connection (it carries no valid signature)"
	}
	field("Who", fmt.Sprintf("%s (%s, %s)", ev.who, ev.seat, shortID(ev.peer)), th.Base)
	field("Message", fmt.Sprintf("#%d — %s", ev.seq, proof), th.Base)
	for _, c := range ev.claims {
		field("Claimed", c, th.Warn)
	}
	for i, p := range ev.proofs {
		label := "Their proof"
		if i > 0 {
			label = ""
		}
		field(label, p, th.Base)
	}
	field("Broken rule", ev.rule, th.Bad)
	field("Transcript", ev.transcript+" (kept as evidence; anyone can re-check it with salvo audit)", th.Dim)
	if row < iy+ih {
		row++
	}
	if row < iy+ih {
		style.PrintSegs(scr, ix+1, row, iw-2, style.S("a", th.BarKey), style.S(" open it in the audit viewer   ", th.Base),
			style.S("q", th.BarKey), style.S(" back to the lobby", th.Base))
	}
}
