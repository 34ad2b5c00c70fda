package tui

import (
	"crypto/sha256"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/fairness/untrusted"
)

// Friendly names for peers that did not pick one: an adjective and a sea
// creature chosen by the hash of the peer ID, so the same peer always gets
// the same name.
var (
	nameAdjectives = []string{
		"swift", "calm", "bold", "brisk", "quiet", "keen", "steady", "bright",
		"salty", "misty", "stormy", "sunny", "rapid", "gentle", "clever", "lucky",
		"silver", "amber", "coral", "deep", "tidal", "windy", "sly", "brave",
		"merry", "nimble", "patient", "proud", "sharp", "stout", "wild", "wise",
	}
	nameCreatures = []string{
		"otter", "heron", "walrus", "gull", "seal", "orca", "puffin", "marlin",
		"squid", "crab", "pelican", "tern", "dolphin", "narwhal", "manatee", "eel",
		"albatross", "cormorant", "grouper", "halibut", "lobster", "mackerel", "oyster", "plover",
		"ray", "shark", "skua", "sturgeon", "tuna", "urchin", "whale", "wrasse",
	}
)

// FriendlyName returns the stable made-up name of a peer, such as
// "swift-otter".
func FriendlyName(id peer.ID) string {
	h := sha256.Sum256([]byte(id))
	return nameAdjectives[int(h[0])%len(nameAdjectives)] + "-" + nameCreatures[int(h[1])%len(nameCreatures)]
}

// shortID returns a peer ID as its first four and last four characters,
// "12D3…k9Qa".
func shortID(id string) string {
	if len(id) <= 10 {
		return id
	}
	return id[:4] + "…" + id[len(id)-4:]
}

// shownName is how a player's name is shown: its own name, escaped (a name
// from a peer, or from a file written before the handshake checked names,
// may hold characters a terminal acts on), or fallback when it has none.
func shownName(name, fallback string) string {
	if name == "" {
		return fallback
	}
	return untrusted.Escape(name)
}
