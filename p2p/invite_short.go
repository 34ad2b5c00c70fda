package p2p

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"golang.org/x/crypto/blake2b"
)

// The short form of an invite code: "SALVO1-", then the host's Ed25519
// public key and a 3-byte checksum in 56 symbols of the same alphabet,
// in two halves of 28 — 64 characters in all. It carries no address:
// the joiner finds the host's current ones in the public DHT by its peer
// ID, and the peer ID (the key itself) authenticates whatever answers
// there, so the addresses are only hints. It has no issue time either: a
// host's peer ID stays the same across runs, and an old short code leads
// to the same host, which is only joinable while it hosts.
const (
	shortKeyLen      = ed25519.PublicKeySize
	shortChecksumLen = 3
	// shortSymbols is how many symbols follow the prefix: (32+3)*8/5.
	shortSymbols = (shortKeyLen + shortChecksumLen) * 8 / 5
	// ShortInviteLen is the length of a short code as EncodeShortInvite
	// writes it.
	ShortInviteLen = len(InvitePrefix) + 1 + shortSymbols + 1
)

// ErrNotEd25519 means a peer ID a short code cannot carry: only an
// Ed25519 key fits in 64 characters (Salvo's own identities are Ed25519).
var ErrNotEd25519 = errors.New("peer ID is not an Ed25519 key")

// EncodeShortInvite writes the short code of a host's peer ID.
func EncodeShortInvite(id peer.ID) (string, error) {
	raw, ok := rawEd25519(id)
	if !ok {
		return "", fmt.Errorf("p2p: short invite code for %s: %w", id, ErrNotEd25519)
	}
	text := inviteEnc.EncodeToString(append(raw, shortChecksum(raw)...))
	half := len(text) / 2
	return InvitePrefix + "-" + text[:half] + "-" + text[half:], nil
}

// shortChecksum is the short form's checksum: BLAKE2b of the key under
// its own label, so no body of the long form checks as a short code.
func shortChecksum(key []byte) []byte {
	h, _ := blake2b.New256(nil)
	h.Write([]byte("salvo/invite-short/1\x00"))
	h.Write(key)
	return h.Sum(nil)[:shortChecksumLen]
}

// parseShortInvite reads symbols (after the prefix, cleaned) as a short
// code; ok is false when they may be a long code instead. Fewer symbols
// than a short code has can only be a code cut short, in either form. A
// short code's length with a checksum that does not match is a mistyped
// short code, or a long code cut at that length.
func parseShortInvite(symbols string) (inv Invite, ok bool, err error) {
	if len(symbols) < shortSymbols {
		if err := incompleteInvite(symbols); err != nil {
			return Invite{}, true, err
		}
		return Invite{}, true, fmt.Errorf("%w: %d symbols after %s, and the shortest code has %d: copy the whole code again", ErrInviteIncomplete, len(symbols), InvitePrefix, shortSymbols)
	}
	raw, derr := inviteEnc.DecodeString(symbols)
	if derr != nil || len(raw) != shortKeyLen+shortChecksumLen {
		return Invite{}, false, nil
	}
	key, sum := raw[:shortKeyLen], raw[shortKeyLen:]
	if !bytes.Equal(shortChecksum(key), sum) {
		if err := incompleteInvite(symbols); err != nil {
			return Invite{}, true, err
		}
		return Invite{}, true, fmt.Errorf("%w: the checksum does not match: check the code symbol by symbol, or ask for it again", ErrInviteTypo)
	}
	pk, kerr := crypto.UnmarshalEd25519PublicKey(key)
	if kerr == nil {
		inv.Peer, kerr = peer.IDFromPublicKey(pk)
	}
	if kerr != nil {
		return Invite{}, true, fmt.Errorf("%w: key: %w", ErrInviteFormat, kerr)
	}
	return inv, true, nil
}

// Short reports whether the invite came from a short code: a peer ID and
// no address, to be looked up in the DHT.
func (i Invite) Short() bool { return len(i.Addrs) == 0 && i.Issued.IsZero() }
