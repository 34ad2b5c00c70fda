package fairness_test

import (
	"bytes"
	"strings"
	"testing"
	"testing/cryptotest"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
)

// A forged deck proof inside a window whose signatures are checked in one
// batch (its signer signed the forgery: the signature holds) is refused
// with the verdict, the cheater and the line of an audit that checks
// every line on its own: a shuffle proof with one response changed, and
// an unmasking share whose proof's challenge is changed, each at the
// first line that carries one of a recorded two-player Air match, the
// record cut after it as a referee's record stops there.
func TestForgedDeckProofInABatchNamesTheSameLine(t *testing.T) {
	const seed = 15
	r := earlyTable{game: "air", variant: "standard", seats: 2, seed: seed}.play(t)
	data := r.clean(t)
	// play drew each seat's key and nonce first from the seeded random
	// source: draw them again.
	cryptotest.SetGlobalRandom(t, seed)
	keys := map[string]crypto.PrivKey{}
	for range 2 {
		k, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fairness.NewNonce(); err != nil {
			t.Fatal(err)
		}
		id, _ := peer.IDFromPrivateKey(k)
		keys[id.String()] = k
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	for _, c := range []struct {
		kind  fairness.InputKind
		forge func(in *fairness.WireInput)
		says  string
	}{
		{fairness.InShuffle, func(in *fairness.WireInput) { in.Proof[len(in.Proof)-5*32] ^= 1 }, "shuffle proof"},
		{fairness.InUnmask, func(in *fairness.WireInput) { in.Shares[0][4+32] ^= 1 }, "share"},
	} {
		t.Run(string(c.kind), func(t *testing.T) {
			at, forged := forgeFirst(t, lines, keys, c.kind, c.forge)
			file := append(bytes.Join(lines[:at], nil), forged...)
			want, err := fairness.AuditLineByLine(file)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("line %d: %s", want.Line, want.Summary())
			got, err := fairness.Audit(bytes.NewReader(file), games.Spec)
			if err != nil {
				t.Fatal(err)
			}
			if want.Verdict != fairness.Violated || want.Line != at+1 || !strings.Contains(want.Summary(), c.says) {
				t.Fatalf("line by line: %s at line %d, want a violation about the %s at line %d", want.Summary(), want.Line, c.says, at+1)
			}
			if got.Verdict != want.Verdict || got.Line != want.Line || got.Summary() != want.Summary() || got.Violation.Seat != want.Violation.Seat {
				t.Fatalf("batched audit says %s at line %d, line by line %s at line %d", got.Summary(), got.Line, want.Summary(), want.Line)
			}
		})
	}
}

// forgeFirst finds the first line (index into lines, header at 0) whose
// envelope carries an input of kind, changes that input with forge, signs
// the envelope again with its sender's key and returns the index and the
// forged line.
func forgeFirst(t *testing.T, lines [][]byte, keys map[string]crypto.PrivKey, kind fairness.InputKind, forge func(*fairness.WireInput)) (int, []byte) {
	t.Helper()
	for i := 1; i < len(lines); i++ {
		e, err := fairness.DecodeEnvelope(bytes.TrimSpace(lines[i]))
		if err != nil {
			continue
		}
		b, err := fairness.DecodeBody(e.Body)
		if err != nil {
			t.Fatal(err)
		}
		for j := range b.Inputs {
			if b.Inputs[j].T != kind {
				continue
			}
			forge(&b.Inputs[j])
			if e.Body, err = fairness.EncodeBody(b); err != nil {
				t.Fatal(err)
			}
			key, ok := keys[e.From]
			if !ok {
				t.Fatal("the seats' keys were not drawn again")
			}
			if err := e.Sign(key); err != nil {
				t.Fatal(err)
			}
			out, err := fairness.EncodeEnvelope(e)
			if err != nil {
				t.Fatal(err)
			}
			return i, append(out, '\n')
		}
	}
	t.Fatalf("no %s input in the record", kind)
	return 0, nil
}
