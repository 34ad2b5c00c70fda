package fairness

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
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
	Inputs []InputKind // the input kinds, in order
	Events []engine.Event
	State  Digest
	OK     bool
	Error  string       // for the failing message
	why    engine.Words // Error with its seats apart (ErrorWords)
	// Message is the envelope's hash: two records of one match whose
	// steps differ at a place both senders' signatures hold for prove that
	// the sender signed two versions of it (see [AuditJoint]).
	Message Digest
	// Moves holds the move of each input that carries one (nil for the
	// others), and Cuts where each input's events start in Events, in
	// input order: what the match notation (package fairness/notation)
	// needs to say each input's decision and its effects.
	Moves []json.RawMessage
	Cuts  []int
	// Member is set when the message was a member of a parallel group
	// (parallel.go), signed after message Base without waiting for the
	// messages between: it shows its sender had received Base, no more.
	Member bool
	Base   uint64
}

// ErrorWords returns Error as [engine.Words]: a listing names the seats
// it speaks of by their players (Words.Say), never by searching the text.
func (s AuditStep) ErrorWords() engine.Words {
	if s.why.String() != s.Error {
		return engine.Plain(s.Error)
	}
	return s.why
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
		return fmt.Sprintf("violation by %s, message %d (line %d): %v [%s]", playerName(r.Header, v.Seat), v.Seq, r.Line, v.Err, evidence(r.Header, v, r.Closing))
	default:
		return fmt.Sprintf("%s: %s", r.Verdict, r.Detail)
	}
}

// evidence says what a violation rests on: the offender's own signature,
// or only the word of the player whose closing record c vouches for it.
func evidence(h Header, v *Violation, c *Closing) string {
	switch {
	case errors.Is(v.Err, ErrFalseClaim):
		return "its own signed closing record, refuted by signed messages"
	case v.Surfaced:
		return fmt.Sprintf("its own earlier signed messages prove it; it came to light when %s's message completed them", playerName(h, v.Found))
	case !v.Signed:
		return fmt.Sprintf("claimed by %s, over whose authenticated connection it came; it carries no valid signature of the sender, so it rests on %s's word", claimant(h, c), claimant(h, c))
	case needsWitness(v):
		return fmt.Sprintf("signed by the sender but not for this place; %s claims it arrived over the sender's authenticated connection, so it rests on %s's word", claimant(h, c), claimant(h, c))
	}
	return "its own signed message proves it"
}

// claimant names the writer of closing record c.
func claimant(h Header, c *Closing) string {
	if c == nil {
		return "nobody"
	}
	return playerName(h, h.Seat(c.By))
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

// describeOutcome says the result in a verdict's words, naming the
// players (and the seats the reason speaks of) as playerName does.
func describeOutcome(h Header, o engine.Outcome) string {
	name := func(s engine.Seat) string { return playerName(h, s) }
	why := o.Why().Say(name)
	switch {
	case o.Draw:
		return "draw, " + why
	case len(o.Winners) > 0:
		names := make([]string, len(o.Winners))
		for i, w := range o.Winners {
			names[i] = name(w)
		}
		return fmt.Sprintf("%s won: %s", strings.Join(names, " and "), why)
	}
	return why
}

// Specs finds a game by name.
type Specs func(name string) (engine.Spec, bool)

// needsWitness reports whether a violation can only be a live one if the
// writer's closing record vouches for it. A message that is out of sequence,
// from another match, or not validly signed proves nothing by itself in a
// file: it may have been moved there from elsewhere.
//
// A second message signed for a place its sender already filled is the
// exception: the record holds both, and together they prove it. So is a
// member signed for its place in a parallel group that holds what no
// member there may (ErrBadMember): the places follow from the base.
func needsWitness(v *Violation) bool {
	if errors.Is(v.Err, ErrEquivocation) || errors.Is(v.Err, ErrBadMember) {
		return !v.Signed
	}
	return !v.Signed || errors.Is(v.Err, ErrSequence) || errors.Is(v.Err, ErrOtherMatch)
}

// Audit re-verifies a transcript from r: every signature and chain link,
// every input replayed through the engine, every opening, dice preimage and
// state hash, the final reveal and the result. It returns an error wrapping
// ErrNotTranscript only when r is not a readable transcript; everything
// else is a verdict in the report.
//
// It streams: it holds the match state and a bounded window of lines read
// ahead (see lineFeed), whatever the size of r, stops reading at the first
// line that decides the verdict, and leaves no goroutine behind.
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
	feed := newLineFeed(tr, h, m.keys)
	defer feed.stop()
	a := &auditor{rep: rep, m: m}
	for pl := feed.next(); pl != nil; pl = feed.next() {
		if err := a.take(pl); err != nil {
			return nil, err
		}
		if rep.Verdict == Corrupt {
			return rep, nil
		}
		// Nothing follows a closing record: whatever does is not read.
		if pl.Closing != nil {
			if no := feed.more(); no != 0 {
				return a.corrupt(no, "a message after the closing record"), nil
			}
		}
	}
	return conclude(rep, m, a.failLine), nil
}

// auditor is the replay of one transcript's lines after the header, one
// line at a time: the whole audit's checks, shared by Audit, which reads a
// file, and LiveAudit, which takes the lines of a match still being played
// as they arrive.
type auditor struct {
	rep      *Report
	m        *Match
	failLine int // the line of the violation, once there is one
	closed   bool
}

// corrupt decides the verdict: the record was altered at line.
func (a *auditor) corrupt(line int, format string, args ...any) *Report {
	a.rep.Verdict, a.rep.Line, a.rep.Detail = Corrupt, line, fmt.Sprintf(format, args...)
	return a.rep
}

// take checks one decoded line. It returns an error only for an
// unreadable line before anything was accepted (not a transcript at all);
// every other failure is the report's: a violation, or the verdict
// Corrupt, after which the auditor takes nothing more.
func (a *auditor) take(pl *parsed) error {
	rep, m, h, ln := a.rep, a.m, a.rep.Header, pl.Line
	if pl.err != nil {
		if rep.Violation != nil || len(rep.Steps) > 0 {
			a.corrupt(pl.no, "%v", pl.err)
			return nil
		}
		return pl.err
	}
	switch {
	case a.closed:
		a.corrupt(ln.No, "a message after the closing record")
	case ln.Closing != nil:
		if err := ln.Closing.Verify(); err != nil || h.Seat(ln.Closing.By) == engine.NoSeat || ln.Closing.Match != h.Match {
			a.corrupt(ln.No, "the closing record is not signed by a player of this match")
			return nil
		}
		rep.Closing, a.closed = ln.Closing, true
	case rep.Violation != nil:
		a.corrupt(ln.No, "a message after the violation at line %d: a live referee stops there", a.failLine)
	case ln.Raw != nil:
		seat := h.Seat(ln.Raw.From)
		raw, _ := base64.StdEncoding.DecodeString(ln.Raw.Raw)
		rep.Violation = &Violation{Seat: seat, Peer: ln.Raw.From, Seq: m.Seq() + 1, Err: fmt.Errorf("undecodable message of %d bytes", len(raw))}
		a.failLine = ln.No
	default:
		a.envelope(pl)
	}
	return nil
}

// envelope replays one envelope line through the match.
func (a *auditor) envelope(pl *parsed) {
	rep, m, e, no := a.rep, a.m, pl.Envelope, pl.Line.No
	step := AuditStep{Line: no, Seq: e.Seq, Seat: rep.Header.Seat(e.From)}
	revealed(rep, &step, pl.body)
	evs, err := m.accept(e, pl.body)
	step.Events, step.OK = evs, err == nil
	if err == nil {
		step.Cuts = slices.Clone(m.cuts)
		step.Message = m.prev
		if last := m.history[len(m.history)-1]; last.member {
			// A member states its base's state, not its own.
			step.Member, step.Base, step.State = true, last.baseSeq, m.StateHash()
		} else {
			step.State = stateAfter(m, pl.body) // accepting matched the body's state already
		}
		rep.Steps = append(rep.Steps, step)
		return
	}
	step.Message, step.why = e.Hash(), engine.WordsOf(err)
	step.Error = step.why.String()
	rep.Steps = append(rep.Steps, step)
	if errors.Is(err, ErrRepeated) {
		a.corrupt(no, "line %d repeats message %d", no, e.Seq)
		return
	}
	var v *Violation
	if !errors.As(err, &v) {
		v = &Violation{Seat: step.Seat, Peer: e.From, Seq: e.Seq, Err: err}
	}
	rep.Violation, a.failLine = v, no
}

// stateAfter is the state hash after an accepted envelope whose decoded
// body is body: accepting it compared the match's state hash with the
// body's, so the body says it without hashing the whole state again (a
// tenth of a two-player audit's replay).
func stateAfter(m *Match, body *Body) Digest {
	var d Digest
	if body != nil && len(body.State) == hex.EncodedLen(len(d)) {
		if _, err := hex.Decode(d[:], []byte(body.State)); err == nil {
			return d
		}
	}
	return m.StateHash()
}

// revealed lists a step's input kinds and records the values its body opens.
func revealed(rep *Report, step *AuditStep, body *Body) {
	if body == nil {
		return
	}
	step.Inputs = make([]InputKind, 0, len(body.Inputs))
	step.Moves = make([]json.RawMessage, 0, len(body.Inputs))
	for _, in := range body.Inputs {
		step.Inputs = append(step.Inputs, in.T)
		step.Moves = append(step.Moves, in.Move)
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

// signedInPlace reports whether the message a violation was found in was
// signed by its sender for its place in the match, so that only its content
// is at fault.
func signedInPlace(v *Violation) bool {
	return v.Signed && !errors.Is(v.Err, ErrSequence) && !errors.Is(v.Err, ErrOtherMatch) && !errors.Is(v.Err, ErrOutOfTurn)
}

// conclude turns what the replay found into the verdict. A closing record
// is its writer's claim: it decides the verdict only where the signed
// messages before it leave room for it, and the verdict says when it rests
// on the writer's word alone.
func conclude(rep *Report, m *Match, failLine int) *Report {
	h, c := rep.Header, rep.Closing
	if v := rep.Violation; v != nil {
		return concludeViolation(rep, m, v, failLine)
	}
	switch {
	case c != nil && c.Closing == CloseViolation:
		return corruptAfter(rep, "the violation closing record follows no failing message: a live referee writes the message it refused first")
	case m.Done() && c != nil:
		return corruptAfter(rep, fmt.Sprintf("a %s closing record follows the end of the match at message %d: a live referee stops there", c.Closing, m.Seq()))
	case m.Done():
		rep.Verdict, rep.Outcome = Clean, m.Outcome()
		return rep
	case c != nil:
		return concludeForfeit(rep, m, c)
	}
	rep.Verdict = Incomplete
	rep.Detail = endsAfter(h, m)
	for s := range h.Players {
		if m.out(engine.Seat(s)) {
			if _, owed := m.unreleased(engine.Seat(s)); !owed {
				rep.Detail += fmt.Sprintf("; %s was shot down and out of the game, owing nothing: a record of its that stops here means it left after being shot down, no forfeit", playerName(h, engine.Seat(s)))
			}
		}
	}
	return rep
}

// corruptAfter returns rep as Corrupt for detail, pointing after its last
// message.
func corruptAfter(rep *Report, detail string) *Report {
	rep.Verdict, rep.Detail = Corrupt, detail
	if n := len(rep.Steps); n > 0 {
		rep.Line = rep.Steps[n-1].Line + 1
	}
	return rep
}

// endsAfter says where a transcript that reaches no result stops.
func endsAfter(h Header, m *Match) string {
	if next, ok := m.Next(); ok {
		return fmt.Sprintf("the transcript ends after message %d, while the match waits for %s's %s", m.Seq(), playerName(h, next.Seat), next.Kind)
	}
	return fmt.Sprintf("the transcript ends after message %d before the match ended", m.Seq())
}

// concludeViolation judges a transcript that stops at a failing line.
func concludeViolation(rep *Report, m *Match, v *Violation, failLine int) *Report {
	h, c := rep.Header, rep.Closing
	rep.Line = failLine
	if m.Done() && !signedInPlace(v) {
		// Nothing signed for its place can follow the end (check refuses
		// it before any input applies), so the match had ended by its
		// rules before this line: no claim can change its result.
		rep.Verdict = Corrupt
		rep.Detail = fmt.Sprintf("line %d follows the end of the match at message %d (%v): a live referee stops there", failLine, m.Seq(), v.Err)
		return rep
	}
	witnessed := c != nil && c.Closing == CloseViolation && engine.Seat(c.Seat) == v.Seat && c.Seq == v.Seq && h.Seat(c.By) != v.Seat
	if needsWitness(v) && !witnessed {
		rep.Verdict = Corrupt
		rep.Detail = fmt.Sprintf("line %d fails (%v), and no closing record of the receiving player vouches that it arrived so", failLine, v.Err)
		return rep
	}
	rep.Verdict = Violated
	return rep
}

// plainDetail is a closing record's detail as a verdict shows it: the
// error chain a program wrote ("connection lost: session: recv: peer closed
// the match stream: …") without its one-word layer names ("session",
// "recv"), which tell a player nothing, and escaped, as it comes from the
// file. The record itself keeps every word.
func plainDetail(detail string) string {
	var keep []string
	for _, seg := range strings.Split(detail, ": ") {
		if strings.Contains(strings.TrimSpace(seg), " ") {
			keep = append(keep, strings.TrimSpace(seg))
		}
	}
	if len(keep) == 0 {
		return untrusted.Escape(detail)
	}
	return untrusted.Escape(strings.Join(keep, ", "))
}

// concludeForfeit judges a transcript that ends with a timeout, abandoned
// or left closing record: the forfeit its writer claims (or, for left,
// admits), or no result when the record does not fit the match.
func concludeForfeit(rep *Report, m *Match, c *Closing) *Report {
	h := rep.Header
	next, err := forfeitFits(h, m, c)
	blamed, writer := engine.Seat(c.Seat), h.Seat(c.By)
	switch {
	case errors.Is(err, errOwnTurn):
		rep.Verdict = Incomplete
		rep.Detail = fmt.Sprintf("%s; %s claims %s's forfeit (%s after message %d: %s), which is refused: the match waited for %s's own %s, and a player who owed the next message cannot show that another left rather than that it stalled itself",
			endsAfter(h, m), playerName(h, writer), playerName(h, blamed), c.Closing, c.Seq, plainDetail(c.Detail), playerName(h, writer), next.Kind)
		return rep
	case err != nil:
		rep.Verdict, rep.Detail = Corrupt, err.Error()
		return rep
	case c.Closing == CloseLeft:
		return concludeAdmission(rep, m, c)
	}
	// A forfeit is its writer's claim: say so, whatever else the record shows.
	const word = "not witnessed: it rests on its writer's word"
	rep.Verdict = Forfeit
	if c.Seq == m.Seq() {
		rep.Detail = fmt.Sprintf("%s forfeits: %s after message %d while the match waited for %s's %s (%s); claimed by %s, %s",
			playerName(h, blamed), c.Closing, c.Seq, playerName(h, next.Seat), next.Kind, plainDetail(c.Detail), playerName(h, writer), word)
	} else {
		rep.Detail = fmt.Sprintf("%s forfeits: %s after message %d (%s); claimed by %s, who never received %s's messages %d to %d; %s",
			playerName(h, blamed), c.Closing, c.Seq, plainDetail(c.Detail), playerName(h, writer), playerName(h, blamed), c.Seq+1, m.Seq(), word)
	}
	rep.Outcome = m.forfeitOutcome(blamed, engine.Wordsf("opponent forfeited by %s", c.Closing))
	return rep
}

// concludeAdmission judges a transcript that ends with a player's own
// signed word that it left (a left record that fits, see admissionFits):
// its forfeit, resting on nobody's word but the forfeiting player's.
func concludeAdmission(rep *Report, m *Match, c *Closing) *Report {
	h, blamed := rep.Header, engine.Seat(c.Seat)
	rep.Verdict = Forfeit
	rep.Detail = fmt.Sprintf("%s left the match after message %d (its own signed word)", playerName(h, blamed), c.Seq)
	switch {
	case c.Seq+1 == m.Seq():
		rep.Detail += fmt.Sprintf("; it never received message %d", m.Seq())
	case c.Seq < m.Seq():
		rep.Detail += fmt.Sprintf("; it never received messages %d to %d", c.Seq+1, m.Seq())
	}
	rep.Outcome = m.forfeitOutcome(blamed, engine.Wordsf("%s left the match", blamed))
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

// forfeitOutcome is the result when seat forfeits (a timeout, an abandon,
// its own leave or resignation), the same for the live referee and the
// auditor since both ask the match as it stands: the game's own rule when
// it has one ([engine.Forfeiter]: in Air's team game the other team wins,
// the forfeiter's teammate included among the losers), else every other
// seat wins. why says how the forfeit came about; the game's rule follows it.
func (m *Match) forfeitOutcome(seat engine.Seat, why engine.Words) engine.Outcome {
	f, ok := m.game.(engine.Forfeiter)
	if !ok {
		return engine.Outcome{Done: true, Winners: others(m.Seats(), seat)}.WithReason(why)
	}
	o := f.ForfeitOutcome(seat)
	if o.Reason != "" {
		why = engine.Wordsf("%s; %s", why, o.Why())
	}
	o.Done = true
	return o.WithReason(why)
}

// parsed is one transcript line decoded ahead of the replay.
type parsed struct {
	Line
	no    int
	raw   []byte // the line, until it is decoded
	size  int    // of raw
	body  *Body  // nil if the body does not decode (accept reports why)
	sig   []byte // the envelope's signature, decoded, when parse did (else nil)
	err   error  // the line itself is unreadable
	ready chan struct{}
}

// decode parses the line, its body and its signature: most of an audit's
// work, and all of it independent of the other lines.
func (p *parsed) decode(h Header, keys []crypto.PubKey) {
	p.parse()
	if e := p.Envelope; p.err == nil && e != nil {
		if s := h.Seat(e.From); s != engine.NoSeat {
			_ = e.verifyOnce(keys[s]) // a failure is the replay's to report
		}
	}
}

// parse decodes the line and its body, leaving the signature unchecked.
// A line in its one form is read at once (fastLine; its body stays in the
// line's bytes, which the parsed line owns); any other goes through
// parseLine and DecodeBody, which decide what it is.
func (p *parsed) parse() {
	if e, body, sig, ok := fastLine(p.raw); ok {
		p.Line, p.body, p.sig, p.raw = Line{No: p.no, Envelope: e}, body, sig, nil
		return
	}
	p.Line, p.err = parseLine(p.no, p.raw)
	p.raw = nil
	if e := p.Envelope; p.err == nil && e != nil {
		p.body, _ = DecodeBody(e.Body)
	}
}

// decodeBatch is decode for several lines, their signatures checked in one
// batch (sigBatch): a signature the batch does not mark the replay checks
// alone, so the verdict and the line it names are those of decode.
func decodeBatch(ps []*parsed, h Header, keys []crypto.PubKey) {
	if len(ps) == 1 {
		ps[0].decode(h, keys)
		return
	}
	var b sigBatch
	for _, p := range ps {
		p.parse()
		if e := p.Envelope; p.err == nil && e != nil {
			if s := h.Seat(e.From); s != engine.NoSeat {
				b.addDecoded(e, keys[s], p.sig)
			}
		}
	}
	b.verify()
}

// The window of an audit: at most feedLines lines read ahead, and no more
// than feedBytes bytes of them and of the line being replayed, but always
// the next line. It bounds the audit's memory by the match state plus a
// few lines, whatever the file's size, while keeping every core busy
// decoding lines of ordinary size (a few kilobytes). The byte bound is
// small because decoding a line can take 30 times its size (a body of a
// hundred thousand empty inputs): a window of many large lines would cost
// gigabytes, as reading the whole file ahead did; a large line is decoded
// alone.
//
// The window is refilled once the replay has taken half of it, so that
// the lines read at once are handed to the workers in batches of several
// lines, whose signatures are checked together (decodeBatch): batch
// verification costs a third of single verification per signature, and
// less the larger the batch (its doublings are shared, sigBatch): 13 µs a
// signature in batches of 16, 10 in batches of 64 (issue 15), so the
// window holds 128 lines, which at small sizes still stays under the
// byte bound.
const (
	feedLines = 128
	feedBytes = 256 << 10
)

// batchLines bounds the lines of one batch; 1 audits line by line, which
// the tests compare batching with.
var batchLines = feedLines

// firstBatch is the size of the batch the replay waits for at the start.
const firstBatch = 4

// lineFeed reads a transcript's lines in order and has a fixed set of
// workers decode the lines of the window ahead of the replay, which takes
// each as soon as it is ready. Its stop ends the workers: no goroutine
// outlives the audit.
type lineFeed struct {
	tr      *TranscriptReader
	queue   []*parsed // read and handed to the workers, in order
	bytes   int       // raw bytes in queue and of the line being replayed
	current int       // raw bytes of the line being replayed
	eof     bool      // no more lines to read ahead
	jobs    chan []*parsed
	nwork   int         // workers
	done    atomic.Bool // the audit needs no more decoding
	workers sync.WaitGroup
}

func newLineFeed(tr *TranscriptReader, h Header, keys []crypto.PubKey) *lineFeed {
	f := &lineFeed{tr: tr, jobs: make(chan []*parsed, feedLines), nwork: min(runtime.GOMAXPROCS(0), 8)}
	for range f.nwork {
		f.workers.Go(func() {
			for job := range f.jobs {
				if !f.done.Load() {
					decodeBatch(job, h, keys)
				}
				for _, p := range job {
					close(p.ready)
				}
			}
		})
	}
	return f
}

// next returns the next line, decoded, or nil after the last.
func (f *lineFeed) next() *parsed {
	f.bytes -= f.current
	f.current = 0
	if len(f.queue) <= feedLines/2 {
		f.fill()
	}
	if len(f.queue) == 0 {
		return nil
	}
	p := f.queue[0]
	f.queue[0] = nil
	f.queue = f.queue[1:]
	f.current = p.size
	<-p.ready
	return p
}

// fill reads lines ahead into the window and hands them to the workers,
// shared out among them in batches. It reads nothing past a line that
// starts like a closing record: nothing may follow one (see more).
func (f *lineFeed) fill() {
	waiting := len(f.queue) == 0 // the replay waits for the first line
	var fresh []*parsed
	for !f.eof && len(f.queue) < feedLines && (f.bytes < feedBytes || len(f.queue) == 0) {
		no, b, err := f.tr.nextRaw()
		if err == io.EOF {
			f.eof = true
			break
		}
		p := &parsed{no: no, raw: b, size: len(b), err: err, ready: make(chan struct{})}
		f.queue = append(f.queue, p)
		if err != nil {
			f.eof = true
			close(p.ready)
			break
		}
		f.bytes += len(b)
		f.eof = bytes.HasPrefix(b, closingPrefix)
		fresh = append(fresh, p)
	}
	if waiting && len(fresh) > firstBatch && f.nwork > 1 {
		// With cores to spare, a short first batch lets the replay start
		// while the rest of the window is decoded.
		f.jobs <- fresh[:firstBatch]
		fresh = fresh[firstBatch:]
	}
	size := min(batchLines, max(1, (len(fresh)+f.nwork-1)/f.nwork))
	for job := range slices.Chunk(fresh, size) {
		f.jobs <- job
	}
}

// more returns the number of the next line if there is one, without
// reading it, or 0 at the end of the file.
func (f *lineFeed) more() int {
	if len(f.queue) > 0 {
		return f.queue[0].no
	}
	no, _, err := f.tr.nextRaw()
	if err == io.EOF {
		return 0
	}
	return no
}

// stop ends the workers, skipping what is left of the window, and waits
// for them.
func (f *lineFeed) stop() {
	f.done.Store(true)
	close(f.jobs)
	f.workers.Wait()
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
