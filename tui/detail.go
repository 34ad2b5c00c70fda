package tui

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/style"
)

// commitRef is where a committed vector's root was sent.
type commitRef struct {
	root string
	seq  uint64
}

type commitKey struct {
	owner engine.Seat
	name  string
}

// message is one envelope of a transcript read back with what it was checked
// against.
type message struct {
	line    int
	env     *fairness.Envelope
	seat    engine.Seat
	body    *fairness.Body
	bodyErr error
	commits map[commitKey]commitRef // every commitment sent before this message
}

// findMessage reads the transcript at path up to message seq.
func findMessage(path string, seq uint64) (fairness.Header, *message, error) {
	f, err := os.Open(path)
	if err != nil {
		return fairness.Header{}, nil, err
	}
	defer f.Close()
	h, tr, err := fairness.ReadTranscript(f)
	if err != nil {
		return h, nil, err
	}
	commits := map[commitKey]commitRef{}
	for {
		ln, err := tr.Next()
		if err == io.EOF {
			return h, nil, fmt.Errorf("message %d is not in %s", seq, path)
		}
		if err != nil {
			return h, nil, err
		}
		e := ln.Envelope
		if e == nil {
			continue
		}
		body, berr := fairness.DecodeBody(e.Body)
		seat := h.Seat(e.From)
		if e.Seq == seq {
			return h, &message{line: ln.No, env: e, seat: seat, body: body, bodyErr: berr, commits: commits}, nil
		}
		if berr != nil {
			continue
		}
		for _, in := range body.Inputs {
			if in.T == fairness.InCommit || in.T == fairness.InChoose {
				commits[commitKey{seat, in.Name}] = commitRef{root: in.Root, seq: e.Seq}
			}
		}
	}
}

// short returns the first eight characters of a hex string with an
// ellipsis.
func short(hex string) string {
	if len(hex) > 8 {
		return hex[:8] + "…"
	}
	return hex
}

// describeInput returns what one input says, in words.
func describeInput(in fairness.WireInput, d board.Describer) string {
	switch in.T {
	case fairness.InHello:
		return fmt.Sprintf("hello: dice chain tip %s (%d links)", short(in.Tip), in.Links)
	case fairness.InCommit:
		return fmt.Sprintf("commit %s: %d values under root %s", in.Name, in.Size, short(in.Root))
	case fairness.InMove:
		if d != nil {
			return "move: " + d.DescribeMove(in.Move)
		}
		return "move: " + string(in.Move)
	case fairness.InOpen:
		return fmt.Sprintf("open: %d committed values", len(in.Open))
	case fairness.InShare:
		return fmt.Sprintf("dice share for roll %d: preimage %s", in.Roll, short(in.Link))
	case fairness.InChoose:
		return fmt.Sprintf("hidden choice %s committed under root %s", in.Name, short(in.Root))
	case fairness.InReveal:
		return "reveals its hidden choice"
	case fairness.InResign:
		return "resigns"
	}
	return string(in.T)
}

// describeOpening returns an opening with the commitment it answers to,
// naming the seat of a slot no describer tells with name.
func describeOpening(o fairness.Opening, commits map[commitKey]commitRef, d board.Describer, name func(engine.Seat) string) string {
	what := engine.Wordsf("%s/%s[%d] = %x", o.Slot.Owner, o.Slot.Name, o.Slot.Index, o.Value).Say(name)
	if d != nil {
		what = d.DescribeValue(o.Slot, o.Value)
	}
	against := "no commitment of that name was sent"
	if c, ok := commits[commitKey{o.Slot.Owner, o.Slot.Name}]; ok {
		against = fmt.Sprintf("root %s committed in message %d", short(c.root), c.seq)
	}
	return fmt.Sprintf("%s[%d]: %s (salt %s, path of %d hashes to %s)", o.Slot.Name, o.Slot.Index, what, short(hexOf(o.Salt[:])), len(o.Path), against)
}

func hexOf(b []byte) string { return fmt.Sprintf("%x", b) }

// messageLines renders a message for the detail window, naming seats with
// name.
func messageLines(a *App, h fairness.Header, m *message, d board.Describer, name func(engine.Seat) string) []style.Seg {
	th := a.th
	e := m.env
	out := []style.Seg{
		style.S(fmt.Sprintf("message %d, line %d of the transcript, from %s (%s)", e.Seq, m.line, name(m.seat), shortID(e.From)), th.Accent),
		style.S(fmt.Sprintf("match %s · previous message hash %s · signature %s", short(e.Match), short(e.Prev), short(e.Sig)), th.Dim),
		style.S("The signature is the sender's libp2p Ed25519 key over all of it, so only the sender could have written it, and it chains to every message before.", th.Dim),
		style.S("", th.Base),
	}
	if m.bodyErr != nil {
		return append(out, style.S("body: "+m.bodyErr.Error(), th.Bad))
	}
	for i, in := range m.body.Inputs {
		out = append(out, style.S(fmt.Sprintf("input %d: %s", i+1, describeInput(in, d)), th.Base))
		for _, o := range in.Open {
			out = append(out, style.S("  opens "+describeOpening(o, m.commits, d, name), th.Base))
		}
	}
	out = append(out, style.S(fmt.Sprintf("state hash after it, as the sender computed: %s", short(m.body.State)), th.Base), style.S("", th.Base))
	raw, err := json.MarshalIndent(e, "", "  ")
	if err == nil {
		out = append(out, style.S("raw signed message:", th.Dim))
		for _, l := range strings.Split(string(raw), "\n") {
			out = append(out, style.S(l, th.Dim))
		}
	}
	return out
}
