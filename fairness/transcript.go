package fairness

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Closing is the last line of a transcript whose match did not end by the
// rules: the writer's signed account of why it stopped. Reason is one of the
// Close* constants; Seat is the seat it blames; Seq the last message
// accepted (or the offending one, for a violation).
type Closing struct {
	Closing CloseReason `json:"closing"`
	Match   string      `json:"match"`
	Seat    int         `json:"seat"`
	Seq     uint64      `json:"seq"`
	Detail  string      `json:"detail"`
	By      string      `json:"by"`
	Sig     string      `json:"sig"`
}

// CloseReason says why a match stopped before its rules ended it (the
// "closing" of a closing record); the Close constants are every reason.
type CloseReason string

// Closing reasons.
const (
	CloseViolation CloseReason = "violation" // a message broke the rules; it is the line before
	CloseTimeout   CloseReason = "timeout"   // the seat stopped answering and forfeits
	CloseAbandoned CloseReason = "abandoned" // the seat's connection closed mid-match
	// CloseLeft is a player's own signed word that it left the match on
	// purpose after message Seq, the last it held: its forfeit, written by
	// the seat it blames (By is that seat's peer). An admission needs no
	// witness and fits at any turn, since it can hurt nobody but its
	// writer; the leaver keeps it in its own transcript and hands it to
	// the others, who record it in theirs, so every record ends alike.
	CloseLeft CloseReason = "left"
)

// isForfeit reports whether a closing reason forfeits its blamed seat.
func isForfeit(reason CloseReason) bool {
	return reason == CloseTimeout || reason == CloseAbandoned || reason == CloseLeft
}

func (c *Closing) signedDigest() Digest {
	return newHasher("salvo/closing/1").str(string(c.Closing)).str(c.Match).int(c.Seat).uint(c.Seq).str(c.Detail).str(c.By).sum()
}

// MaxDetail bounds the detail of a closing record Sign signs; a peer that
// hands over a closing record with a longer one is refused (a Salvo peer
// never writes one). The detail is often an error's text, and an error
// may quote what a peer sent (encoding/json quotes an unknown field's
// name, reading each byte of invalid UTF-8 as a three-byte U+FFFD):
// unbounded, one junk frame of a megabyte made the receiver's violation
// record a line over the transcript's line bound, and the receiver's own
// evidence no longer audited.
const MaxDetail = 1 << 10

// boundDetail returns detail as Sign signs it: valid UTF-8 (the
// transcript's JSON would write invalid bytes as U+FFFD, and the record
// would no longer verify), cut to MaxDetail bytes at a character boundary,
// with an ellipsis where it was cut.
func boundDetail(detail string) string {
	detail = strings.ToValidUTF8(detail, "\uFFFD")
	if len(detail) <= MaxDetail {
		return detail
	}
	const more = "…"
	cut := MaxDetail - len(more)
	for cut > 0 && !utf8.RuneStart(detail[cut]) {
		cut--
	}
	return detail[:cut] + more
}

// Sign fills in By and Sig, after bounding Detail (boundDetail).
func (c *Closing) Sign(key crypto.PrivKey) error {
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return fmt.Errorf("sign closing: %w", err)
	}
	c.Detail = boundDetail(c.Detail)
	c.By = id.String()
	d := c.signedDigest()
	sig, err := key.Sign(d[:])
	if err != nil {
		return fmt.Errorf("sign closing: %w", err)
	}
	c.Sig = base64.StdEncoding.EncodeToString(sig)
	return nil
}

// Verify checks the closing's signature against its writer's peer ID.
func (c *Closing) Verify() error {
	id, err := peer.Decode(c.By)
	if err != nil {
		return fmt.Errorf("closing: writer %q: %w", c.By, err)
	}
	pub, err := id.ExtractPublicKey()
	if err != nil {
		return fmt.Errorf("closing: writer key: %w", err)
	}
	sig, err := canonicalBase64(c.Sig)
	if err != nil {
		return fmt.Errorf("%w: closing signature: %v", ErrSignature, err)
	}
	d := c.signedDigest()
	if ok, err := verifySignature(pub, d[:], sig); err != nil || !ok {
		return fmt.Errorf("%w: closing record does not verify against its writer", ErrSignature)
	}
	return nil
}

// Raw is a transcript line keeping a message that could not even be decoded,
// as evidence.
type Raw struct {
	Raw  string `json:"raw"` // base64 of the bytes received
	From string `json:"from"`
}

// TranscriptWriter appends a match to a JSON Lines file as it goes: the
// header, then every accepted envelope, each synced to disk before the match
// moves on, so a crash loses nothing that was accepted.
type TranscriptWriter struct {
	f    *os.File
	path string
	n    int64
}

// CreateTranscript creates the file at path (its directory too) and writes
// the header.
func CreateTranscript(path string, h Header) (*TranscriptWriter, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	if err := notAnotherMatch(path, h.Match); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	w := &TranscriptWriter{f: f, path: path}
	if err := w.writeJSON(h); err != nil {
		f.Close()
		return nil, err
	}
	return w, nil
}

// notAnotherMatch refuses to start a transcript over a file that holds
// another match's record. A file name keeps only a few digits of the
// match ID (session.TranscriptName), and a host that picks its nonce after
// seeing the joiner's could search for a new match whose name equals a
// past one's; truncating that file would erase the evidence of the past
// match. A file of the same match (a start again) or one that holds no
// readable header is replaced as before.
func notAnotherMatch(path, match string) error {
	f, err := os.Open(path)
	if err != nil {
		return nil // nothing there (or nothing we may read): nothing to keep
	}
	defer f.Close()
	line, _, _ := bufio.NewReaderSize(io.LimitReader(f, int64(maxLine)), 64<<10).ReadLine()
	var old struct {
		Match string `json:"match"`
	}
	if json.Unmarshal(line, &old) != nil || old.Match == "" || old.Match == match {
		return nil
	}
	return fmt.Errorf("transcript: %s already holds the record of match %.16s…; refusing to write match %.16s… over it", path, old.Match, match)
}

// Path returns the file's path.
func (w *TranscriptWriter) Path() string {
	if w == nil {
		return ""
	}
	return w.path
}

// Bytes returns how many bytes have been written.
func (w *TranscriptWriter) Bytes() int64 {
	if w == nil {
		return 0
	}
	return w.n
}

// Envelope appends one envelope.
func (w *TranscriptWriter) Envelope(e *Envelope) error { return w.writeJSON(e) }

// Raw appends undecodable bytes received from a peer, as evidence.
func (w *TranscriptWriter) Raw(b []byte, from string) error {
	return w.writeJSON(Raw{Raw: base64.StdEncoding.EncodeToString(b), From: from})
}

// WriteClosing appends a signed closing record.
func (w *TranscriptWriter) WriteClosing(c *Closing) error { return w.writeJSON(c) }

// Close closes the file.
func (w *TranscriptWriter) Close() error {
	if w == nil {
		return nil
	}
	if err := w.f.Close(); err != nil {
		return fmt.Errorf("transcript: %w", err)
	}
	return nil
}

// writeJSON appends one line and syncs it. A nil writer discards (a referee
// run without a transcript, in tests).
func (w *TranscriptWriter) writeJSON(v any) error {
	if w == nil {
		return nil
	}
	b, err := marshalCompact(v)
	if err != nil {
		return fmt.Errorf("transcript: encode: %w", err)
	}
	b = append(b, '\n')
	if _, err := w.f.Write(b); err != nil {
		return fmt.Errorf("transcript: write: %w", err)
	}
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("transcript: sync: %w", err)
	}
	w.n += int64(len(b))
	return nil
}

// Line is one parsed transcript line after the header: exactly one field is
// set.
type Line struct {
	No       int // 1-based line number in the file
	Envelope *Envelope
	Closing  *Closing
	Raw      *Raw
}

// ErrNotTranscript is wrapped when a file is not a readable transcript.
var ErrNotTranscript = errors.New("not a Salvo transcript")

// maxLine bounds a transcript line: the largest is a raw record keeping an
// undecodable message of up to MaxEnvelope bytes, in base64, with its
// sender's peer ID.
var maxLine = len(`{"raw":"","from":""}`) + base64.StdEncoding.EncodedLen(MaxEnvelope) + 1024

// TranscriptReader reads a transcript line by line, holding at most one
// line (of at most maxLine bytes) at a time.
type TranscriptReader struct {
	sc *bufio.Scanner
	no int
}

// ReadTranscript reads the header of a transcript and returns a reader for
// its remaining lines. The header, like every line, is accepted only in the
// one form Salvo writes.
func ReadTranscript(r io.Reader) (Header, *TranscriptReader, error) {
	sc := bufio.NewScanner(r)
	// The buffer starts at a few ordinary lines and grows for a longer
	// one: a short match's audit zeroed 64 KiB it never filled.
	sc.Buffer(make([]byte, 16<<10), maxLine)
	tr := &TranscriptReader{sc: sc}
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return Header{}, nil, tr.scanError(1, err)
		}
		return Header{}, nil, fmt.Errorf("%w: the file is empty", ErrNotTranscript)
	}
	tr.no = 1
	var h Header
	if err := decodeCanonical(sc.Bytes(), &h); err != nil {
		return Header{}, nil, fmt.Errorf("%w: line 1 is not a header: %v", ErrNotTranscript, err)
	}
	if !knownFormat(h.Format) {
		return Header{}, nil, fmt.Errorf("%w: line 1 names format %q, want %q (or %q)", ErrNotTranscript, h.Format, TranscriptFormat, oneStepFormat)
	}
	return h, tr, nil
}

// Next returns the next line, or io.EOF at the end.
func (tr *TranscriptReader) Next() (Line, error) {
	no, b, err := tr.nextRaw()
	if err != nil {
		return Line{}, err
	}
	return parseLine(no, b)
}

// nextRaw returns the next non-empty line, unparsed (a copy).
func (tr *TranscriptReader) nextRaw() (int, []byte, error) {
	for tr.sc.Scan() {
		tr.no++
		b := bytes.TrimSpace(tr.sc.Bytes())
		if len(b) > 0 {
			return tr.no, append([]byte(nil), b...), nil
		}
	}
	if err := tr.sc.Err(); err != nil {
		return tr.no + 1, nil, tr.scanError(tr.no+1, err)
	}
	return 0, nil, io.EOF
}

// scanError names the line a read failed at.
func (tr *TranscriptReader) scanError(no int, err error) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return fmt.Errorf("%w: line %d is longer than %d bytes", ErrNotTranscript, no, maxLine)
	}
	return fmt.Errorf("%w: line %d: %v", ErrNotTranscript, no, err)
}

// The first bytes of each kind of line in its one form.
var (
	envelopePrefix = []byte(`{"match":`)
	closingPrefix  = []byte(`{"closing":`)
	rawPrefix      = []byte(`{"raw":`)
)

// parseLine parses one transcript line after the header. A line is read
// only in its one form, whose first field tells its kind.
func parseLine(no int, b []byte) (Line, error) {
	ln := Line{No: no}
	var err error
	switch lineKind(b) {
	case "closing":
		ln.Closing, err = decodeClosing(b)
	case "raw":
		ln.Raw, err = decodeRaw(b)
	default:
		ln.Envelope, err = DecodeEnvelope(b)
	}
	if err != nil {
		return Line{}, fmt.Errorf("%w: line %d: %v", ErrNotTranscript, no, err)
	}
	return ln, nil
}

// lineKind tells a line's kind by its first field or, for a line not in its
// one form, by the field names it has, so that its decoder can say what is
// wrong with it.
func lineKind(b []byte) string {
	switch {
	case bytes.HasPrefix(b, envelopePrefix):
		return "envelope"
	case bytes.HasPrefix(b, closingPrefix):
		return "closing"
	case bytes.HasPrefix(b, rawPrefix):
		return "raw"
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(b, &fields) == nil {
		for k := range fields {
			if k := strings.ToLower(k); k == "closing" || k == "raw" {
				return k
			}
		}
	}
	return "envelope"
}

// decodeClosing parses a closing record in its one form, the signature in
// canonical base64.
func decodeClosing(b []byte) (*Closing, error) {
	var c Closing
	if err := decodeCanonical(b, &c); err != nil {
		return nil, fmt.Errorf("closing record: %w", err)
	}
	if _, err := canonicalBase64(c.Sig); err != nil {
		return nil, fmt.Errorf("closing record: field \"sig\": %w", err)
	}
	return &c, nil
}

// decodeRaw parses a raw record in its one form: the bytes kept in
// canonical base64, no more than a message can hold.
func decodeRaw(b []byte) (*Raw, error) {
	var r Raw
	if err := decodeCanonical(b, &r); err != nil {
		return nil, fmt.Errorf("raw record: %w", err)
	}
	raw, err := canonicalBase64(r.Raw)
	if err != nil {
		return nil, fmt.Errorf("raw record: field \"raw\": %w", err)
	}
	if len(raw) > MaxEnvelope {
		return nil, fmt.Errorf("raw record: %d bytes exceed the %d-byte limit of a message", len(raw), MaxEnvelope)
	}
	return &r, nil
}

// MaxLine is the longest transcript line a reader takes (newline
// excluded): what a peer that passes records on (a spectator's watch
// stream) bounds each line's frame by.
func MaxLine() int { return maxLine }
