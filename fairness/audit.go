package fairness

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync/atomic"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness/untrusted"
)

// Verdict is an audit's conclusion.
type Verdict string

// The verdicts. Only Clean means the match was played out fairly to the end.
const (
	Clean      Verdict = "clean"      // every check passed and the game ended by its rules
	Violated   Verdict = "violation"  // a player broke the protocol or the rules
	Forfeit    Verdict = "forfeit"    // a player stopped answering or left
	Incomplete Verdict = "incomplete" // the transcript stops before the end
	Corrupt    Verdict = "corrupt"    // the file was altered: edited, reordered, repeated or spliced
)

// AuditStep summarises one accepted message, for the audit viewer.
type AuditStep struct {
	Line   int
	Seq    uint64
	Seat   engine.Seat
	Inputs []string // the input kinds, in order
	Events []engine.Event
	State  Digest
	OK     bool
	Error  string // for the failing message
	// Message is the envelope's hash: two records of one match whose
	// steps differ at a place both senders' signatures hold for prove that
	// the sender signed two versions of it (see [AuditJoint]).
	Message Digest
}

// Report is the result of an audit.
type Report struct {
	Header    Header
	Verdict   Verdict
	Outcome   engine.Outcome // the game's result, when it ended
	Violation *Violation     // for Violated
	Closing   *Closing       // the writer's closing record, if any
	Line      int            // the line the verdict points at
	Detail    string         // one sentence explaining the verdict
	Steps     []AuditStep
	// Revealed holds every value opened anywhere in the match (the final
	// reveal opens them all), for showing hidden data after the fact.
	Revealed map[engine.Slot][]byte
}

// Summary returns the verdict line that `salvo audit` prints.
func (r *Report) Summary() string {
	switch r.Verdict {
	case Clean:
		return fmt.Sprintf("clean: %s", describeOutcome(r.Header, r.Outcome))
	case Violated:
		v := r.Violation
		who := playerName(r.Header, v.Seat)
		how := "its own signed message proves it"
		switch {
		case v.Surfaced:
			how = fmt.Sprintf("its own earlier signed messages prove it; it came to light when %s's message completed them", playerName(r.Header, v.Found))
		case !v.Signed:
			how = fmt.Sprintf("reported by %s, over whose authenticated connection it came; it carries no valid signature of the sender", closingWriter(r))
		case needsWitness(v):
			how = fmt.Sprintf("signed by the sender; %s reports it arrived over the sender's authenticated connection", closingWriter(r))
		}
		return fmt.Sprintf("violation by %s, message %d (line %d): %v [%s]", who, v.Seq, r.Line, v.Err, how)
	default:
		return fmt.Sprintf("%s: %s", r.Verdict, r.Detail)
	}
}

func closingWriter(r *Report) string {
	if r.Closing == nil {
		return "nobody"
	}
	return playerName(r.Header, r.Header.Seat(r.Closing.By))
}

// playerName names a seat in a verdict. The name and peer come from the
// file: a transcript written before the handshake checked names may hold
// one that a terminal would act on, so both are escaped here, where every
// verdict sentence gets them.
func playerName(h Header, s engine.Seat) string {
	if s < 0 || int(s) >= len(h.Players) {
		return s.String()
	}
	p := h.Players[s]
	if p.Name != "" {
		return fmt.Sprintf("%s %s (%s)", s, untrusted.Escape(p.Name), untrusted.Escape(shortPeer(p.Peer)))
	}
	return fmt.Sprintf("%s (%s)", s, untrusted.Escape(shortPeer(p.Peer)))
}

func describeOutcome(h Header, o engine.Outcome) string {
	switch {
	case o.Draw:
		return "draw, " + o.Reason
	case len(o.Winners) > 0:
		names := make([]string, len(o.Winners))
		for i, w := range o.Winners {
			names[i] = playerName(h, w)
		}
		return fmt.Sprintf("%s won: %s", strings.Join(names, " and "), o.Reason)
	}
	return o.Reason
}

// Specs finds a game by name.
type Specs func(name string) (engine.Spec, bool)

// needsWitness reports whether a violation can only be a live one if the
// writer's closing record vouches for it. A message that is out of sequence,
// from another match, or not validly signed proves nothing by itself in a
// file: it may have been moved there from elsewhere.
func needsWitness(v *Violation) bool {
	return !v.Signed || errors.Is(v.Err, ErrSequence) || errors.Is(v.Err, ErrOtherMatch)
}

// Audit re-verifies a transcript from r: every signature and chain link,
// every input replayed through the engine, every opening, dice preimage and
// state hash, the final reveal and the result. It returns an error wrapping
// ErrNotTranscript only when r is not a readable transcript; everything
// else is a verdict in the report.
func Audit(r io.Reader, specs Specs) (*Report, error) {
	h, tr, err := ReadTranscript(r)
	if err != nil {
		return nil, err
	}
	rep := &Report{Header: h, Revealed: map[engine.Slot][]byte{}}
	spec, ok := specs(h.Game)
	if !ok {
		return nil, fmt.Errorf("%w: unknown game %q", ErrNotTranscript, h.Game)
	}
	m, err := NewMatch(spec, h)
	if err != nil {
		rep.Verdict, rep.Line, rep.Detail = Corrupt, 1, err.Error()
		return rep, nil
	}
	lines, err := readLines(tr, h, m.keys)
	if err != nil {
		return nil, err
	}
	var failLine int
	corrupt := func(line int, format string, args ...any) (*Report, error) {
		rep.Verdict, rep.Line, rep.Detail = Corrupt, line, fmt.Sprintf(format, args...)
		return rep, nil
	}
	for i := range lines {
		<-lines[i].ready
		pl := &lines[i]
		ln := pl.Line
		if pl.err != nil {
			if rep.Violation == nil && len(rep.Steps) > 0 {
				return corrupt(pl.no, "%v", pl.err)
			}
			return nil, pl.err
		}
		switch {
		case ln.Closing != nil:
			if rep.Closing != nil {
				return corrupt(ln.No, "a second closing record")
			}
			if err := ln.Closing.Verify(); err != nil || h.Seat(ln.Closing.By) == engine.NoSeat || ln.Closing.Match != h.Match {
				return corrupt(ln.No, "the closing record is not signed by a player of this match")
			}
			rep.Closing = ln.Closing
		case rep.Closing != nil:
			return corrupt(ln.No, "a message after the closing record")
		case rep.Violation != nil:
			return corrupt(ln.No, "a message after the violation at line %d: a live referee stops there", failLine)
		case ln.Raw != nil:
			seat := h.Seat(ln.Raw.From)
			raw, _ := base64.StdEncoding.DecodeString(ln.Raw.Raw)
			rep.Violation = &Violation{Seat: seat, Peer: ln.Raw.From, Seq: m.Seq() + 1, Err: fmt.Errorf("undecodable message of %d bytes", len(raw))}
			failLine = ln.No
		default:
			e, body := ln.Envelope, pl.body
			step := AuditStep{Line: ln.No, Seq: e.Seq, Seat: h.Seat(e.From)}
			if body != nil {
				for _, in := range body.Inputs {
					step.Inputs = append(step.Inputs, in.T)
					for _, o := range in.Open {
						rep.Revealed[o.Slot] = o.Value
					}
					for _, f := range in.Full {
						for i, v := range f.Values {
							rep.Revealed[engine.Slot{Owner: step.Seat, Name: f.Name, Index: i}] = v
						}
					}
				}
			}
			evs, err := m.accept(e, body)
			step.Events, step.OK = evs, err == nil
			if err != nil {
				step.Message, step.Error = e.Hash(), err.Error()
				var v *Violation
				if !errors.As(err, &v) {
					v = &Violation{Seat: step.Seat, Peer: e.From, Seq: e.Seq, Err: err}
				}
				if errors.Is(err, ErrRepeated) {
					rep.Steps = append(rep.Steps, step)
					return corrupt(ln.No, "line %d repeats message %d", ln.No, e.Seq)
				}
				rep.Violation, failLine = v, ln.No
			} else {
				step.Message, step.State = m.prev, m.StateHash() // accepting hashed the envelope already
			}
			rep.Steps = append(rep.Steps, step)
		}
	}
	return conclude(rep, m, failLine), nil
}

// signedInPlace reports whether the message a violation was found in was
// signed by its sender for its place in the match, so that only its content
// is at fault.
func signedInPlace(v *Violation) bool {
	return v.Signed && !errors.Is(v.Err, ErrSequence) && !errors.Is(v.Err, ErrOtherMatch) && !errors.Is(v.Err, ErrOutOfTurn)
}

func conclude(rep *Report, m *Match, failLine int) *Report {
	h, c := rep.Header, rep.Closing
	if v := rep.Violation; v != nil {
		rep.Line = failLine
		witnessed := c != nil && c.Closing == CloseViolation && engine.Seat(c.Seat) == v.Seat && h.Seat(c.By) != v.Seat
		if needsWitness(v) && !witnessed {
			rep.Verdict = Corrupt
			rep.Detail = fmt.Sprintf("line %d fails (%v), and no closing record of the receiving player vouches that it arrived so", failLine, v.Err)
			return rep
		}
		rep.Verdict = Violated
		return rep
	}
	if m.Done() {
		rep.Verdict, rep.Outcome = Clean, m.Outcome()
		return rep
	}
	if c != nil && (c.Closing == CloseTimeout || c.Closing == CloseAbandoned) {
		next, err := forfeitFits(h, m, c)
		if err != nil {
			rep.Verdict = Corrupt
			rep.Detail = err.Error()
			return rep
		}
		blamed, writer := engine.Seat(c.Seat), h.Seat(c.By)
		rep.Verdict = Forfeit
		switch {
		case c.Seq == m.Seq() && next.Seat == writer:
			rep.Detail = fmt.Sprintf("%s forfeits: %s after message %d, claimed by %s while it was %s's own %s (%s)",
				playerName(h, blamed), c.Closing, c.Seq, playerName(h, writer), playerName(h, writer), next.Kind, c.Detail)
		case c.Seq == m.Seq():
			rep.Detail = fmt.Sprintf("%s forfeits: %s after message %d while the match waited for %s's %s (%s, recorded by %s)",
				playerName(h, blamed), c.Closing, c.Seq, playerName(h, next.Seat), next.Kind, c.Detail, playerName(h, writer))
		default:
			rep.Detail = fmt.Sprintf("%s forfeits: %s after message %d (%s, recorded by %s, who never received %s's messages %d to %d)",
				playerName(h, blamed), c.Closing, c.Seq, c.Detail, playerName(h, writer), playerName(h, blamed), c.Seq+1, m.Seq())
		}
		rep.Outcome = engine.Outcome{Done: true, Winners: others(len(h.Players), blamed), Reason: "opponent forfeited by " + c.Closing}
		return rep
	}
	rep.Verdict = Incomplete
	if next, ok := m.Next(); ok {
		rep.Detail = fmt.Sprintf("the transcript ends after message %d, while the match waits for %s's %s", m.Seq(), playerName(h, next.Seat), next.Kind)
	} else {
		rep.Detail = fmt.Sprintf("the transcript ends after message %d before the match ended", m.Seq())
	}
	return rep
}

func others(n int, s engine.Seat) []engine.Seat {
	var w []engine.Seat
	for i := 0; i < n; i++ {
		if engine.Seat(i) != s {
			w = append(w, engine.Seat(i))
		}
	}
	return w
}

// parsed is one transcript line decoded ahead of the replay.
type parsed struct {
	Line
	no    int
	body  *Body // nil if the body does not decode (accept reports why)
	err   error // the line itself is unreadable
	ready chan struct{}
}

// maxTranscript bounds what the auditor reads into memory.
const maxTranscript = 1 << 30

// readLines reads every remaining line and starts decoding the lines, their
// bodies and their signatures on every core: that is most of an audit's
// work, and only the replay has to run in order. The replay takes each line
// as soon as its ready channel closes, so both overlap.
func readLines(tr *TranscriptReader, h Header, keys []crypto.PubKey) ([]parsed, error) {
	var out []parsed
	var raw [][]byte
	total := 0
	for {
		no, b, err := tr.nextRaw()
		if err == io.EOF {
			break
		}
		if err != nil {
			out = append(out, parsed{no: no, err: err})
			raw = append(raw, nil)
			break
		}
		if total += len(b); total > maxTranscript {
			return nil, fmt.Errorf("%w: more than %d bytes", ErrNotTranscript, maxTranscript)
		}
		out = append(out, parsed{no: no})
		raw = append(raw, b)
	}
	for i := range out {
		out[i].ready = make(chan struct{})
	}
	workers := min(runtime.GOMAXPROCS(0), 8)
	next := atomic.Int64{}
	for w := 0; w < workers; w++ {
		go func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(out) {
					return
				}
				p := &out[i]
				if raw[i] != nil {
					p.Line, p.err = parseLine(p.no, raw[i])
					if e := p.Envelope; p.err == nil && e != nil {
						p.body, _ = DecodeBody(e.Body)
						if s := h.Seat(e.From); s != engine.NoSeat && e.Verify(keys[s]) == nil {
							e.verified = true
						}
					}
				}
				close(p.ready)
			}
		}()
	}
	return out, nil
}

// AuditFile audits the transcript at path; see Audit.
func AuditFile(path string, specs Specs) (*Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	defer f.Close()
	return Audit(f, specs)
}
