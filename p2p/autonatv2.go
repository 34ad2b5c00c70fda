package p2p

import (
	"context"
	"fmt"
	"time"

	ma "github.com/multiformats/go-multiaddr"
)

// confirmer is the part of go-libp2p's basic host that reports AutoNAT
// v2's verdicts (experimental in v0.51, so asked for by interface).
type confirmer interface {
	ConfirmedAddrs() (reachable, unreachable, unknown []ma.Multiaddr)
}

// ConfirmedAddrs are this host's addresses that AutoNAT v2 has confirmed
// reachable from the internet, those it found unreachable, and the public
// ones it has no verdict on yet (untested: a NAT's address appears here
// once four peers have reported seeing it, before any dial-back). Each
// verdict needs two agreeing dial-backs from different AutoNAT v2 servers
// (any Salvo peer or libp2p node with a public address), so both are
// empty until the host knows two of them; only public addresses are ever
// tested.
func (h *Host) ConfirmedAddrs() (reachable, unreachable, untested []ma.Multiaddr) {
	c, ok := h.h.(confirmer)
	if !ok {
		return nil, nil, nil
	}
	return c.ConfirmedAddrs()
}

// WaitConfirmedAddrs waits until AutoNAT v2 has a verdict on at least one
// address, reachable or not, or ctx ends.
func (h *Host) WaitConfirmedAddrs(ctx context.Context) error {
	for {
		if r, u, _ := h.ConfirmedAddrs(); len(r)+len(u) > 0 {
			return nil
		}
		if !sleepCtx(ctx, 250*time.Millisecond) {
			return fmt.Errorf("p2p: wait for AutoNAT v2: %w", ctx.Err())
		}
	}
}
