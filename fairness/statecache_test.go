package fairness

import (
	"bytes"
	"os"
	"testing"

	"github.com/salvo-game/salvo/engine/games"
)

// The state hash a match keeps from its last message (Match.stated) is
// the one hashing the match again gives, after every message of recorded
// matches of every game: nothing changes the state but apply, which drops
// it.
func TestStatedHashIsTheStateHash(t *testing.T) {
	for _, name := range append([]string{"ubuild"}, perfTranscripts...) {
		data, err := os.ReadFile(perfFile(name))
		if err != nil {
			t.Fatal(err)
		}
		h, tr, err := ReadTranscript(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		spec, _ := games.Spec(h.Game)
		m, err := NewMatch(spec, h)
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for ; ; checked++ {
			ln, err := tr.Next()
			if err != nil || ln.Envelope == nil {
				break
			}
			if _, err := m.Accept(ln.Envelope); err != nil {
				t.Fatalf("%s line %d: %v", name, ln.No, err)
			}
			kept := m.StateHash()
			m.stated.ok = false
			if fresh := m.StateHash(); fresh != kept {
				t.Fatalf("%s line %d: kept state %x, the match hashes to %x", name, ln.No, kept, fresh)
			}
			m.stated.ok = true
		}
		if checked < 30 {
			t.Fatalf("%s: only %d messages", name, checked)
		}
	}
}
