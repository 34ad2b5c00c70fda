package fairness

import (
	"bytes"
	"fmt"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness/untrusted"
)

// LiveAudit is Audit taken one line at a time, for a spectator following a
// match that is still being played: every line gets all of the audit's
// checks (the same auditor) the moment it arrives, so a spectator never
// shows a move it has not verified, and a false line is named at once
// rather than at the end. It is not safe for concurrent use.
type LiveAudit struct {
	a     auditor
	lines int // lines taken, the header included
	bad   *BadLine
}

// BadLine names the line a live audit stopped at: its number in the
// record (the header is line 1), who it claims to come from, and what
// failed. The sender is the line's claim, not a finding: a spectator that
// relays a forged line makes it claim a player.
type BadLine struct {
	Line   int
	Seq    uint64 // the message number the line claims, 0 if none
	Sender string // "seat 1 ana (12D3…)", or "unknown" for a line that does not decode
	Reason string
}

func (b *BadLine) Error() string {
	if b.Seq > 0 {
		return fmt.Sprintf("line %d (message %d, from %s): %s", b.Line, b.Seq, b.Sender, b.Reason)
	}
	return fmt.Sprintf("line %d (from %s): %s", b.Line, b.Sender, b.Reason)
}

// NewLiveAudit starts a live audit from a record's first line, its header,
// checked as Audit checks it.
func NewLiveAudit(header []byte, specs Specs) (*LiveAudit, error) {
	h, _, err := ReadTranscript(bytes.NewReader(append(bytes.TrimSpace(header), '\n')))
	if err != nil {
		return nil, err
	}
	spec, ok := specs(h.Game)
	if !ok {
		return nil, fmt.Errorf("%w: unknown game %q", ErrNotTranscript, untrusted.Escape(h.Game))
	}
	m, err := NewMatch(spec, h)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotTranscript, err)
	}
	return &LiveAudit{a: auditor{rep: &Report{Header: h, Revealed: map[engine.Slot][]byte{}}, m: m}, lines: 1}, nil
}

// Header returns the match's header.
func (l *LiveAudit) Header() Header { return l.a.rep.Header }

// Lines returns how many lines were taken and verified, the header
// included: the next line to ask for is Lines()+1.
func (l *LiveAudit) Lines() int { return l.lines }

// Add checks the record's next line. It returns a *BadLine for a line
// that fails any check (a false signature, a broken chain, a wrong
// opening, roll, shuffle proof or state hash, a line after the end), and
// takes nothing more after one: a live referee stops there too.
func (l *LiveAudit) Add(line []byte) error {
	if l.bad != nil {
		return l.bad
	}
	no := l.lines + 1
	p := &parsed{no: no, raw: bytes.TrimSpace(line)}
	h := l.a.rep.Header
	p.decode(h, l.a.m.keys)
	steps := len(l.a.rep.Steps)
	if err := l.a.take(p); err != nil {
		l.bad = &BadLine{Line: no, Sender: "unknown", Reason: err.Error()}
		return l.bad
	}
	l.lines = no
	rep := l.a.rep
	switch {
	case rep.Verdict == Corrupt:
		l.bad = &BadLine{Line: no, Sender: lineSender(h, p), Reason: rep.Detail}
		if len(rep.Steps) > steps {
			l.bad.Seq = rep.Steps[len(rep.Steps)-1].Seq
		}
	case rep.Violation != nil:
		v := rep.Violation
		l.bad = &BadLine{Line: no, Seq: v.Seq, Sender: playerName(h, v.Seat), Reason: v.Err.Error()}
		if v.Seat == engine.NoSeat {
			l.bad.Sender = lineSender(h, p)
		}
	}
	if l.bad != nil {
		return l.bad
	}
	return nil
}

// lineSender names who a decoded line claims to come from.
func lineSender(h Header, p *parsed) string {
	switch {
	case p.Envelope != nil && h.Seat(p.Envelope.From) != engine.NoSeat:
		return playerName(h, h.Seat(p.Envelope.From))
	case p.Closing != nil && h.Seat(p.Closing.By) != engine.NoSeat:
		return playerName(h, h.Seat(p.Closing.By))
	case p.Envelope != nil:
		return "not a player: " + untrusted.Escape(shortPeer(p.Envelope.From))
	}
	return "unknown"
}

// Ended reports whether the record is complete: the match ended by its
// rules, or a closing record ended it.
func (l *LiveAudit) Ended() bool { return l.a.m.Done() || l.a.closed || l.bad != nil }

// Report is the audit of the lines taken so far, as Audit would judge a
// file holding them (Incomplete while the match goes on). The report
// shares its steps and revealed values with the live audit: read it
// before the next Add.
func (l *LiveAudit) Report() *Report {
	r := *l.a.rep
	if r.Verdict == Corrupt {
		return &r
	}
	return conclude(&r, l.a.m, l.a.failLine)
}
