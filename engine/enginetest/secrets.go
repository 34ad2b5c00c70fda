package enginetest

import "github.com/salvo-game/salvo/engine"

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
