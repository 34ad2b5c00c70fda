package p2p

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// Address errors, wrapped with the offending text.
var (
	// ErrBadAddr means a string is not a valid multiaddr.
	ErrBadAddr = errors.New("malformed multiaddr")
	// ErrNoPeerID means a multiaddr lacks its final /p2p/<ID> part.
	ErrNoPeerID = errors.New("multiaddr has no /p2p/<peer ID> part")
	// ErrMixedPeers means a list of multiaddrs names more than one peer.
	ErrMixedPeers = errors.New("multiaddrs name different peers")
)

// ParseAddrs parses one multiaddr, or several separated by commas (spaces
// and empty items are ignored), each ending in /p2p/<ID> of the same peer.
// A bare /p2p/<ID> is accepted too (the peerstore must then know where the
// peer is).
func ParseAddrs(s string) (peer.AddrInfo, error) {
	var addrs []ma.Multiaddr
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		a, err := ma.NewMultiaddr(part)
		if err != nil {
			return peer.AddrInfo{}, fmt.Errorf("p2p: address %q: %w: %w", part, ErrBadAddr, err)
		}
		if _, err := a.ValueForProtocol(ma.P_P2P); err != nil {
			return peer.AddrInfo{}, fmt.Errorf("p2p: address %q: %w", part, ErrNoPeerID)
		}
		addrs = append(addrs, a)
	}
	if len(addrs) == 0 {
		return peer.AddrInfo{}, fmt.Errorf("p2p: address %q: %w: empty", s, ErrBadAddr)
	}
	infos, err := peer.AddrInfosFromP2pAddrs(addrs...)
	if err != nil {
		return peer.AddrInfo{}, fmt.Errorf("p2p: address %q: %w: %w", s, ErrBadAddr, err)
	}
	if len(infos) != 1 {
		return peer.AddrInfo{}, fmt.Errorf("p2p: address %q: %w (%d peers)", s, ErrMixedPeers, len(infos))
	}
	return infos[0], nil
}

// Connect dials the peer named by addr (see ParseAddrs) and returns its ID
// once a connection is up (or already was).
func (h *Host) Connect(ctx context.Context, addr string) (peer.ID, error) {
	ai, err := ParseAddrs(addr)
	if err != nil {
		return "", err
	}
	if ai.ID == h.ID() {
		return "", fmt.Errorf("p2p: connect: %s is this host", ai.ID)
	}
	if err := h.h.Connect(ctx, ai); err != nil {
		return "", fmt.Errorf("p2p: connect to %s: %w", ai.ID, err)
	}
	h.log.Debug("connected", "peer", ShortID(ai.ID))
	return ai.ID, nil
}
