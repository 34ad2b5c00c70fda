package p2p

import (
	"context"
	"fmt"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
)

// ResumeProtocol carries a match again after its stream was lost: the
// same frames as MatchProtocol, starting with the resume handshake of
// package session. It is apart from MatchProtocol so that a lobby reading
// Incoming never sees a resumed stream.
const ResumeProtocol protocol.ID = "/salvo/resume/1"

// OpenResume opens a ResumeProtocol stream to p, dialing it from the
// peerstore if needed, on the best connection there is (a direct one
// before a relayed one). Like OpenMatch it returns once p agreed to the
// protocol.
func (h *Host) OpenResume(ctx context.Context, p peer.ID) (*Conn, error) {
	if p == h.ID() {
		return nil, fmt.Errorf("p2p: open resume: %s is this host", p)
	}
	s, err := h.openNegotiated(ctx, p, ResumeProtocol)
	if err != nil {
		return nil, fmt.Errorf("p2p: open resume with %s: %w", p, err)
	}
	c, err := h.newConn(s, false)
	if err != nil {
		return nil, fmt.Errorf("p2p: open resume with %s: %w", p, err)
	}
	return c, nil
}

// HandleResume makes f receive incoming ResumeProtocol streams, each on
// its own goroutine; f owns the Conn. Nil (the default) refuses them.
func (h *Host) HandleResume(f func(*Conn)) {
	h.mu.Lock()
	h.resume = f
	h.mu.Unlock()
}

// handleResume is the libp2p stream handler for ResumeProtocol.
func (h *Host) handleResume(s network.Stream) {
	h.mu.Lock()
	f := h.resume
	h.mu.Unlock()
	if f == nil {
		_ = s.ResetWithError(network.StreamProtocolNegotiationFailed)
		return
	}
	c, err := h.newConn(s, true)
	if err != nil {
		return
	}
	f(c)
}
