package notation_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/notation"
)

// hugeMoveTranscript is the record of a match whose first message, by
// seat 0, carries a move of that kind, however long, where the match waits for its
// hello: refused, and in the record as the evidence of seat 0's violation.
func hugeMoveTranscript(t *testing.T, kind string) string {
	t.Helper()
	entry, _ := games.Lookup("sea")
	keys := make([]crypto.PrivKey, 2)
	players := make([]fairness.Player, 2)
	for i := range keys {
		keys[i], _, _ = crypto.GenerateEd25519Key(nil)
		id, _ := peer.IDFromPrivateKey(keys[i])
		nonce, _ := fairness.NewNonce()
		players[i] = fairness.Player{Peer: id.String(), Name: "bot", Nonce: nonce}
	}
	h, err := fairness.NewHeader(entry.Spec, "", players)
	if err != nil {
		t.Fatal(err)
	}
	m, err := fairness.NewMatch(entry.Spec, h)
	if err != nil {
		t.Fatal(err)
	}
	move := []byte(`{"kind":"` + kind + `"}`)
	e, err := m.Draft([]fairness.WireInput{{T: fairness.InMove, Move: move}}, m.StateHash(), keys[0])
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "huge.jsonl")
	tw, err := fairness.CreateTranscript(path, h)
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.Envelope(e); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// A cheater whose refused message carries a huge move (well within an
// envelope's limit) must not make the record of its violation impossible
// to write as a notation, nor every notation of it fail to parse: an
// over-long item is shortened, the same way on both sides of Check, and
// two moves that differ past the cut still read differently.
func TestAttackHugeMoveBlocksTheNotation(t *testing.T) {
	long := strings.Repeat("a", 100_000)
	path := hugeMoveTranscript(t, long)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var text bytes.Buffer
	if err := notation.Write(&text, f, games.Spec); err != nil {
		t.Fatalf("no notation of the violation: %v", err)
	}
	if !strings.Contains(text.String(), "! ") {
		t.Fatalf("the notation does not show the refusal:\n%.2000s", text.String())
	}
	tf, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tf.Close()
	if err := notation.CheckTranscript(bytes.NewReader(text.Bytes()), tf, games.Spec); err != nil {
		t.Fatalf("the written notation does not check: %v", err)
	}
	// Another huge move, the same but for its last byte: its notation
	// does not read as this one.
	first := func(path string) string { return build(t, path).Messages[0].Items[0].Text }
	a, b := first(path), first(hugeMoveTranscript(t, long[1:]+"b"))
	if a == b || len(a) > notation.MaxLineBytes {
		t.Fatalf("two huge moves read %.60q… and %.60q… (%d bytes)", a, b, len(a))
	}
}

// A player who takes a look-alike of another player's name (Cyrillic В
// and о for Latin B and o) must not make the notation's body name both
// players alike, so that no reader can tell whose move a line is, or who
// won: only a name of ASCII letters, digits and - _ . ' labels its seat;
// any other stays in its Player tag and its seat reads seatN.
func TestAttackLookAlikeNamesInTheNotation(t *testing.T) {
	h := fairness.Header{Players: []fairness.Player{{Name: "Bob"}, {Name: "\u0412\u043eb"}, {Name: "Zoë"}}}
	labels := notation.Labels(h)
	if labels[0] != "Bob" || labels[1] != "seat1" || labels[2] != "seat2" {
		t.Fatalf("labels %q: a non-ASCII name labels its seat", labels)
	}
}

// A violator whose display name spells another player as the verdict
// names players ("seat 0 Alice (12D3Ko…AAAA)") must not get the verdict
// line of the notation to name that player beside it: each player's
// mention is replaced by its label in one pass, the violator's whole.
func TestAttackNameThatSpellsAnotherPlayerInTheVerdict(t *testing.T) {
	pa := "12D3KooW" + strings.Repeat("A", 44)
	pb := "12D3KooW" + strings.Repeat("B", 44)
	h := fairness.Header{Players: []fairness.Player{
		{Name: "Alice", Peer: pa},
		{Name: "seat 0 Alice (" + pa[:6] + "…" + pa[len(pa)-4:] + ")", Peer: pb},
	}}
	rep := &fairness.Report{Header: h, Verdict: fairness.Violated, Line: 3,
		Violation: &fairness.Violation{Seat: 1, Peer: pb, Seq: 2, Signed: true, Err: fairness.ErrOutOfTurn}}
	n := notation.FromReport(rep)
	res, _ := n.Tag("Result")
	if strings.Contains(res, "Alice") || !strings.HasPrefix(res, "violation by seat1,") {
		t.Fatalf("the verdict names Alice beside the violator: %q", res)
	}
}

// endless is an endless notation: its tag, then comment lines just under
// the line limit, forever.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	head := "[Notation \"salvo-notation/1\"]\n"
	line := ";" + strings.Repeat("x", notation.MaxLineBytes-2) + "\n"
	k := 0
	for k < len(p) {
		var src string
		if e.n < len(head) {
			src = head[e.n:]
		} else {
			src = line[(e.n-len(head))%len(line):]
		}
		c := copy(p[k:], src)
		k += c
		e.n += c
	}
	return k, nil
}

// A hostile notation within the line length and line count limits could
// still be 800 MB, all held in memory by the viewer or the check: Parse
// stops past MaxBytes, naming the line.
func TestAttackHugeNotationFile(t *testing.T) {
	src := &endless{}
	_, err := notation.Parse(src)
	var syn *notation.SyntaxError
	if !errors.As(err, &syn) || !strings.Contains(err.Error(), "bytes") {
		t.Fatalf("got %v", err)
	}
	if src.n > notation.MaxBytes+2*notation.MaxLineBytes+4096 {
		t.Fatalf("read %d bytes of a notation limited to %d", src.n, notation.MaxBytes)
	}
}
