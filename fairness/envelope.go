package fairness

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/libp2p/go-libp2p/core/crypto"
	pb "github.com/libp2p/go-libp2p/core/crypto/pb"
	"github.com/libp2p/go-libp2p/core/peer"
	voi "github.com/oasisprotocol/curve25519-voi/primitives/ed25519"
)

// MaxEnvelope bounds an encoded envelope, on the wire and in a transcript.
const MaxEnvelope = 1 << 20

// Envelope is one signed message of a match. Seq counts the messages of the
// match from 1; Prev is the hash of the match's previous envelope (the match
// ID for the first), so every signature covers the whole history; Sig is the
// sender's Ed25519 libp2p identity signature over everything else.
type Envelope struct {
	Match string          `json:"match"`
	Seq   uint64          `json:"seq"`
	From  string          `json:"from"`
	Prev  string          `json:"prev"`
	Body  json.RawMessage `json:"body"`
	Sig   string          `json:"sig"`

	// verified is set once Sig has been checked against the key of the
	// player From names (the auditor checks signatures in parallel).
	verified bool
	// id caches Hash once verifyOnce has checked the envelope: hashing a
	// body three times (to verify, to chain, to record) was a tenth of an
	// audit of long lines (issue 15). A verified envelope is not changed
	// afterwards, the same rule verified already relies on.
	id *Digest
}

// Body is what an envelope says: the sender's inputs, in order, and the
// state hash the sender reached after applying them.
type Body struct {
	Inputs []WireInput `json:"inputs"`
	State  string      `json:"state"`
}

// WireInput is one input as it travels. T names its kind:
//
//	hello   the seat's dice-chain tip (its first input of a match)
//	commit  the root of a committed vector (Name, Size, Root)
//	move    a move (Move) with openings (Open)
//	open    openings the rules call for (Open, and Full for whole vectors)
//	share   the seat's dice preimage for roll number Roll (Link; Next at a chain's end)
//	choose  the root of a one-leaf commitment to a hidden choice (Name, Root)
//	reveal  the opening of that choice (Open)
//	deckkey the seat's key share for a shared deck, with its proof (Name, Key)
//	shuffle the seat's re-masked, permuted deck with its proof (Name, Deck, Proof)
//	unmask  the seat's unmasking shares of cards dealt to another seat (Name, Shares)
//	release an out seat's unmasking shares of every undealt card of a deck (Name, Shares)
//	remove  a seat taken off the table of a game that plays on without it (Gone; Left, its own signed word)
//	resign  the seat gives up
//
// An open or move input opens a card of a shared deck with the holder's
// own unmasking share, in Shares.
type WireInput struct {
	T    InputKind       `json:"t"`
	Name string          `json:"name,omitempty"`
	Size int             `json:"size,omitempty"`
	Root string          `json:"root,omitempty"`
	Move json.RawMessage `json:"move,omitempty"`
	Open []Opening       `json:"open,omitempty"`
	Full []FullVector    `json:"full,omitempty"`
	Roll int             `json:"roll,omitempty"`
	Link string          `json:"link,omitempty"`
	// Next is, in the share that reveals the last link of the seat's dice
	// chain, the tip of its next chain (see Dice); absent from every other
	// input, and from every share of a chain that does not continue.
	Next  string `json:"next,omitempty"`
	Tip   string `json:"tip,omitempty"`
	Links int    `json:"links,omitempty"`
	// Shared decks (base64 of the fairness/deck binary encodings).
	Key    []byte   `json:"key,omitempty"`
	Deck   []byte   `json:"deck,omitempty"`
	Proof  []byte   `json:"proof,omitempty"`
	Shares [][]byte `json:"shares,omitempty"`
	// Removals (InRemove, remove.go): the seat taken off the table, and
	// its own signed left record when it left on purpose (nil: it went
	// silent past the give-up time while the match waited for it).
	Gone *int     `json:"gone,omitempty"`
	Left *Closing `json:"left,omitempty"`
}

// InputKind names what one input of an envelope carries (its "t" on the
// wire); the In constants are every kind there is.
type InputKind string

// The input kinds.
const (
	InHello   InputKind = "hello"
	InCommit  InputKind = "commit"
	InMove    InputKind = "move"
	InOpen    InputKind = "open"
	InShare   InputKind = "share"
	InChoose  InputKind = "choose"
	InReveal  InputKind = "reveal"
	InResign  InputKind = "resign"
	InDeckKey InputKind = "deckkey"
	InShuffle InputKind = "shuffle"
	InUnmask  InputKind = "unmask"
	// InRelease is a seat's last word once the game puts it out (a
	// squadron shot down in 3-4 player Air, engine.Outer): its unmasking
	// shares of every card of a shared deck not yet dealt, so that no
	// later deal waits for it. It reveals nothing, since every such card
	// stays masked by the keys of the seats still playing.
	InRelease InputKind = "release"
	// InRemove takes a seat off the table in a game that plays on without
	// it (engine.Remover: a free-for-all of 3-4 player Air), at one place
	// of the signed chain, so every peer and the auditor sequence the
	// departure alike (remove.go).
	InRemove InputKind = "remove"
)

// ErrSignature is wrapped by every signature failure.
var ErrSignature = errors.New("bad signature")

// signedDigest is what the sender signs.
func (e *Envelope) signedDigest() Digest {
	return newHasher("salvo/envelope/1").
		str(e.Match).uint(e.Seq).str(e.From).str(e.Prev).bytes(e.Body).sum()
}

// Hash identifies the envelope, signature included; the next envelope's Prev.
func (e *Envelope) Hash() Digest {
	if e.verified && e.id != nil {
		return *e.id
	}
	return e.hashOf(e.signedDigest())
}

// hashOf is Hash given the envelope's signed digest d.
func (e *Envelope) hashOf(d Digest) Digest {
	return newHasher("salvo/envelope-id/1").digest(d).str(e.Sig).sum()
}

// Sign fills in From and Sig with key.
func (e *Envelope) Sign(key crypto.PrivKey) error {
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return fmt.Errorf("sign envelope: %w", err)
	}
	e.From, e.id, e.verified = id.String(), nil, false
	d := e.signedDigest()
	sig, err := signDigest(key, d)
	if err != nil {
		return fmt.Errorf("sign envelope: %w", err)
	}
	e.Sig = base64.StdEncoding.EncodeToString(sig)
	return nil
}

// signOwn is Sign for an envelope the local referee keeps and applies
// itself (its member of a parallel group): the signature it just made is
// its own key's, so it marks the envelope verified, and the match does
// not verify it again when its number comes (issue 15: a member, its own
// signed envelope, was verified by the very referee that signed it).
func (e *Envelope) signOwn(key crypto.PrivKey) error {
	if err := e.Sign(key); err != nil {
		return err
	}
	e.markVerified(e.signedDigest())
	return nil
}

// signDigest signs d with key: an Ed25519 key with curve25519-voi, whose
// precomputed tables sign in two thirds of crypto/ed25519's time (the
// live referee signs every message it sends), giving the same signature,
// as Ed25519 signing is deterministic (TestSignDigestMatchesLibp2p); any
// other key with its own Sign.
func signDigest(key crypto.PrivKey, d Digest) ([]byte, error) {
	if key.Type() == pb.KeyType_Ed25519 {
		if raw, err := key.Raw(); err == nil && len(raw) == ed25519.PrivateKeySize {
			return voi.Sign(voi.PrivateKey(raw), d[:]), nil
		}
	}
	return key.Sign(d[:])
}

// Verify checks the signature against pub.
func (e *Envelope) Verify(pub crypto.PubKey) error {
	return e.verifyDigest(pub, e.signedDigest())
}

// verifyOnce is Verify for an envelope that will not change: when the
// signature holds it marks the envelope verified and keeps its ID.
func (e *Envelope) verifyOnce(pub crypto.PubKey) error {
	d := e.signedDigest()
	if err := e.verifyDigest(pub, d); err != nil {
		return err
	}
	e.markVerified(d)
	return nil
}

// markVerified records that the signature of e, whose signed digest is d,
// holds, and keeps its ID.
func (e *Envelope) markVerified(d Digest) {
	id := e.hashOf(d)
	e.verified, e.id = true, &id
}

// verifyDigest checks the signature of the signed digest d against pub.
func (e *Envelope) verifyDigest(pub crypto.PubKey, d Digest) error {
	sig, err := canonicalBase64(e.Sig)
	if err != nil {
		return fmt.Errorf("%w: signature: %v", ErrSignature, err)
	}
	ok, err := verifySignature(pub, d[:], sig)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrSignature, err)
	}
	if !ok {
		return fmt.Errorf("%w: does not verify against the sender's key", ErrSignature)
	}
	return nil
}

// EncodeEnvelope returns the envelope's one-line JSON form.
func EncodeEnvelope(e *Envelope) ([]byte, error) {
	if b, ok := appendPlainEnvelope(nil, e); ok {
		return b, nil
	}
	b, err := marshalCompact(e)
	if err != nil {
		return nil, fmt.Errorf("encode envelope: %w", err)
	}
	return b, nil
}

// appendPlainEnvelope appends e as marshalCompact writes it, where that is
// plain copying: every text field printable ASCII that JSON leaves as it
// is, the body valid JSON without whitespace (which compacting would
// drop). It reports false for any other envelope, which the encoder then
// writes (or refuses). A referee encodes every envelope it sends, and the
// reflecting encoder was a twentieth of a live match (issue 15, point 6).
func appendPlainEnvelope(dst []byte, e *Envelope) ([]byte, bool) {
	for _, s := range [...]string{e.Match, e.From, e.Prev, e.Sig} {
		if !plainJSON(s) {
			return nil, false
		}
	}
	if bytes.ContainsAny(e.Body, " \t\r\n") || !json.Valid(e.Body) {
		return nil, false
	}
	dst = append(dst, `{"match":"`...)
	dst = append(dst, e.Match...)
	dst = append(dst, `","seq":`...)
	dst = strconv.AppendUint(dst, e.Seq, 10)
	dst = append(dst, `,"from":"`...)
	dst = append(dst, e.From...)
	dst = append(dst, `","prev":"`...)
	dst = append(dst, e.Prev...)
	dst = append(dst, `","body":`...)
	dst = append(dst, e.Body...)
	dst = append(dst, `,"sig":"`...)
	dst = append(dst, e.Sig...)
	return append(dst, `"}`...), true
}

// plainJSON reports whether JSON writes s between quotes as it is.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// DecodeEnvelope parses one envelope, strictly: unknown fields, trailing
// data, an oversized message, or any spelling but the one EncodeEnvelope
// writes (see decodeCanonical; the body compact, the signature canonical
// base64) are errors, so the envelope's ID is a function of what it says.
func DecodeEnvelope(b []byte) (*Envelope, error) {
	if len(b) > MaxEnvelope {
		return nil, fmt.Errorf("envelope of %d bytes exceeds the %d-byte limit", len(b), MaxEnvelope)
	}
	e, ok := fastEnvelope(b)
	if !ok {
		e = new(Envelope)
		if err := decodeCanonical(b, e); err != nil {
			return nil, fmt.Errorf("decode envelope: %w", err)
		}
	}
	if len(e.Body) == 0 || e.Body[0] != '{' {
		// A body is an object; null or any other value would pass the
		// one-form check and fail only later, where a transcript line's
		// reader no longer says which field was wrong.
		return nil, fmt.Errorf("decode envelope: no body (want a JSON object)")
	}
	if _, err := canonicalBase64(e.Sig); err != nil {
		return nil, fmt.Errorf("decode envelope: field \"sig\": %w", err)
	}
	return e, nil
}

// DecodeBody parses an envelope's body strictly, in the one form EncodeBody
// writes.
func DecodeBody(raw []byte) (*Body, error) {
	b, ok := fastBody(raw)
	if !ok {
		b = new(Body)
		if err := decodeCanonical(raw, b); err != nil {
			return nil, fmt.Errorf("decode body: %w", err)
		}
	}
	if len(b.Inputs) == 0 {
		return nil, fmt.Errorf("decode body: no inputs")
	}
	return b, nil
}

// EncodeBody encodes a body in the compact form envelopes carry.
func EncodeBody(b *Body) ([]byte, error) {
	out, err := marshalCompact(b)
	if err != nil {
		return nil, fmt.Errorf("encode body: %w", err)
	}
	return out, nil
}
