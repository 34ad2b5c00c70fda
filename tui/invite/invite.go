// Package invite is the interface's one place for invite codes: what the
// host screen shows, what the join screen accepts, and how a code is laid
// out on screen.
//
// Codes are package p2p's: the compact form ("SALVO1-" and groups of five
// symbols, with a checksum, an issue time and the host's useful addresses,
// relay addresses included), and the older comma-separated multiaddrs,
// which are still accepted.
package invite

import (
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/p2p"
)

// Target is the host a code names.
type Target struct {
	// ID is the host's peer ID.
	ID peer.ID
	// Addrs is how many addresses the code gives, Relayed how many of them
	// go through a relay.
	Addrs, Relayed int
	// Issued is when the code was made (zero for the older form).
	Issued time.Time
	// Invite is the code, as p2p.Host.ConnectInvite dials it.
	Invite p2p.Invite
}

// ErrEmpty is returned by Parse for a code with nothing in it.
var ErrEmpty = p2p.ErrInviteEmpty

// Code returns the invite code of a host: the short one (the peer ID and
// a checksum, looked up in the public DHT) when the DHT can find the host,
// else the long one with its addresses.
func Code(h *p2p.Host) string {
	if code, ok := h.ShortInviteCode(); ok {
		return code
	}
	return h.InviteCode()
}

// FromPeer returns the code of a peer found on the LAN.
func FromPeer(p p2p.PeerInfo) string {
	return p2p.EncodeInvite(p2p.Invite{Peer: p.ID, Addrs: p.Addrs, Issued: time.Now()})
}

// Parse reads a code as typed or pasted (case, spaces, dashes and line
// breaks do not matter). The error says what is wrong, in words fit for the
// join screen.
func Parse(code string) (Target, error) {
	inv, err := p2p.ParseInvite(code)
	if err != nil {
		return Target{}, err
	}
	t := Target{ID: inv.Peer, Addrs: len(inv.Addrs), Issued: inv.Issued, Invite: inv}
	for _, a := range inv.Addrs {
		if p2p.IsRelayAddr(a) {
			t.Relayed++
		}
	}
	return t, nil
}

// Lines lays a code out in lines of at most width cells, breaking only
// between its groups (after a dash, or after a comma in the older form),
// so that it reads well aloud and copies whole.
func Lines(code string, width int) []string {
	sep := "-"
	if strings.Contains(code, ",") || strings.HasPrefix(code, "/") {
		sep = ","
	}
	parts := strings.SplitAfter(code, sep)
	var lines []string
	cur := ""
	for _, p := range parts {
		if cur != "" && len(cur)+len(p) > width {
			lines = append(lines, cur)
			cur = ""
		}
		for len(p) > width {
			lines = append(lines, p[:width])
			p = p[width:]
		}
		cur += p
	}
	if cur != "" || len(lines) == 0 {
		lines = append(lines, cur)
	}
	return lines
}
