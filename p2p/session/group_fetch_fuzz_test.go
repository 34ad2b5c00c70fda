package session

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
)

// A fetch frame from the network decodes only into a known kind; a request
// names a match ID and a range from 1 up, and re-encodes to one that
// decodes alike.
func FuzzDecodeFetchFrame(f *testing.F) {
	id := "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	for _, s := range []string{
		`{"t":"fetch","match":"` + id + `","from":1,"to":64}`, `{"t":"done","seq":9}`, `{"t":"decline","reason":"x"}`,
		`{"t":"fetch","match":"` + id + `","from":3,"to":2}`, `{"t":"fetch","match":"../x","from":1,"to":2}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, err := decodeFetchFrame(b)
		if err != nil {
			return
		}
		if fr.T == tFetch && (!validMatchID(fr.Match) || fr.From < 1 || fr.To < fr.From) {
			t.Fatalf("a bad request decoded: %+v", fr)
		}
		enc, err := json.Marshal(fr)
		if err != nil {
			t.Fatal(err)
		}
		if again, err := decodeFetchFrame(enc); err != nil || again != fr {
			t.Fatalf("round trip: %+v, %v; was %+v", again, err, fr)
		}
	})
}

// Whatever bytes a responder sends, reading its answer never panics, and
// every envelope it keeps is one of this match, signed by the player it
// names, numbered from the request's first on and chained (to the one
// before it, or, as a member of a parallel group, to an earlier one or the
// one the first follows).
func FuzzFetchAnswer(f *testing.F) {
	keys := make([]crypto.PrivKey, 3)
	c := &catchUp{keys: map[string]crypto.PubKey{}, log: slog.New(slog.DiscardHandler)}
	for i := range keys {
		k, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			f.Fatal(err)
		}
		keys[i] = k
		id, _ := peer.IDFromPrivateKey(k)
		c.keys[id.String()] = k.GetPublic()
	}
	match := "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	req := fetchFrame{T: tFetch, Match: match, From: 1, To: MaxFetchBatch}
	var valid bytes.Buffer
	prev := match
	for i := 1; i <= 3; i++ {
		e := &fairness.Envelope{Match: match, Seq: uint64(i), Prev: prev, Body: testBody}
		if err := e.Sign(keys[i%3]); err != nil {
			f.Fatal(err)
		}
		b, _ := fairness.EncodeEnvelope(e)
		_ = p2p.WriteFrame(&valid, b)
		prev = hexHash(e)
	}
	_ = p2p.WriteFrame(&valid, done(3))
	f.Add(valid.Bytes())
	f.Add([]byte{5, '{', '"', 't', '"', ':'})
	f.Fuzz(func(t *testing.T, b []byte) {
		out, _ := c.readAnswer(bytes.NewReader(b), req)
		chain := map[string]bool{} // a member may follow an earlier one, or the first's Prev
		for i, x := range out {
			e, err := fairness.DecodeEnvelope(x.frame)
			if err != nil || e.Match != match || e.Seq != uint64(i+1) || e.Verify(c.keys[e.From]) != nil || x.signer.String() != e.From ||
				(i > 0 && !chain[e.Prev]) {
				t.Fatalf("kept envelope %d does not check: %v", i, err)
			}
			if i == 0 {
				chain[e.Prev] = true
			}
			chain[hexHash(e)] = true
		}
	})
}

// The number read from a transcript line's first bytes is the envelope's
// own, and no input makes it panic.
func FuzzHeadSeq(f *testing.F) {
	f.Add([]byte(`{"match":"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef","seq":12,"from":"x"}`))
	f.Add([]byte(`{"salvo":"salvo-transcript/1"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		seq, ok := headSeq(b)
		if !ok {
			return
		}
		if e, err := fairness.DecodeEnvelope(b); err == nil && e.Seq != seq {
			t.Fatalf("read %d, the envelope says %d", seq, e.Seq)
		}
	})
}

// A member of a parallel group names its group's base, not the envelope
// before it, as its Prev: an answer holding one is taken; one naming an
// envelope outside the answer's chain is refused there.
func TestFetchAnswerTakesMembers(t *testing.T) {
	keys := make([]crypto.PrivKey, 3)
	c := &catchUp{keys: map[string]crypto.PubKey{}, log: slog.New(slog.DiscardHandler)}
	for i := range keys {
		k, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			t.Fatal(err)
		}
		keys[i] = k
		id, _ := peer.IDFromPrivateKey(k)
		c.keys[id.String()] = k.GetPublic()
	}
	match := "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	req := fetchFrame{T: tFetch, Match: match, From: 2, To: MaxFetchBatch}
	sign := func(seq uint64, prev string) *fairness.Envelope {
		e := &fairness.Envelope{Match: match, Seq: seq, Prev: prev, Body: testBody}
		if err := e.Sign(keys[seq%3]); err != nil {
			t.Fatal(err)
		}
		return e
	}
	base := sign(1, match)
	e2 := sign(2, hexHash(base))
	e3 := sign(3, hexHash(base)) // a member: its base, not message 2
	e4 := sign(4, hexHash(e3))
	answer := func(es ...*fairness.Envelope) []fetched {
		var b bytes.Buffer
		for _, e := range es {
			enc, _ := fairness.EncodeEnvelope(e)
			_ = p2p.WriteFrame(&b, enc)
		}
		_ = p2p.WriteFrame(&b, done(es[len(es)-1].Seq))
		out, _ := c.readAnswer(bytes.NewReader(b.Bytes()), req)
		return out
	}
	if got := answer(e2, e3, e4); len(got) != 3 {
		t.Fatalf("took %d of an answer with a member, want 3", len(got))
	}
	elsewhere := sign(3, strings.Repeat("ab", 32))
	if got := answer(e2, elsewhere); len(got) != 1 {
		t.Fatalf("took %d envelopes of an answer whose second follows nothing in it, want 1", len(got))
	}
}
