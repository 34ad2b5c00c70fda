// Package watch lets spectators follow a live match: the read-only
// /salvo/watch/1 protocol, served by every player of a match its host
// opened to watchers (fairness.Header.Watch) and by every spectator of
// it, and the spectator's side, which checks every line with the audit's
// own checks (fairness.LiveAudit) before it shows it or passes it on.
//
//	spectator → server   {"t":"watch","match":"<match ID, or empty for the one it plays>","from":N[,"direct":true]}
//	server → spectator   {"t":"ok","match":"<match ID>"}
//	                     then the record's lines N, N+1, … one frame each (line 1 is the header),
//	                     each as the server's player accepts it
//	                     {"t":"end","lines":L}     the record is complete at line L
//	                or   {"t":"busy","match":…,"peers":[{"peer":…,"addrs":[…]}…]}   ask one of these
//	                or   {"t":"decline","reason":…}
//
// The request is the only frame a spectator sends, on a stream of its
// own protocol: nothing a spectator says reaches a referee. Every peer
// serves at most MaxWatchers spectators at once; the others are sent to
// the peers it serves (who pass on what they verified) and to the other
// players, so that a player's upload is bounded by MaxWatchers copies of
// the record however many watch. A relaying spectator can only pass on
// lines its own players signed: one that changes, drops, reorders or
// invents a line is caught by the next spectator's checks, which name the
// line.
package watch

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/salvo-game/salvo/fairness/untrusted"
	"github.com/salvo-game/salvo/p2p"
)

// Protocol is the stream protocol of watching.
const Protocol protocol.ID = "/salvo/watch/1"

// House bounds of the watch protocol, on both sides.
const (
	// MaxWatchers is how many spectators one peer serves at once (K): a
	// player's upload for spectators is at most this many copies of the
	// record, however many watch.
	MaxWatchers = 3
	// MaxPeers bounds the peers of a busy answer, MaxAddrs each one's
	// addresses.
	MaxPeers = 8
	MaxAddrs = 8
	// MaxRecordLines bounds the lines a spectator takes of one record: no
	// match of Salvo's games comes near it.
	MaxRecordLines = 1 << 16
	// RequestRate and RequestBurst bound the requests one peer may make
	// of this one (per second, and at once after a quiet spell); one more
	// is refused (its stream reset) unread.
	RequestRate  = 1
	RequestBurst = 4
	// WriteTimeout bounds the sending of one frame: a spectator that
	// stops reading loses its place.
	WriteTimeout = 20 * time.Second
	// Linger is how long a player keeps serving a match after it ended
	// here, for spectators still catching up and late ones.
	Linger = 10 * time.Minute
)

// Kinds of the control frames.
const (
	tWatch   = "watch"
	tOK      = "ok"
	tEnd     = "end"
	tBusy    = "busy"
	tDecline = "decline"
)

// frame is a control frame: a request or a server's answer.
type frame struct {
	T      string     `json:"t"`
	Match  string     `json:"match,omitempty"`
	From   int        `json:"from,omitempty"`
	Direct bool       `json:"direct,omitempty"` // the peers a busy answer named all failed
	Lines  int        `json:"lines,omitempty"`
	Peers  []PeerInfo `json:"peers,omitempty"`
	Reason string     `json:"reason,omitempty"`
}

// PeerInfo is a peer a busy server sends a spectator on to.
type PeerInfo struct {
	Peer  string   `json:"peer"`
	Addrs []string `json:"addrs,omitempty"`
}

// controlPrefix starts every control frame; a record's lines start
// {"salvo": (the header), {"match":, {"closing": or {"raw":.
var controlPrefix = []byte(`{"t":`)

func isControl(b []byte) bool { return bytes.HasPrefix(b, controlPrefix) }

// decodeFrame strictly reads one control frame: known fields and kinds
// only, a request from line 1 up, a match ID of 64 hex digits where one
// is given, and a busy answer within MaxPeers and MaxAddrs.
func decodeFrame(b []byte) (frame, error) {
	var f frame
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return frame{}, fmt.Errorf("watch: malformed frame: %w", err)
	}
	if dec.More() {
		return frame{}, errors.New("watch: data after the frame")
	}
	if f.Match != "" && !validMatchID(f.Match) {
		return frame{}, fmt.Errorf("watch: match ID %q is not 64 hex digits", untrusted.Escape(f.Match))
	}
	switch f.T {
	case tWatch:
		if f.From < 1 || f.From > MaxRecordLines {
			return frame{}, fmt.Errorf("watch: from line %d", f.From)
		}
	case tOK:
		if f.Match == "" {
			return frame{}, errors.New("watch: ok names no match")
		}
	case tBusy:
		if len(f.Peers) > MaxPeers {
			return frame{}, fmt.Errorf("watch: busy answer names %d peers, at most %d", len(f.Peers), MaxPeers)
		}
		for _, p := range f.Peers {
			if len(p.Addrs) > MaxAddrs {
				return frame{}, fmt.Errorf("watch: busy answer gives %d addresses of a peer, at most %d", len(p.Addrs), MaxAddrs)
			}
		}
	case tEnd, tDecline:
	default:
		return frame{}, fmt.Errorf("watch: unknown frame kind %q", untrusted.Escape(f.T))
	}
	return f, nil
}

// validMatchID reports whether s is a match ID as headers spell it: 32
// bytes in lower-case hex.
func validMatchID(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == 32 && hex.EncodeToString(b) == s
}

func writeFrame(w io.Writer, f frame) error {
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return p2p.WriteFrame(w, b)
}

// addrInfo reads a busy answer's peer; bad entries are skipped.
func (p PeerInfo) addrInfo() (peer.AddrInfo, bool) {
	id, err := peer.Decode(p.Peer)
	if err != nil {
		return peer.AddrInfo{}, false
	}
	ai := peer.AddrInfo{ID: id}
	for _, s := range p.Addrs {
		if a, err := ma.NewMultiaddr(s); err == nil {
			ai.Addrs = append(ai.Addrs, a)
		}
	}
	return ai, true
}
