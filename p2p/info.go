package p2p

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/fairness/untrusted"
)

// ErrBadInfo means an info answer (or a name or offer) is not acceptable.
var ErrBadInfo = errors.New("bad info")

// Info is what a Salvo host says about itself on InfoProtocol.
//
// The exchange: the asker opens a stream and closes its write side; the
// answerer writes one frame holding the JSON object {"name":..., "offer":...}
// (at most MaxInfo bytes; unknown fields are ignored) and closes.
type Info struct {
	// Name is the display name.
	Name string `json:"name"`
	// Offer is the game this host offers to play, "" when idle.
	Offer string `json:"offer"`
}

// EncodeInfo is the answer payload for i, checked like DecodeInfo checks it.
func EncodeInfo(i Info) ([]byte, error) {
	if err := i.check(); err != nil {
		return nil, err
	}
	b, err := json.Marshal(i)
	if err != nil {
		return nil, fmt.Errorf("p2p: encode info: %w", err)
	}
	if len(b) > MaxInfo { // cannot happen with the field limits, kept as a guard
		return nil, fmt.Errorf("p2p: encode info: %w: %d bytes, limit %d", ErrBadInfo, len(b), MaxInfo)
	}
	return b, nil
}

// DecodeInfo parses and checks an info answer: at most MaxInfo bytes, one
// JSON object, name and offer within their limits and free of control,
// format and line-separator characters.
func DecodeInfo(b []byte) (Info, error) {
	if len(b) > MaxInfo {
		return Info{}, fmt.Errorf("p2p: decode info: %w: %d bytes, limit %d", ErrBadInfo, len(b), MaxInfo)
	}
	if t := bytes.TrimLeft(b, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return Info{}, fmt.Errorf("p2p: decode info: %w: not a JSON object", ErrBadInfo)
	}
	var i Info
	if err := json.Unmarshal(b, &i); err != nil {
		return Info{}, fmt.Errorf("p2p: decode info: %w: %w", ErrBadInfo, err)
	}
	if err := i.check(); err != nil {
		return Info{}, err
	}
	return i, nil
}

// check applies the name and offer rules.
func (i Info) check() error {
	if err := checkName(i.Name); err != nil {
		return fmt.Errorf("p2p: info: %w", err)
	}
	if err := checkText("offer", i.Offer, MaxOfferBytes); err != nil {
		return fmt.Errorf("p2p: info: %w", err)
	}
	return nil
}

// checkText is the rule for names and offers shown on other players'
// screens: at most max bytes, and the character rule of package untrusted
// (valid UTF-8, no control, format or line/paragraph separator characters).
func checkText(what, s string, max int) error {
	if len(s) > max {
		return fmt.Errorf("%w: %s is %d bytes, limit %d", ErrBadInfo, what, len(s), max)
	}
	if err := untrusted.CheckText(s, max); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrBadInfo, what, err)
	}
	return nil
}

// checkName is the display-name rule (untrusted.ValidateName) as an info
// error.
func checkName(name string) error {
	if err := untrusted.ValidateName(name); err != nil {
		return fmt.Errorf("%w: name: %w", ErrBadInfo, err)
	}
	return nil
}

// SetOffer sets the game this host offers ("" for none), answered from now
// on to info queries. It refuses an offer that breaks the text rules.
func (h *Host) SetOffer(offer string) error {
	if err := checkText("offer", offer, MaxOfferBytes); err != nil {
		return fmt.Errorf("p2p: set offer: %w", err)
	}
	h.mu.Lock()
	h.offer = offer
	h.mu.Unlock()
	return nil
}

// Offer is the current offer.
func (h *Host) Offer() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.offer
}

// QueryInfo asks p for its name and offer, dialing it if needed (relayed
// connections allowed), within InfoTimeout at most.
func (h *Host) QueryInfo(ctx context.Context, p peer.ID) (Info, error) {
	if p == h.ID() {
		return Info{Name: h.Name(), Offer: h.Offer()}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, InfoTimeout)
	defer cancel()
	s, err := h.h.NewStream(network.WithAllowLimitedConn(ctx, "salvo-info"), p, InfoProtocol)
	if err != nil {
		return Info{}, fmt.Errorf("p2p: query info of %s: %w", p, err)
	}
	deadline, _ := ctx.Deadline()
	_ = s.SetDeadline(deadline)
	// There is no request body. The answerer may already have closed the
	// stream (over QUIC that cancels our write side), so a failing
	// half-close is not an error.
	_ = s.CloseWrite()
	b, err := ReadFrame(s, MaxInfo)
	if err != nil {
		_ = s.Reset()
		return Info{}, fmt.Errorf("p2p: query info of %s: %w", p, err)
	}
	_ = s.Close()
	i, err := DecodeInfo(b)
	if err != nil {
		return Info{}, fmt.Errorf("p2p: query info of %s: %w", p, err)
	}
	return i, nil
}

// handleInfo answers an info query.
func (h *Host) handleInfo(s network.Stream) {
	_ = s.SetDeadline(time.Now().Add(InfoTimeout))
	b, err := EncodeInfo(Info{Name: h.Name(), Offer: h.Offer()})
	if err == nil {
		err = WriteFrame(s, b)
	}
	if err != nil {
		h.log.Debug("info answer failed", "peer", ShortID(s.Conn().RemotePeer()), "err", err)
		_ = s.Reset()
		return
	}
	_ = s.Close()
}
