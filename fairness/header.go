package fairness

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine"
)

// TranscriptFormat names the transcript format version in every header.
//
// salvo-transcript/2 records matches played by protocol salvo/4: its
// parallel groups span runs of steps (runs.go) and a two-player seat may
// close a message with pre-shares (preshare.go). The format is part of
// the match ID, so every player's first envelope signs which rules its
// record is judged by.
const TranscriptFormat = "salvo-transcript/2"

// oneStepFormat names the records of protocols salvo/1 to salvo/3 (the
// same lines; salvo/3's parallel groups are one step each, and it had no
// pre-shares). They audit by the rules they were played by: a salvo/3
// member based where salvo/4 would start a run is no fault, and a
// pre-share in such a record is refused.
const oneStepFormat = "salvo-transcript/1"

// knownFormat reports whether f names a transcript format this build
// audits.
func knownFormat(f string) bool { return f == TranscriptFormat || f == oneStepFormat }

// Header is the first line of a transcript: everything needed to replay the
// match. The match ID is the hash of all of it except Created, so the first
// envelope's Prev (the match ID) binds the header to the signed history.
type Header struct {
	Format  string   `json:"salvo"`
	Game    string   `json:"game"`
	Variant string   `json:"variant"`
	Rules   string   `json:"rules"`
	Players []Player `json:"players"`
	Match   string   `json:"match"`
	Created string   `json:"created,omitempty"`
	// Watch is the host's choice, at set-up, that spectators may follow
	// the match (salvo watch). It is part of the match ID, so the first
	// envelope of every player signs it: no player can open a match to
	// watchers that another agreed to play unwatched. Absent (false) in
	// every older transcript, whose IDs it leaves as they were.
	Watch bool `json:"watch,omitempty"`
}

// Player is one seat of the match header, in seat order.
type Player struct {
	Peer  string `json:"peer"`
	Name  string `json:"name"`
	Nonce string `json:"nonce"`
}

// NewNonce returns a fresh random nonce, in hex, for a player's header entry.
// Every player contributes one, so no player can make a match ID that an
// earlier match already used.
func NewNonce() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("draw nonce: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// NewHeader assembles a header and computes its match ID.
func NewHeader(spec engine.Spec, variant string, players []Player) (Header, error) {
	if variant == "" && len(spec.Variants) > 0 {
		variant = spec.Variants[0]
	}
	h := Header{Format: TranscriptFormat, Game: spec.Name, Variant: variant, Rules: spec.Rules, Players: players}
	id, err := h.ComputeID()
	if err != nil {
		return Header{}, err
	}
	h.Match = hexDigest(id)
	return h, nil
}

// Watchable returns h opened to spectators (Header.Watch), its match ID
// computed again: the host's choice, made before it offers the header.
func (h Header) Watchable() (Header, error) {
	h.Watch = true
	id, err := h.ComputeID()
	if err != nil {
		return Header{}, err
	}
	h.Match = hexDigest(id)
	return h, nil
}

// ValidNonce reports whether n is a player's nonce as a header requires
// it: 16 bytes in 32 hex digits.
func ValidNonce(n string) bool {
	b, err := hex.DecodeString(n)
	return err == nil && len(b) == 16
}

// ComputeID returns the match ID the header's fields determine.
func (h Header) ComputeID() (Digest, error) {
	hs := newHasher("salvo/match/1").str(h.Format).str(h.Game).str(h.Variant).str(h.Rules).int(len(h.Players))
	for i, p := range h.Players {
		if _, err := peer.Decode(p.Peer); err != nil {
			return Digest{}, fmt.Errorf("header: player %d: bad peer ID %q: %w", i, p.Peer, err)
		}
		if !ValidNonce(p.Nonce) {
			return Digest{}, fmt.Errorf("header: player %d: nonce must be 32 hex digits", i)
		}
		hs.str(p.Peer).str(p.Name).str(p.Nonce)
	}
	if h.Watch {
		hs.str("watch") // after the counted players: unambiguous, and absent from older IDs
	}
	return hs.sum(), nil
}

// check validates the header against the game registry and returns the
// match ID and the players' public keys, expanded for verification.
func (h Header) check(spec engine.Spec) (Digest, []crypto.PubKey, error) {
	if !knownFormat(h.Format) {
		return Digest{}, nil, fmt.Errorf("header: format %q, want %q (or %q)", h.Format, TranscriptFormat, oneStepFormat)
	}
	if h.Game != spec.Name || h.Rules != spec.Rules {
		return Digest{}, nil, fmt.Errorf("header: game %s rules %s, this build plays %s rules %s", h.Game, h.Rules, spec.Name, spec.Rules)
	}
	if n := len(h.Players); n < spec.MinSeats || n > spec.MaxSeats {
		return Digest{}, nil, fmt.Errorf("header: %d players, %s takes %d to %d", n, spec.Name, spec.MinSeats, spec.MaxSeats)
	}
	id, err := h.ComputeID()
	if err != nil {
		return Digest{}, nil, err
	}
	if hexDigest(id) != h.Match {
		return Digest{}, nil, fmt.Errorf("header: match ID %.16s… does not match the header's fields (%.16s…)", h.Match, hexDigest(id))
	}
	keys := make([]crypto.PubKey, len(h.Players))
	seen := map[string]bool{}
	for i, p := range h.Players {
		if seen[p.Peer] {
			return Digest{}, nil, fmt.Errorf("header: peer %s sits twice", p.Peer)
		}
		seen[p.Peer] = true
		id, _ := peer.Decode(p.Peer)
		k, err := id.ExtractPublicKey()
		if err != nil {
			return Digest{}, nil, fmt.Errorf("header: player %d: peer ID carries no public key: %w", i, err)
		}
		if keys[i], err = bindKey(k); err != nil {
			return Digest{}, nil, fmt.Errorf("header: player %d: %w", i, err)
		}
	}
	return id, keys, nil
}

// Seat returns the seat of peer p, or NoSeat.
func (h Header) Seat(p string) engine.Seat {
	for i, pl := range h.Players {
		if pl.Peer == p {
			return engine.Seat(i)
		}
	}
	return engine.NoSeat
}
