package session

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
)

// An attack on the end frame: a player who leaves (or gives up on us)
// hands over its signed closing record, which the other side writes into
// its own transcript as it is. The record's detail is free text. A detail
// of U+2028 characters, three bytes each in the frame, is written as the
// six-byte escape \u2028 in the transcript (encoding/json always escapes
// it): a frame under MaxFrame becomes a line over the transcript's line
// bound, and the honest side's own record, which should prove the
// leaver's forfeit, no longer audits or loads. The end frame must refuse a
// closing record whose detail is over fairness.MaxDetail.
func TestAttack2EndFrameDetailBreaksTheTranscript(t *testing.T) {
	keys := []crypto.PrivKey{newKey(t), newKey(t)}
	entry, _ := games.Lookup("sea")
	players := make([]fairness.Player, len(keys))
	for i, k := range keys {
		id, err := peer.IDFromPrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		nonce, err := fairness.NewNonce()
		if err != nil {
			t.Fatal(err)
		}
		players[i] = fairness.Player{Peer: id.String(), Name: []string{"ann", "bob"}[i], Nonce: nonce}
	}
	h, err := fairness.NewHeader(entry.Spec, "", players)
	if err != nil {
		t.Fatal(err)
	}
	m, err := fairness.NewMatch(entry.Spec, h)
	if err != nil {
		t.Fatal(err)
	}
	c, err := fairness.Admit(m, keys[0], LeftDetail)
	if err != nil {
		t.Fatal(err)
	}
	// An attacker signs with code of its own, which does not bound the
	// detail as Sign does: the signature does not matter here, as the
	// line is refused for its length before it is verified.
	c.Detail = strings.Repeat("\u2028", 340_000)
	frame, err := json.Marshal(endBody{T: "end", Closing: c})
	if err != nil {
		t.Fatal(err)
	}
	frame = bytes.ReplaceAll(frame, []byte(`\u2028`), []byte("\u2028"))
	if len(frame) > p2p.MaxFrame {
		t.Fatalf("the frame is %d bytes, over MaxFrame", len(frame))
	}
	// What the honest side would write: its transcript no longer audits.
	path := filepath.Join(t.TempDir(), "honest.jsonl")
	tw, err := fairness.CreateTranscript(path, h)
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.WriteClosing(c); err != nil {
		t.Fatal(err)
	}
	tw.Close()
	if rep, err := fairness.AuditFile(path, games.Spec); err == nil && !strings.Contains(rep.Detail, "longer than") {
		t.Fatalf("the long record is read: %s (the attack needs another detail)", rep.Summary())
	}
	f, ok, err := decodeEnd(frame)
	if !ok || err == nil {
		t.Fatalf("an end frame of %d bytes whose closing detail is %d bytes was taken (closing %v)", len(frame), len(c.Detail), f.Closing != nil)
	}
	t.Logf("refused: %v", err)
	// A record of ordinary size still passes.
	c2, err := fairness.Admit(m, keys[0], LeftDetail)
	if err != nil {
		t.Fatal(err)
	}
	frame, err = json.Marshal(endBody{T: "end", Closing: c2})
	if err != nil {
		t.Fatal(err)
	}
	if f, ok, err := decodeEnd(frame); !ok || err != nil || f.Closing == nil || *f.Closing != *c2 {
		t.Fatalf("an ordinary end frame: %v, %v", ok, err)
	}
}
