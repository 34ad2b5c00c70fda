package fairness

// Tests that pin each check of the fairness layer by itself: each fails if
// its check is removed or loosened. The mutation tester (.ci/mutate,
// issue 12 finding 10) plants exactly those bugs; every test here names the
// check it pins. The file sorts before the slower match tests, so a planted
// bug fails fast (go test -failfast runs files in name order).

import (
	"bytes"
	cryptorand "crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness/fairnesstest"
)

// honestPeek is one honest peek match as seat 1 can attack it: its
// transcript and seat 1's key.
type honestPeek struct {
	h     Header
	key1  crypto.PrivKey
	lines []string    // the transcript, header first
	envs  []*Envelope // its envelopes, in order
}

func playHonestPeek(t *testing.T, seed uint64) *honestPeek {
	t.Helper()
	kk := &keyKeeper{}
	out := playPeek(t, seed, kk, nil, 0)
	if kk.key == nil || out[0].err != nil || out[1].err != nil {
		t.Fatalf("the honest match failed: %v, %v", out[0].err, out[1].err)
	}
	p := &honestPeek{key1: kk.key, lines: readLinesOf(t, out[0].path)}
	if err := json.Unmarshal([]byte(p.lines[0]), &p.h); err != nil {
		t.Fatal(err)
	}
	for i, ln := range p.lines[1:] {
		e, err := DecodeEnvelope([]byte(ln))
		if err != nil {
			t.Fatalf("line %d: %v", i+2, err)
		}
		p.envs = append(p.envs, e)
	}
	return p
}

// replay returns a match that accepted the first n envelopes.
func (p *honestPeek) replay(t *testing.T, n int) *Match {
	t.Helper()
	m, err := NewMatch(peekSpec, p.h)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range p.envs[:n] {
		c := *e
		if _, err := m.Accept(&c); err != nil {
			t.Fatalf("message %d: %v", e.Seq, err)
		}
	}
	return m
}

// seat1Turns lists the indexes of the envelopes seat 1 sent.
func (p *honestPeek) seat1Turns() []int {
	var out []int
	for k, e := range p.envs {
		if e.From == p.h.Players[1].Peer {
			out = append(out, k)
		}
	}
	return out
}

// resigned returns a copy of envelope k, changed by edit and signed again
// by seat 1: the signature holds, so only the change can be refused.
func (p *honestPeek) resigned(t *testing.T, k int, edit func(*Envelope)) *Envelope {
	t.Helper()
	c := *p.envs[k]
	c.verified = false
	edit(&c)
	if err := c.Sign(p.key1); err != nil {
		t.Fatal(err)
	}
	return &c
}

// refused checks that m refuses e as a signed violation by seat 1 wrapping
// want, and stops.
func refused(t *testing.T, m *Match, e *Envelope, want error) *Violation {
	t.Helper()
	_, err := m.Accept(e)
	var v *Violation
	if !errors.As(err, &v) || !errors.Is(err, want) || v.Seat != 1 || !v.Signed {
		t.Fatalf("message %d accepted as %v, want a signed violation by seat 1 wrapping %v", e.Seq, err, want)
	}
	if m.Broken() != v {
		t.Fatalf("the match did not stop on %v", v)
	}
	return v
}

// Every message's prev names the message before it, so that a signature
// covers the whole history: a message signed after another history, at
// any point of the match, is refused.
func TestAcceptRefusesBrokenChain(t *testing.T) {
	p := playHonestPeek(t, 11)
	elsewhere := hexDigest(newHasher("another history").sum())
	for _, k := range p.seat1Turns() {
		m := p.replay(t, k)
		refused(t, m, p.resigned(t, k, func(e *Envelope) { e.Prev = elsewhere }), ErrSequence)
		if k > 0 {
			m = p.replay(t, k)
			e := p.resigned(t, k, func(e *Envelope) { e.Prev = p.envs[k-1].Prev })
			want := ErrSequence
			if base, ok := m.MemberBase(e.Seq); ok && hexDigest(base) == e.Prev && countInputs(e) == 1 {
				// A member's place of a run: the base is a Prev it may
				// name, and the chained state it states is refused.
				want = ErrStateHash
			}
			refused(t, m, e, want)
		}
	}
}

// Messages are numbered 1, 2, 3…: one numbered other than the next is
// refused, wherever it comes, even with the right prev.
func TestAcceptRefusesOutOfSequence(t *testing.T) {
	p := playHonestPeek(t, 12)
	for _, k := range p.seat1Turns() {
		for _, seq := range []uint64{0, uint64(k) + 2, uint64(k) + 10, 1 << 40} {
			m := p.replay(t, k)
			refused(t, m, p.resigned(t, k, func(e *Envelope) { e.Seq = seq }), ErrSequence)
		}
	}
}

// A match stopped by a violation stays stopped on that violation: the
// honest message that would have come next is refused with it, and
// nothing can be staged.
func TestBrokenMatchAcceptsNothingMore(t *testing.T) {
	p := playHonestPeek(t, 13)
	k := p.seat1Turns()[1]
	m := p.replay(t, k)
	v := refused(t, m, p.resigned(t, k, func(e *Envelope) { e.Prev = p.envs[k-1].Prev }), ErrSequence)
	c := *p.envs[k]
	if _, err := m.Accept(&c); err != v {
		t.Fatalf("the honest message after the violation: %v, want the violation %v", err, v)
	}
	if m.Broken() != v || m.Seq() != uint64(k) {
		t.Fatalf("the match moved on: broken %v, %d messages", m.Broken(), m.Seq())
	}
	body, err := DecodeBody(p.envs[k].Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, seat := range []engine.Seat{0, 1} {
		if _, err := m.Stage(seat, body.Inputs[0]); err != v {
			t.Fatalf("seat %d staged on a broken match: %v, want the violation %v", seat, err, v)
		}
	}
}

// A finished match takes no further message: one that continues the chain
// after the end, validly signed, is out of sequence, and a record holding
// it is not a faithful transcript.
func TestFinishedMatchAcceptsNoMessage(t *testing.T) {
	p := playHonestPeek(t, 14)
	m := p.replay(t, len(p.envs))
	if !m.Done() {
		t.Fatal("the honest match did not end")
	}
	for _, in := range []WireInput{{T: InResign}, {T: InHello, Tip: hexDigest(Digest{}), Links: 1}} {
		m := p.replay(t, len(p.envs))
		after, err := m.Draft([]WireInput{in}, m.StateHash(), p.key1)
		if err != nil {
			t.Fatal(err)
		}
		refused(t, m, after, ErrSequence)
		path := filepath.Join(t.TempDir(), "after.jsonl")
		writeLinesTo(t, path, append(p.lines[:len(p.lines):len(p.lines)], string(mustJSON(t, after))))
		if rep := auditFile(t, path); rep.Verdict != Corrupt {
			t.Fatalf("a %s after the end audits as %s", in.T, rep.Summary())
		}
	}
}

// bigEnvelope returns an envelope signed by seat 1 whose encoding is
// exactly size bytes.
func (p *honestPeek) bigEnvelope(t *testing.T, size int) []byte {
	t.Helper()
	enc := func(pad int) []byte {
		body := fmt.Sprintf(`{"inputs":[{"t":"move","move":"%s"}],"state":"%s"}`, strings.Repeat("a", pad), hexDigest(Digest{}))
		e := p.resigned(t, 0, func(e *Envelope) { e.Body = json.RawMessage(body) })
		b, err := EncodeEnvelope(e)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	b := enc(size - len(enc(0)))
	if len(b) != size {
		t.Fatalf("built %d bytes, want %d", len(b), size)
	}
	return b
}

// No envelope over MaxEnvelope bytes is decoded, however well formed;
// one of exactly MaxEnvelope bytes is.
func TestDecodeEnvelopeRefusesOversize(t *testing.T) {
	p := playHonestPeek(t, 15)
	if _, err := DecodeEnvelope(p.bigEnvelope(t, MaxEnvelope)); err != nil {
		t.Fatalf("an envelope of exactly MaxEnvelope bytes: %v", err)
	}
	for _, size := range []int{MaxEnvelope + 1, MaxEnvelope + 4096} {
		if _, err := DecodeEnvelope(p.bigEnvelope(t, size)); err == nil {
			t.Fatalf("an envelope of %d bytes decoded", size)
		}
	}
}

// A transcript line holding an envelope without a body is not a readable
// line, signed or not.
func TestTranscriptRefusesEnvelopeWithoutBody(t *testing.T) {
	p := playHonestPeek(t, 16)
	e := p.resigned(t, 0, func(e *Envelope) { e.Body = nil })
	line := strings.Replace(envelopeLine(e), `"body":,`, "", 1)
	if strings.Contains(line, "body") {
		t.Fatalf("the line still has a body: %s", line)
	}
	_, tr, err := ReadTranscript(strings.NewReader(p.lines[0] + "\n" + line + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if ln, err := tr.Next(); err == nil {
		t.Fatalf("a bodiless envelope was read: %+v", ln.Envelope)
	}
	if _, err := DecodeEnvelope([]byte(line)); err == nil {
		t.Fatal("a bodiless envelope decoded")
	}
}

// envelopeLine writes e with its body as it is (EncodeEnvelope would
// compact it).
func envelopeLine(e *Envelope) string {
	return fmt.Sprintf(`{"match":%q,"seq":%d,"from":%q,"prev":%q,"body":%s,"sig":%q}`, e.Match, e.Seq, e.From, e.Prev, e.Body, e.Sig)
}

// What arrives from the network carries its body in the one compact form
// it is stored in: the same body with white space is refused, even
// validly signed.
func TestDecodeEnvelopeRefusesNonCompactBody(t *testing.T) {
	p := playHonestPeek(t, 17)
	for _, k := range p.seat1Turns() {
		var spaced bytes.Buffer
		if err := json.Indent(&spaced, p.envs[k].Body, "", " "); err != nil {
			t.Fatal(err)
		}
		oneSpace := bytes.Replace(p.envs[k].Body, []byte(`":`), []byte(`": `), 1)
		for _, body := range [][]byte{spaced.Bytes(), oneSpace} {
			line := envelopeLine(p.resigned(t, k, func(e *Envelope) { e.Body = body }))
			if _, err := DecodeEnvelope([]byte(line)); err == nil {
				t.Fatalf("message %d with body %.40q… decoded", k+1, body)
			}
		}
		b, err := EncodeEnvelope(p.envs[k])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeEnvelope(b); err != nil {
			t.Fatalf("the compact message %d: %v", k+1, err)
		}
	}
}

// A dice chain hangs from its secret seed: chains of one match and seat
// from different seeds share no link, the last link is the seed, and
// NewChain draws a fresh seed each time, so no one can compute another
// seat's links from public values.
func TestDiceChainDependsOnItsSecretSeed(t *testing.T) {
	match := newHasher("m").sum()
	a := newChainFromSeed(match, 0, newHasher("seed a").sum(), 16)
	b := newChainFromSeed(match, 0, newHasher("seed b").sum(), 16)
	for k := 0; k <= 16; k++ {
		if a.links[k] == b.links[k] {
			t.Fatalf("link %d is the same from two seeds", k)
		}
	}
	if l, _ := a.Link(a.Len()); l != newHasher("seed a").sum() {
		t.Fatal("the last link is not the seed")
	}
	public := []Digest{match, {}, newChainFromSeed(match, 0, match, ChainLinks).Tip(), newChainFromSeed(match, 0, Digest{}, ChainLinks).Tip()}
	tips := map[Digest]bool{}
	for range 3 {
		c, err := NewChain(match, 0)
		if err != nil {
			t.Fatal(err)
		}
		if tips[c.Tip()] {
			t.Fatal("NewChain gave the same chain twice")
		}
		tips[c.Tip()] = true
		for _, d := range public {
			if c.Tip() == d || c.seed == d {
				t.Fatalf("NewChain's chain derives from a public value %s", d.Short())
			}
		}
	}
}

// An opening's index must lie inside its vector: outside it, a leaf and
// its path must not verify, whatever the shape of the tree (at one leaf,
// every index would climb to the same root).
func TestVerifyPathRefusesIndexOutsideVector(t *testing.T) {
	for n := 1; n <= 33; n++ {
		leaves := make([]Digest, n)
		for i := range leaves {
			leaves[i] = newHasher("leaf").int(n).int(i).sum()
		}
		root := MerkleRoot(leaves)
		for _, c := range []struct{ leaf, at int }{{n - 1, n}, {n - 1, n + 1}, {n - 1, 2*n - 1}, {n - 1, 2 * n}, {0, -1}, {0, -n}} {
			err := VerifyPath(root, n, c.at, leaves[c.leaf], MerklePath(leaves, c.leaf))
			if !errors.Is(err, ErrCommitment) {
				t.Fatalf("n=%d: leaf %d verified at index %d: %v", n, c.leaf, c.at, err)
			}
		}
	}
}

// forfeitRecord writes the first n messages of the match with a closing
// record by seat 1 blaming seat 0's timeout after message n, changed by
// edit after signing if edit is not nil.
func (p *honestPeek) forfeitRecord(t *testing.T, n int, edit func(*Closing)) string {
	t.Helper()
	c := &Closing{Closing: CloseTimeout, Match: p.h.Match, Seat: 0, Seq: uint64(n), Detail: "no message"}
	if err := c.Sign(p.key1); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(c)
	}
	path := filepath.Join(t.TempDir(), fmt.Sprintf("cut%d.jsonl", n))
	writeLinesTo(t, path, append(p.lines[:1+n:1+n], string(mustJSON(t, c))))
	return path
}

// seat0Waits lists the message counts after which the match waits for
// seat 0.
func (p *honestPeek) seat0Waits(t *testing.T) []int {
	var out []int
	for n := range p.envs {
		if st, ok := p.replay(t, n).Next(); ok && st.Seat == 0 && n > 0 {
			out = append(out, n)
		}
	}
	return out
}

// The audit takes a closing record only with its writer's valid
// signature: one changed after signing makes the record corrupt, never a
// forfeit.
func TestAuditRefusesClosingWithBadSignature(t *testing.T) {
	p := playHonestPeek(t, 18)
	n := p.seat0Waits(t)[0]
	if rep := auditFile(t, p.forfeitRecord(t, n, nil)); rep.Verdict != Forfeit {
		t.Fatalf("the signed forfeit record: %s", rep.Summary())
	}
	edits := map[string]func(*Closing){
		"detail":    func(c *Closing) { c.Detail = "it left" },
		"kind":      func(c *Closing) { c.Closing = CloseAbandoned },
		"signature": func(c *Closing) { c.Sig = c.Sig[:10] + strings.Repeat("A", len(c.Sig)-12) + c.Sig[len(c.Sig)-2:] },
	}
	for name, edit := range edits {
		if rep := auditFile(t, p.forfeitRecord(t, n, edit)); rep.Verdict != Corrupt {
			t.Fatalf("a closing record with its %s changed after signing: %s", name, rep.Summary())
		}
	}
}

// Two records that each end in a forfeit agree only if they tell the same
// forfeit: a record claiming seat 0 timed out after message n and another
// holding seat 0's messages after n, then claiming its timeout later, are
// no agreed forfeit.
func TestJointAuditComparesTwoForfeits(t *testing.T) {
	p := playHonestPeek(t, 19)
	waits := p.seat0Waits(t)
	if len(waits) < 2 {
		t.Fatalf("the match waits for seat 0 at %v", waits)
	}
	early, late := p.forfeitRecord(t, waits[0], nil), p.forfeitRecord(t, waits[1], nil)
	for _, path := range []string{early, late} {
		if rep := auditFile(t, path); rep.Verdict != Forfeit || rep.Outcome.Winners[0] != 1 {
			t.Fatalf("a forfeit record alone: %s", rep.Summary())
		}
	}
	j, err := jointAudit(t, early, late)
	if err != nil {
		t.Fatal(err)
	}
	if j.Verdict == Forfeit {
		t.Fatalf("forfeits after message %d and after message %d audited as one: %s", waits[0], waits[1], j.Summary())
	}
	t.Log(j.Summary())
}

// A message must carry at least one input: an empty one, even at the
// sender's turn and validly signed, would move the chain on without moving
// the match, and restart the other side's wait for as long as the sender
// likes.
func TestAcceptRefusesMessageWithoutInputs(t *testing.T) {
	p := playHonestPeek(t, 20)
	for _, k := range p.seat1Turns() {
		m := p.replay(t, k)
		body := fmt.Sprintf(`{"inputs":[],"state":"%s"}`, hexDigest(m.StateHash()))
		if _, err := m.Accept(p.resigned(t, k, func(e *Envelope) { e.Body = json.RawMessage(body) })); err == nil || m.Seq() != uint64(k) {
			t.Fatalf("message %d without inputs: %v, the match at message %d", k+1, err, m.Seq())
		}
	}
}

// A line that repeats a message is a copy (a resend the referee never
// records), never the sender's violation, even when a closing record of
// the other player says so.
func TestAuditNeverBlamesARepeatedMessage(t *testing.T) {
	p := playHonestPeek(t, 21)
	for k, e := range p.envs {
		if e.From != p.h.Players[0].Peer {
			continue
		}
		c := &Closing{Closing: CloseViolation, Match: p.h.Match, Seat: 0, Seq: e.Seq, Detail: "sent twice"}
		if err := c.Sign(p.key1); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "repeat.jsonl")
		writeLinesTo(t, path, append(p.lines[:2+k:2+k], p.lines[1+k], string(mustJSON(t, c))))
		if rep := auditFile(t, path); rep.Verdict != Corrupt {
			t.Fatalf("message %d repeated, with a closing that blames its sender: %s", e.Seq, rep.Summary())
		}
		// Beside the whole record, the copy is no second version either.
		whole := filepath.Join(t.TempDir(), "whole.jsonl")
		writeLinesTo(t, whole, p.lines)
		if j, err := jointAudit(t, whole, path); err != nil || j.Verdict == Violated {
			t.Fatalf("message %d repeated, audited with the whole record: %v %v", e.Seq, j.Summary(), err)
		}
	}
}

// A timeout is claimed only against the seat the match waited for: one
// written while the match waited for the writer itself is no forfeit.
func TestAuditRefusesTimeoutOfASeatNotAwaited(t *testing.T) {
	p := playHonestPeek(t, 22)
	tried := 0
	for n := 1; n < len(p.envs); n++ {
		if st, ok := p.replay(t, n).Next(); !ok || st.Seat != 1 {
			continue
		}
		tried++
		if rep := auditFile(t, p.forfeitRecord(t, n, nil)); rep.Verdict == Forfeit {
			t.Fatalf("seat 1 claims seat 0 timed out after message %d, while the match waited for seat 1: %s", n, rep.Summary())
		}
	}
	if tried == 0 {
		t.Fatal("the match never waited for seat 1")
	}
}

// JSON is read strictly: one value and nothing after it.
func TestDecodeEnvelopeRefusesTrailingData(t *testing.T) {
	p := playHonestPeek(t, 23)
	line := []byte(p.lines[1])
	for _, tail := range []string{"{}", ` {"match":""}`, "x", "]"} {
		if _, err := DecodeEnvelope(append(line[:len(line):len(line)], tail...)); err == nil {
			t.Fatalf("an envelope followed by %q decoded", tail)
		}
		if _, err := DecodeBody(append(p.envs[0].Body[:len(p.envs[0].Body):len(p.envs[0].Body)], tail...)); err == nil {
			t.Fatalf("a body followed by %q decoded", tail)
		}
	}
}

// Salvo signs and stores JSON in one form: compact, and with <, > and &
// as they are (the form every transcript so far was written in).
func TestCompactJSONKeepsHTMLCharacters(t *testing.T) {
	b, err := EncodeBody(&Body{Inputs: []WireInput{{T: InCommit, Name: "<a&b>"}}, State: "s"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"inputs":[{"t":"commit","name":"<a&b>"}],"state":"s"}`; string(b) != want {
		t.Fatalf("encoded %s, want %s", b, want)
	}
	if _, err := EncodeEnvelope(&Envelope{Body: json.RawMessage(`{"inputs":`)}); err == nil {
		t.Fatal("an envelope whose body is not JSON encoded")
	}
}

// A digest is exactly 64 hex digits; anything else of that length is
// refused, not read as far as it goes.
func TestDecodeDigestRefusesNonHex(t *testing.T) {
	good := hexDigest(newHasher("d").sum())
	if d, err := decodeDigest(good); err != nil || hexDigest(d) != good {
		t.Fatalf("decodeDigest(%s) = %s, %v", good, hexDigest(d), err)
	}
	for _, s := range []string{strings.Repeat("zz", 32), good[:62] + "zz", "zz" + good[2:], good[:63], good + "0"} {
		if _, err := decodeDigest(s); err == nil {
			t.Fatalf("decodeDigest(%q) succeeded", s)
		}
	}
}

// A header's nonces are 32 hex digits each: the match ID's freshness
// rests on them.
func TestHeaderRefusesBadNonce(t *testing.T) {
	keys := testKeys(t, 2)
	h := testHeader(t, peekSpec, keys)
	for _, nonce := range []string{"", "xyz", strings.Repeat("0", 30), strings.Repeat("g", 32)} {
		players := append([]Player(nil), h.Players...)
		players[1].Nonce = nonce
		if _, err := NewHeader(peekSpec, "", players); err == nil {
			t.Fatalf("a header with nonce %q", nonce)
		}
		// Nor does a match start from one, whatever match ID it states.
		bad := h
		bad.Players = players
		for _, id := range []string{h.Match, hexDigest(Digest{})} {
			bad.Match = id
			if _, err := NewMatch(peekSpec, bad); err == nil {
				t.Fatalf("a match from a header with nonce %q and match ID %.8s…", nonce, id)
			}
		}
	}
}

// A match's players are known by keys their peer IDs carry: a peer ID
// that only hashes its key (as for ECDSA and RSA keys) gives the auditor
// nothing to check signatures with, and is refused.
func TestMatchRefusesPeerIDWithoutKey(t *testing.T) {
	_, pub, err := crypto.GenerateECDSAKeyPair(cryptorand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	h := testHeader(t, peekSpec, testKeys(t, 2))
	h.Players[1].Peer = id.String()
	h, err = NewHeader(peekSpec, "", h.Players)
	if err != nil {
		t.Fatalf("header: %v", err)
	}
	if _, err := NewMatch(peekSpec, h); err == nil {
		t.Fatal("a match with a player whose peer ID carries no key")
	}
}

// The error a transport reports for the other side's end reads well with
// or without the closing record it handed over.
func TestEndedThereError(t *testing.T) {
	if got := (&EndedThere{}).Error(); got != "the other side ended the match" {
		t.Fatalf("without a record: %q", got)
	}
	c := &Closing{Closing: CloseTimeout, Seat: 1, Seq: 7, Detail: "gone"}
	if got := (&EndedThere{Closing: c}).Error(); !strings.Contains(got, "timeout of seat 1 after message 7 (gone)") {
		t.Fatalf("with a record: %q", got)
	}
}

// chooseOutOfRange commits its seat's hidden choice to 9, which peek's
// rules refuse (0..3), and reveals it when its turn comes.
type chooseOutOfRange struct{}

func (chooseOutOfRange) AlterInput(m *Match, sec *Secrets, st Step, in *WireInput) bool {
	if in.T != InChoose {
		return false
	}
	v, err := NewVector(m.ID(), st.Seat, in.Name, [][]byte{{9}})
	if err != nil {
		panic(err)
	}
	sec.Add(v)
	in.Root = hexDigest(v.Root())
	return true
}

func (chooseOutOfRange) AlterEnvelope(m *Match, e *Envelope, key crypto.PrivKey) []*Envelope {
	return []*Envelope{e}
}

// A hidden choice that breaks the rules comes to light only when the last
// one opens, which may be an honest seat's: the violation then names the
// chooser, and says it surfaced with the honest seat's message, both live
// and in the audit.
func TestSurfacedViolationNamesWhoBroughtItToLight(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		out := playPeek(t, seed, chooseOutOfRange{}, nil, 300*time.Millisecond)
		v := out[0].res.Violation
		if out[0].err != nil || v == nil {
			continue // seat 1 chose first and stopped before revealing
		}
		rep := auditFile(t, out[0].path)
		last := rep.Steps[len(rep.Steps)-1]
		if v.Seat != 1 || !v.Signed || last.Seq != v.Seq || v.Surfaced != (last.Seat == 0) || v.Surfaced && v.Found != 0 {
			t.Fatalf("seed %d: violation %+v in seat %d's message, want seat 1's, surfaced by seat 0 if it sent it", seed, v, last.Seat)
		}
		if rep.Verdict != Violated || rep.Violation.Seat != 1 || rep.Violation.Surfaced != v.Surfaced || strings.Contains(rep.Summary(), "came to light") != v.Surfaced {
			t.Fatalf("seed %d: audit %s", seed, rep.Summary())
		}
		if v.Surfaced {
			return
		}
	}
	t.Fatal("no seed had seat 0 reveal last")
}

// digitsOf1 gathers the values and salts of seat 1's peek digits from
// every opening of the match (the final reveal opens them all).
func (p *honestPeek) digitsOf1(t *testing.T) FullVector {
	t.Helper()
	f := FullVector{Name: "digits", Values: make([]Hex, 4), Salts: make([]Salt, 4)}
	seen := 0
	for _, e := range p.envs {
		body, err := DecodeBody(e.Body)
		if err != nil || e.From != p.h.Players[1].Peer {
			continue
		}
		for _, in := range body.Inputs {
			for _, o := range in.Open {
				f.Values[o.Slot.Index], f.Salts[o.Slot.Index] = o.Value, o.Salt
				seen |= 1 << o.Slot.Index
			}
			for _, full := range in.Full {
				copy(f.Values, full.Values)
				copy(f.Salts, full.Salts)
				seen = 0xf
			}
		}
	}
	if seen != 0xf {
		t.Fatalf("seat 1's digits were not all opened (%b)", seen)
	}
	return f
}

// A full opening of a vector may reveal only leaves that are open already
// or that the rules call for now: seat 1 answering one asked digit with
// its whole vector, which checks against its commitment, is refused.
func TestFullOpeningRefusesToRevealHiddenLeaves(t *testing.T) {
	p := playHonestPeek(t, 24)
	full := p.digitsOf1(t)
	tried := 0
	for _, k := range p.seat1Turns() {
		body, err := DecodeBody(p.envs[k].Body)
		if err != nil {
			t.Fatal(err)
		}
		for i, in := range body.Inputs {
			if in.T != InMove || len(in.Open) != 1 {
				continue
			}
			tried++
			over := *body
			over.Inputs = append([]WireInput(nil), body.Inputs...)
			over.Inputs[i].Open, over.Inputs[i].Full = nil, []FullVector{full}
			b, err := EncodeBody(&over)
			if err != nil {
				t.Fatal(err)
			}
			m := p.replay(t, k)
			_, err = m.Accept(p.resigned(t, k, func(e *Envelope) { e.Body = b }))
			if v := (*Violation)(nil); !errors.As(err, &v) || v.Seat != 1 {
				t.Fatalf("message %d answers an ask with all four digits: %v", k+1, err)
			}
		}
	}
	if tried == 0 {
		t.Fatal("seat 1 never answered an ask")
	}
}

// Vectors of up to MaxLeaves leaves verify; larger ones are refused.
func TestVerifyPathTakesVectorsUpToMaxLeaves(t *testing.T) {
	leaves := make([]Digest, MaxLeaves)
	for i := range leaves {
		leaves[i] = newHasher("leaf").int(i).sum()
	}
	root := MerkleRoot(leaves)
	i := MaxLeaves - 1
	if err := VerifyPath(root, MaxLeaves, i, leaves[i], MerklePath(leaves, i)); err != nil {
		t.Fatalf("a vector of MaxLeaves leaves: %v", err)
	}
	big := append(leaves, newHasher("leaf").int(MaxLeaves).sum())
	if err := VerifyPath(MerkleRoot(big), MaxLeaves+1, 0, big[0], MerklePath(big, 0)); !errors.Is(err, ErrCommitment) {
		t.Fatalf("a vector of MaxLeaves+1 leaves: %v", err)
	}
}

// A referee adopts the other side's closing record only if it fits the
// match as the auditor will check it, validly signed or not.
func TestAdoptRefusesSignedClosingThatDoesNotFit(t *testing.T) {
	keys := testKeys(t, 2)
	h := testHeader(t, peekSpec, keys)
	misfits := map[string]func(c *Closing){
		"blames its writer":     func(c *Closing) { c.Seat = 0 },
		"of another match":      func(c *Closing) { c.Match = strings.Repeat("0", 64) },
		"after a later message": func(c *Closing) { c.Seq = 5 },
		"blames no seat":        func(c *Closing) { c.Seat = 7 },
		"no forfeit":            func(c *Closing) { c.Closing = CloseViolation },
	}
	for name, edit := range misfits {
		t.Run(name, func(t *testing.T) {
			m, err := NewMatch(peekSpec, h)
			if err != nil {
				t.Fatal(err)
			}
			tw, err := CreateTranscript(filepath.Join(t.TempDir(), "t.jsonl"), h)
			if err != nil {
				t.Fatal(err)
			}
			defer tw.Close()
			end, _ := fairnesstest.Pipe()
			ref, err := NewReferee(Config{Match: m, Seat: 1, Key: keys[1], Transport: end, Transcript: tw,
				Agent: &peekBot{r: rand.New(rand.NewPCG(1, 1))}})
			if err != nil {
				t.Fatal(err)
			}
			c := &Closing{Closing: CloseAbandoned, Match: h.Match, Seat: 1, Seq: 0, Detail: "gone"}
			edit(c)
			if err := c.Sign(keys[0]); err != nil {
				t.Fatal(err)
			}
			if err := ref.adopt(c); err == nil {
				t.Fatalf("adopted %+v", c)
			}
		})
	}
}

// A transcript's header is read as strictly as any line: an unknown field
// or trailing data is refused, not half read.
func TestReadTranscriptRefusesLooseHeader(t *testing.T) {
	p := playHonestPeek(t, 25)
	hdr := p.lines[0]
	for _, bad := range []string{hdr[:len(hdr)-1] + `,"extra":1}`, hdr + ` {}`, hdr + ` x`} {
		if _, _, err := ReadTranscript(strings.NewReader(bad + "\n" + p.lines[1] + "\n")); !errors.Is(err, ErrNotTranscript) {
			t.Fatalf("header %.60q…: %v", bad[len(bad)-20:], err)
		}
	}
	// Resuming from a transcript whose header does not hold is refused too.
	h := p.h
	h.Players = append([]Player(nil), h.Players...)
	h.Players[0].Name = "mallory"
	path := filepath.Join(t.TempDir(), "resume.jsonl")
	writeLinesTo(t, path, append([]string{string(mustJSON(t, h))}, p.lines[1:]...))
	if _, _, err := LoadMatch(peekSpecs, path); err == nil {
		t.Fatal("resumed from a header whose match ID does not hold")
	}
}

// A seat's secrets open only that seat's slots, and a writer that keeps no
// file answers as an empty one.
func TestSecretsOpenOnlyTheirSeatsSlots(t *testing.T) {
	match := newHasher("m").sum()
	v, err := NewVector(match, 0, "digits", [][]byte{{1}, {2}})
	if err != nil {
		t.Fatal(err)
	}
	sec := NewSecrets(0)
	sec.Add(v)
	if _, err := sec.Open(engine.Slot{Owner: 0, Name: "digits", Index: 1}); err != nil {
		t.Fatal(err)
	}
	if o, err := sec.Open(engine.Slot{Owner: 1, Name: "digits", Index: 1}); err == nil {
		t.Fatalf("seat 0's secrets opened seat 1's slot: %+v", o)
	}
	var w *TranscriptWriter
	if w.Bytes() != 0 || w.Path() != "" || w.Close() != nil || w.Envelope(&Envelope{}) != nil {
		t.Fatal("a nil transcript writer is not an empty one")
	}
}

// countInputs returns how many inputs e's body carries (0 if it does not
// decode).
func countInputs(e *Envelope) int {
	b, err := DecodeBody(e.Body)
	if err != nil {
		return 0
	}
	return len(b.Inputs)
}
