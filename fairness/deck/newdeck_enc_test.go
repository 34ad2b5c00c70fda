package deck

import (
	"bytes"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// A starting deck carries its encodings from the fixed table: they are
// exactly what encoding its elements gives, so every hash over it (the
// first shuffle's proof) is unchanged.
func TestNewDeckEncodingsAreTheElements(t *testing.T) {
	p, err := NewParams(engine.Digest{15}, "nav", 255)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range p.FullDeck() {
		fresh := c.c2.Encode(c.c1.Encode(nil))
		if c.enc == nil || !bytes.Equal(c.enc[:], fresh) {
			t.Fatalf("card encoding %x, its elements encode to %x", c.enc, fresh)
		}
	}
}
