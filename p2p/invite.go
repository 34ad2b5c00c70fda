package p2p

import (
	"bytes"
	"cmp"
	"context"
	"crypto/ed25519"
	"encoding/base32"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	"golang.org/x/crypto/blake2b"
)

// Invite code errors; ParseInvite wraps them with what was wrong, in words
// fit to show the player.
var (
	// ErrInviteEmpty means there is nothing in the code.
	ErrInviteEmpty = errors.New("empty invite code")
	// ErrInviteFormat means the text is not a Salvo invite code at all.
	ErrInviteFormat = errors.New("not a Salvo invite code")
	// ErrInviteVersion means a code of another (newer) format version.
	ErrInviteVersion = errors.New("invite code of another version")
	// ErrInviteTypo means the checksum does not match: a character was
	// mistyped, left out or added.
	ErrInviteTypo = errors.New("invite code mistyped")
	// ErrInviteIncomplete means the code stops before its end: cut short
	// in copying or pasting (see incompleteInvite).
	ErrInviteIncomplete = errors.New("invite code incomplete")
	// ErrInviteStale means the code is older than InviteMaxAge.
	ErrInviteStale = errors.New("invite code too old")
	// ErrInviteFuture means the code was made more than InviteMaxSkew
	// from now (a clock far off, or a crafted code).
	ErrInviteFuture = errors.New("invite code from the future")
	// ErrUnreachable means no address of an invite worked.
	ErrUnreachable = errors.New("host unreachable")
)

// inviteAlphabet is Crockford's base 32: digits and capitals without I, L,
// O and U. ParseInvite reads I and L as 1, O as 0 and U as V, and ignores
// case, spaces and dashes.
const inviteAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

var inviteEnc = base32.NewEncoding(inviteAlphabet).WithPadding(base32.NoPadding)

// Layout of a version-1 code body (before the checksum).
const (
	keyRawEd25519 = 1 // the peer ID is an Ed25519 key: 32 raw bytes follow
	keyPeerID     = 2 // any other peer ID: its length and bytes follow
	checksumLen   = 4
	maxInviteBody = 1024
	// maxInviteText bounds the text ParseInvite reads at all, in either
	// form: a compact code of maxInviteBody bytes wrapped over lines, or
	// InviteMaxAddrs long multiaddrs, fit well inside.
	maxInviteText = 8 << 10
)

// inviteNow is the clock of invite codes (tests move it).
var inviteNow = time.Now

// Invite is what an invite code carries: who the host is and where to find
// it.
type Invite struct {
	// Peer is the host's peer ID.
	Peer peer.ID
	// Addrs are the host's addresses without the final /p2p/<Peer>; relay
	// addresses end in /p2p/<relay>/p2p-circuit.
	Addrs []ma.Multiaddr
	// Issued is when the code was made, to the minute (zero for a code in
	// the older form, a comma-separated list of multiaddrs).
	Issued time.Time
}

// AddrInfo is the invite as libp2p dials it.
func (i Invite) AddrInfo() peer.AddrInfo {
	return peer.AddrInfo{ID: i.Peer, Addrs: slices.Clone(i.Addrs)}
}

// InviteCode returns this host's invite code: its peer ID and its useful
// addresses (relay addresses included) in the compact form, e.g.
// SALVO1-2A3XK-…; see EncodeInvite.
func (h *Host) InviteCode() string {
	return EncodeInvite(Invite{Peer: h.ID(), Addrs: inviteAddrs(h.Addrs()), Issued: inviteNow()})
}

// inviteAddrs keeps the addresses worth giving a joiner: no link-local IPv6,
// one per IP, transport and relay, loopback only when there is nothing
// else, at most InviteMaxAddrs; public first, then relays, then LAN.
func inviteAddrs(full []ma.Multiaddr) []ma.Multiaddr {
	var keep, loop []ma.Multiaddr
	seen := map[string]bool{}
	for _, a := range full {
		a, _ = peer.SplitAddr(a)
		if a == nil {
			continue
		}
		ip, ok := addrIP(a)
		if ok && ip.Is6() && ip.IsLinkLocalUnicast() {
			continue
		}
		if key := a.String(); seen[key] {
			continue
		} else {
			seen[key] = true
		}
		if ok && ip.IsLoopback() && !IsRelayAddr(a) {
			loop = append(loop, a)
			continue
		}
		keep = append(keep, a)
	}
	if len(keep) == 0 {
		keep = loop
	}
	slices.SortStableFunc(keep, func(a, b ma.Multiaddr) int { return cmp.Compare(addrRank(a), addrRank(b)) })
	if len(keep) > InviteMaxAddrs {
		keep = keep[:InviteMaxAddrs]
	}
	return keep
}

// EncodeInvite writes an invite code: "SALVO1-" then, in groups of five
// symbols of Crockford's base 32, the peer ID (32 bytes for an Ed25519
// key), the issue time in minutes, the addresses in their binary multiaddr
// form (the first InviteMaxAddrs of the peer's own; see peerAddr), and a
// 4-byte BLAKE2b checksum. An Ed25519 host with a LAN, a public
// and a relay address gives about 190 symbols.
func EncodeInvite(inv Invite) string {
	var addrs []ma.Multiaddr
	for _, a := range inv.Addrs {
		// Only what ParseInvite takes: the peer's own addresses, at most
		// InviteMaxAddrs.
		if a, err := peerAddr(inv.Peer, a); err == nil && len(addrs) < InviteMaxAddrs {
			addrs = append(addrs, a)
		}
	}
	inv.Addrs = addrs
	return encodeInvite(inv)
}

// encodeInvite is EncodeInvite with the addresses as they are (tests craft
// codes that ParseInvite must refuse with it).
func encodeInvite(inv Invite) string {
	var body []byte
	if raw, ok := rawEd25519(inv.Peer); ok {
		body = append(body, keyRawEd25519)
		body = append(body, raw...)
	} else {
		body = append(body, keyPeerID)
		body = binary.AppendUvarint(body, uint64(len(inv.Peer)))
		body = append(body, inv.Peer...)
	}
	minutes := inv.Issued.Unix() / 60
	if inv.Issued.IsZero() || minutes < 0 {
		minutes = 0
	}
	body = binary.AppendUvarint(body, uint64(minutes))
	body = binary.AppendUvarint(body, uint64(len(inv.Addrs)))
	for _, a := range inv.Addrs {
		b := a.Bytes()
		body = binary.AppendUvarint(body, uint64(len(b)))
		body = append(body, b...)
	}
	body = append(body, inviteChecksum(body)...)
	text := inviteEnc.EncodeToString(body)
	var sb strings.Builder
	sb.WriteString(InvitePrefix)
	for i := 0; i < len(text); i += InviteGroup {
		sb.WriteByte('-')
		sb.WriteString(text[i:min(i+InviteGroup, len(text))])
	}
	return sb.String()
}

func inviteChecksum(body []byte) []byte {
	h, _ := blake2b.New256(nil)
	h.Write([]byte("salvo/invite/1\x00"))
	h.Write(body)
	return h.Sum(nil)[:checksumLen]
}

// rawEd25519 returns the raw public key an Ed25519 peer ID embeds.
func rawEd25519(id peer.ID) ([]byte, bool) {
	pk, err := id.ExtractPublicKey()
	if err != nil || pk.Type() != crypto.Ed25519 {
		return nil, false
	}
	raw, err := pk.Raw()
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil, false
	}
	return raw, true
}

// ParseInvite reads an invite code as typed or pasted: case, white space
// (a code wrapped over lines) and dashes do not matter, and the lookalikes
// I, L (for 1), O (for 0) and U (for V) are read as what they look like.
// A code in the older form (comma-separated multiaddrs ending in
// /p2p/<ID>, what Host.Invite gives) is accepted too. A code is someone
// else's text: in either form it carries at most InviteMaxAddrs addresses,
// all leading to the peer it names (peerAddr), and a compact code an issue
// time inside the window (issuedInWindow). Errors wrap ErrInviteEmpty,
// ErrInviteFormat, ErrInviteVersion, ErrInviteTypo, ErrInviteStale or
// ErrInviteFuture or ErrInviteIncomplete and say what to do.
func ParseInvite(code string) (Invite, error) {
	if len(code) > maxInviteText {
		return Invite{}, fmt.Errorf("%w: %d characters, a code has at most %d", ErrInviteFormat, len(code), maxInviteText)
	}
	clean := strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, code)
	if clean == "" {
		return Invite{}, ErrInviteEmpty
	}
	if strings.HasPrefix(clean, "/") {
		return parseLegacyInvite(clean)
	}
	clean = strings.ToUpper(strings.ReplaceAll(clean, "-", ""))
	if len(clean) < len(InvitePrefix) || lookalikePrefix(clean[:5]) != InvitePrefix[:5] {
		return Invite{}, fmt.Errorf("%w: a code starts with %s-", ErrInviteFormat, InvitePrefix)
	}
	if v := mapSymbol(rune(clean[5])); v != rune(InvitePrefix[5]) {
		return Invite{}, fmt.Errorf("%w: this code is format %c, this Salvo reads format %c: update Salvo or ask for a new code", ErrInviteVersion, clean[5], InvitePrefix[5])
	}
	text := clean[len(InvitePrefix):]
	var sb strings.Builder
	for i, r := range text {
		m := mapSymbol(r)
		if !strings.ContainsRune(inviteAlphabet, m) {
			return Invite{}, fmt.Errorf("%w: %q (symbol %d after %s) is not used in codes", ErrInviteTypo, r, i+1, InvitePrefix)
		}
		sb.WriteRune(m)
	}
	if len(sb.String()) <= shortSymbols {
		if inv, ok, err := parseShortInvite(sb.String()); ok {
			return inv, err
		}
	}
	raw, err := inviteEnc.DecodeString(sb.String())
	if err == nil && inviteEnc.EncodeToString(raw) != sb.String() {
		// The last symbol's unused bits are not zero: a mistyped symbol.
		err = errors.New("non-canonical end")
	}
	if err != nil || len(raw) <= checksumLen || len(raw) > maxInviteBody {
		if err := incompleteInvite(sb.String()); err != nil {
			return Invite{}, err
		}
		return Invite{}, fmt.Errorf("%w: wrong length (%d symbols): a symbol is missing or extra", ErrInviteTypo, len(text))
	}
	body, sum := raw[:len(raw)-checksumLen], raw[len(raw)-checksumLen:]
	if !bytes.Equal(inviteChecksum(body), sum) {
		if err := incompleteInvite(sb.String()); err != nil {
			return Invite{}, err
		}
		return Invite{}, fmt.Errorf("%w: the checksum does not match: check the code symbol by symbol, or ask for it again", ErrInviteTypo)
	}
	inv, err := decodeInviteBody(body)
	if err == nil {
		inv.Addrs, err = peerAddrs(inv.Peer, inv.Addrs)
	}
	if err != nil {
		// The checksum matched, so this came from a broken or a
		// crafted encoder.
		return Invite{}, fmt.Errorf("%w: %w", ErrInviteFormat, err)
	}
	if err := issuedInWindow(inv.Issued); err != nil {
		return Invite{}, err
	}
	return inv, nil
}

// incompleteInvite tells a code cut short in pasting from a mistyped one,
// so that the player is told to copy the whole code again rather than to
// check it symbol by symbol. The symbols there are (after the prefix) are
// read as the start of a body: when its own lengths ask for more bytes
// than there are, and what could be read of it is sound (a peer ID, an
// issue time inside the window, whole addresses that parse), the code is
// incomplete; the error says how many symbols are missing, exactly once
// the last address length has been read, else at least. It returns nil
// when the code does not look cut short.
func incompleteInvite(symbols string) error {
	padded := symbols + strings.Repeat("0", (8-len(symbols)%8)%8)
	raw, err := inviteEnc.DecodeString(padded)
	if err != nil {
		return nil
	}
	have := len(symbols) * 5 / 8
	need, exact, ok := inviteBodyNeed(raw[:have])
	if !ok || need <= have {
		return nil
	}
	total := (need*8 + 4) / 5
	missing := total - len(symbols)
	count := fmt.Sprintf("%d symbols are", missing)
	if missing == 1 {
		count = "1 symbol is"
	}
	if exact {
		return fmt.Errorf("%w: %s missing at the end (it has %d of %d): copy the whole code again", ErrInviteIncomplete, count, len(symbols), total)
	}
	return fmt.Errorf("%w: at least %s missing at the end (it has %d): copy the whole code again", ErrInviteIncomplete, count, len(symbols))
}

// inviteBodyNeed reads the lengths at the start of b, the start of a code
// body, and returns how many bytes the body and its checksum take: exact
// when every length was read, else a lower bound. ok is false when what
// was read is not a sound start of a body (a mistyped code, not a short
// one).
func inviteBodyNeed(b []byte) (need int, exact, ok bool) {
	if len(b) == 0 {
		return 1, false, true
	}
	i := 1
	switch b[0] {
	case keyRawEd25519:
		i += ed25519.PublicKeySize
	case keyPeerID:
		n, k := binary.Uvarint(b[i:])
		if k == 0 {
			return len(b) + 1, false, true
		}
		if k < 0 || n == 0 || n > maxInviteBody {
			return 0, false, false
		}
		i += k + int(n)
	default:
		return 0, false, false
	}
	if i >= len(b) {
		return max(i+1, len(b)+1), false, true
	}
	minutes, k := binary.Uvarint(b[i:])
	if k == 0 {
		return len(b) + 1, false, true
	}
	if k < 0 || minutes == 0 || minutes > 1<<40 || issuedInWindow(time.Unix(int64(minutes)*60, 0)) != nil {
		return 0, false, false
	}
	i += k
	count, k := binary.Uvarint(b[i:])
	if k == 0 {
		return len(b) + 1, false, true
	}
	if k < 0 || count > InviteMaxAddrs {
		return 0, false, false
	}
	i += k
	for a := range count {
		n, k := binary.Uvarint(b[i:])
		if k == 0 {
			return len(b) + 1, false, true
		}
		if k < 0 || n == 0 || n > maxInviteBody {
			return 0, false, false
		}
		i += k
		if i+int(n) > len(b) {
			return i + int(n) + checksumLen, a+1 == count, true
		}
		if _, err := ma.NewMultiaddrBytes(b[i : i+int(n)]); err != nil {
			return 0, false, false
		}
		i += int(n)
	}
	return i + checksumLen, true, true
}

// issuedInWindow checks a compact code's issue time: there must be one,
// at most InviteMaxSkew ahead of this clock and at most InviteMaxAge
// behind it.
func issuedInWindow(issued time.Time) error {
	if issued.IsZero() {
		return fmt.Errorf("%w: it carries no issue time: ask the host for a new one", ErrInviteFormat)
	}
	age := inviteNow().Sub(issued)
	switch {
	case age > InviteMaxAge:
		return fmt.Errorf("%w: made %s ago (codes last %s): ask the host for a new one", ErrInviteStale, roundAge(age), roundAge(InviteMaxAge))
	case -age > InviteMaxSkew:
		return fmt.Errorf("%w: made %s from now: check this computer's clock, or ask the host for a new code", ErrInviteFuture, roundAge(-age))
	}
	return nil
}

// parseLegacyInvite reads the older form, comma-separated multiaddrs
// ending in /p2p/<ID>: at most InviteMaxAddrs of them, counted before any
// is parsed, all of one peer (see peerAddr).
func parseLegacyInvite(clean string) (Invite, error) {
	n := 0
	for part := range strings.SplitSeq(clean, ",") {
		if part != "" {
			n++
		}
	}
	if n > InviteMaxAddrs {
		return Invite{}, fmt.Errorf("%w: %d addresses, a code carries at most %d", ErrInviteFormat, n, InviteMaxAddrs)
	}
	ai, err := ParseAddrs(clean)
	if err == nil {
		ai.Addrs, err = peerAddrs(ai.ID, ai.Addrs)
	}
	if err != nil {
		return Invite{}, fmt.Errorf("%w: %w", ErrInviteFormat, err)
	}
	return Invite{Peer: ai.ID, Addrs: ai.Addrs}, nil
}

// peerAddrs checks every address of an invite with peerAddr.
func peerAddrs(id peer.ID, addrs []ma.Multiaddr) ([]ma.Multiaddr, error) {
	out := make([]ma.Multiaddr, 0, len(addrs))
	for i, a := range addrs {
		a, err := peerAddr(id, a)
		if err != nil {
			return nil, fmt.Errorf("address %d: %w", i+1, err)
		}
		out = append(out, a)
	}
	return out, nil
}

// peerAddr returns a, an address an invite gives for peer id, without a
// final /p2p/<id>, or why it is not one of id's: a code naming one host
// must not send its joiner to another. The only other peer an address may
// name is a relay, as /p2p/<relay>/p2p-circuit.
func peerAddr(id peer.ID, a ma.Multiaddr) (ma.Multiaddr, error) {
	t, last := peer.SplitAddr(a)
	if last != "" && last != id {
		return nil, fmt.Errorf("it leads to peer %s, not to the host %s", last, id)
	}
	if len(t) == 0 {
		return nil, errors.New("no transport in it")
	}
	for i, c := range t {
		if c.Code() == ma.P_P2P && (i+1 == len(t) || t[i+1].Code() != ma.P_CIRCUIT) {
			return nil, fmt.Errorf("it leads to peer %s, not through a relay to the host %s", c.Value(), id)
		}
	}
	return t, nil
}

// lookalikePrefix reads the letters of "SALVO" typed as 5, 1 or 0.
func lookalikePrefix(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '5':
			return 'S'
		case '1', 'I':
			return 'L'
		case '0':
			return 'O'
		}
		return r
	}, s)
}

// mapSymbol reads the lookalikes Crockford's alphabet leaves out.
func mapSymbol(r rune) rune {
	switch r {
	case 'I', 'L':
		return '1'
	case 'O':
		return '0'
	case 'U':
		return 'V'
	}
	return r
}

// decodeInviteBody reads what EncodeInvite wrote before the checksum.
func decodeInviteBody(b []byte) (Invite, error) {
	var inv Invite
	if len(b) == 0 {
		return inv, errors.New("empty body")
	}
	kind := b[0]
	b = b[1:]
	switch kind {
	case keyRawEd25519:
		if len(b) < ed25519.PublicKeySize {
			return inv, errors.New("short key")
		}
		pk, err := crypto.UnmarshalEd25519PublicKey(b[:ed25519.PublicKeySize])
		if err != nil {
			return inv, fmt.Errorf("key: %w", err)
		}
		if inv.Peer, err = peer.IDFromPublicKey(pk); err != nil {
			return inv, fmt.Errorf("key: %w", err)
		}
		b = b[ed25519.PublicKeySize:]
	case keyPeerID:
		n, k := binary.Uvarint(b)
		if k <= 0 || n == 0 || n > uint64(len(b)-k) {
			return inv, errors.New("bad peer ID length")
		}
		id, err := peer.IDFromBytes(b[k : k+int(n)])
		if err != nil {
			return inv, fmt.Errorf("peer ID: %w", err)
		}
		inv.Peer = id
		b = b[k+int(n):]
	default:
		return inv, fmt.Errorf("unknown key kind %d", kind)
	}
	minutes, k := binary.Uvarint(b)
	if k <= 0 || minutes > 1<<40 {
		return inv, errors.New("bad issue time")
	}
	b = b[k:]
	if minutes > 0 {
		inv.Issued = time.Unix(int64(minutes)*60, 0).UTC()
	}
	count, k := binary.Uvarint(b)
	if k <= 0 {
		return inv, errors.New("bad address count")
	}
	if count > InviteMaxAddrs {
		return inv, fmt.Errorf("%d addresses, a code carries at most %d", count, InviteMaxAddrs)
	}
	b = b[k:]
	for range count {
		n, k := binary.Uvarint(b)
		if k <= 0 || n == 0 || n > uint64(len(b)-k) {
			return inv, errors.New("bad address length")
		}
		a, err := ma.NewMultiaddrBytes(b[k : k+int(n)])
		if err != nil {
			return inv, fmt.Errorf("address: %w", err)
		}
		inv.Addrs = append(inv.Addrs, a)
		b = b[k+int(n):]
	}
	if len(b) != 0 {
		return inv, fmt.Errorf("%d bytes after the addresses", len(b))
	}
	return inv, nil
}

func roundAge(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%d days", int(d/(24*time.Hour)))
	case d >= 2*time.Hour:
		return fmt.Sprintf("%d hours", int(d/time.Hour))
	}
	return d.Round(time.Minute).String()
}

// ConnectInvite dials the host an invite names: for a short code, the
// addresses the DHT has for its peer ID (findInvitee); else its addresses (relay ones
// included; the relays become this host's own, see UseRelays) and, after
// a failed attempt when the DHT is on, the addresses the DHT knows for its
// peer ID now; failed attempts are retried with backoff until ctx ends
// (connectPatiently). An error wraps ErrUnreachable and says when the
// code is probably stale.
func (h *Host) ConnectInvite(ctx context.Context, inv Invite) (peer.ID, error) {
	if inv.Peer == h.ID() {
		return "", fmt.Errorf("p2p: connect: %s is this host", inv.Peer)
	}
	if inv.Short() {
		// The DHT's answer is only a hint: the connection is secured
		// to inv.Peer's key, so an address someone else announced for
		// it leads nowhere (a failed handshake), never to them.
		ai, err := h.findInvitee(ctx, inv.Peer)
		if err != nil {
			return "", fmt.Errorf("p2p: connect to %s: %w: %w", inv.Peer, ErrUnreachable, err)
		}
		inv.Addrs = ai.Addrs
	}
	if slices.ContainsFunc(inv.Addrs, IsRelayAddr) {
		// The code is enough: its relays are this host's relays and
		// bootstrap peers too, so DCUtR is up before the host punches.
		h.UseRelays(ctx, inviteRelays(inv))
		h.WaitHolePunchReady(ctx)
	}
	err := h.connectPatiently(ctx, inv.AddrInfo())
	if err == nil {
		return inv.Peer, nil
	}
	hint := ""
	if !inv.Issued.IsZero() {
		if age := inviteNow().Sub(inv.Issued); age > time.Hour {
			hint = fmt.Sprintf(" (the code is %s old: it is probably stale, ask the host for a new one)", roundAge(age))
		}
	}
	return "", fmt.Errorf("p2p: connect to %s: %w%s: %w", inv.Peer, ErrUnreachable, hint, err)
}
