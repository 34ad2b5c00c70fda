package enginetest

import "github.com/salvo-game/salvo/engine"

// Secrets is what one seat knows of the hidden values: the leaves it
// committed, and whatever else a test's referee tells it (the cards of a
// shared deck dealt to it). It implements [engine.Secrets].
type Secrets map[engine.Slot][]byte

// Value returns the value at slot, if the seat knows it.
func (s Secrets) Value(sl engine.Slot) ([]byte, bool) {
	v, ok := s[sl]
	return v, ok
}

// Root returns a stand-in commitment root of leaves: a digest of the leaves
// in order, each with its length. Engines only store the root they are
// given, so any value that differs between different vectors does.
func Root(leaves [][]byte) engine.Digest {
	h := engine.NewHasher("salvo/enginetest/root")
	h.Int(len(leaves))
	for _, l := range leaves {
		h.Bytes(l)
	}
	return h.Sum()
}
