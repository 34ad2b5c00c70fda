package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/salvo-game/salvo/fairness"
)

// The group handshake's frame kinds, beyond the two-player ones (join,
// offer, accept, decline).
const (
	tJoin    = "join"
	tOffer   = "offer"
	tAccept  = "accept"
	tDecline = "decline"
	tReady   = "ready"
	tStart   = "start"
)

// maxGroupFrame bounds a handshake frame (a header of four players and
// their addresses is about 2 KB).
const maxGroupFrame = 64 << 10

// maxAddrs bounds the addresses a group offer lists for one player.
const maxAddrs = 32

// PeerAddrs is one player's peer ID and the addresses the host knows for
// it, so that the joiners can dial each other.
type PeerAddrs struct {
	Peer  string   `json:"peer"`
	Addrs []string `json:"addrs"`
}

// groupFrame is one frame of the group handshake:
//
//	joiner → host   {"t":"join","version":…,"name":…,"nonce":…}   the two-player join frame
//	host → joiner   {"t":"offer","header":{…},"peers":[{"peer":…,"addrs":[…]},…]}
//	joiner → host   {"t":"accept","match":…}  or {"t":"decline","reason":…}
//	joiner → host   {"t":"ready","match":…}   it sees every other player on the topic
//	host → joiner   {"t":"start","match":…}   every player is ready (or a decline)
type groupFrame struct {
	T       string           `json:"t"`
	Version string           `json:"version,omitempty"`
	Name    string           `json:"name,omitempty"`
	Nonce   string           `json:"nonce,omitempty"`
	Header  *fairness.Header `json:"header,omitempty"`
	Peers   []PeerAddrs      `json:"peers,omitempty"`
	Match   string           `json:"match,omitempty"`
	Reason  string           `json:"reason,omitempty"`
}

// decodeGroupFrame strictly decodes a handshake frame: one JSON object of
// known fields, a known kind, and the fields that kind needs.
func decodeGroupFrame(b []byte) (groupFrame, error) {
	var f groupFrame
	if len(b) > maxGroupFrame {
		return f, fmt.Errorf("frame of %d bytes, limit %d", len(b), maxGroupFrame)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return groupFrame{}, err
	}
	if dec.More() {
		return groupFrame{}, fmt.Errorf("data after the frame")
	}
	switch f.T {
	case tJoin:
		if f.Version == "" || f.Nonce == "" {
			return groupFrame{}, fmt.Errorf("join frame without version or nonce")
		}
	case tOffer:
		if f.Header == nil || len(f.Peers) != len(f.Header.Players) {
			return groupFrame{}, fmt.Errorf("offer frame without a header, or without the addresses of every player")
		}
		for _, p := range f.Peers {
			if len(p.Addrs) > maxAddrs {
				return groupFrame{}, fmt.Errorf("offer lists %d addresses for one player, limit %d", len(p.Addrs), maxAddrs)
			}
		}
	case tAccept, tReady, tStart:
		if f.Match == "" {
			return groupFrame{}, fmt.Errorf("%s frame without a match ID", f.T)
		}
	case tDecline:
	default:
		return groupFrame{}, fmt.Errorf("unknown frame kind %q", f.T)
	}
	return f, nil
}

func sendGroup(ctx context.Context, s Stream, f groupFrame) error {
	b, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("handshake: encode %s: %w", f.T, err)
	}
	if err := s.Send(ctx, b); err != nil {
		return fmt.Errorf("handshake: send %s: %w", f.T, err)
	}
	return nil
}

// recvGroup reads the next frame, which must be of kind want; a decline
// is returned as ErrDeclined with its reason.
func recvGroup(ctx context.Context, s Stream, want string) (groupFrame, error) {
	b, err := s.Recv(ctx)
	if err != nil {
		return groupFrame{}, fmt.Errorf("handshake: waiting for %s: %w", want, err)
	}
	f, err := decodeGroupFrame(b)
	if err != nil {
		return groupFrame{}, fmt.Errorf("handshake: malformed %s frame: %w", want, err)
	}
	if f.T == tDecline {
		return groupFrame{}, fmt.Errorf("%w: %s", ErrDeclined, f.Reason)
	}
	if f.T != want {
		return groupFrame{}, fmt.Errorf("handshake: got %q, want %q", f.T, want)
	}
	return f, nil
}
