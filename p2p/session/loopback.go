package session

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/p2p"
)

// LoopbackConfig sets up two Salvo hosts on 127.0.0.1, for a practice match
// against a bot or a selfplay between bots: the whole protocol runs over a
// real libp2p connection (Noise, yamux, the match stream), only on one
// machine.
type LoopbackConfig struct {
	Offer Offer
	// Names of the host (seat 0) and the guest (seat 1).
	HostName, GuestName string
	// Keys of the host and the guest; nil means a fresh ephemeral key.
	HostKey, GuestKey crypto.PrivKey
	// Transport is "tcp" (the default) or "quic".
	Transport string
	// Delay, if set, puts a slow link in front of each host that holds
	// every byte this long each way (TCP only): a match then shows what
	// its flights cost on a slow link.
	Delay  time.Duration
	Logger *slog.Logger
}

// Pair is two loopback hosts with an agreed match between them.
type Pair struct {
	Hosts [2]*p2p.Host
	Keys  [2]crypto.PrivKey
	Seats [2]*Match

	fronts []*slowFront
}

// Close closes both hosts (and with them the match stream).
func (p *Pair) Close() error {
	var errs []error
	for _, h := range p.Hosts {
		if h != nil {
			errs = append(errs, h.Close())
		}
	}
	return errors.Join(append(errs, closeFronts(p.fronts))...)
}

func loopbackListen(transport string) ([]string, error) {
	switch transport {
	case "", "tcp":
		return []string{"/ip4/127.0.0.1/tcp/0"}, nil
	case "quic":
		return []string{"/ip4/127.0.0.1/udp/0/quic-v1"}, nil
	}
	return nil, fmt.Errorf("loopback: transport %q, want tcp or quic", transport)
}

// Loopback starts two hosts, connects the guest to the host, opens the
// match stream and runs the handshake on both sides.
func Loopback(ctx context.Context, cfg LoopbackConfig) (*Pair, error) {
	listen, err := loopbackListen(cfg.Transport)
	if err != nil {
		return nil, err
	}
	fronts, err := slowFronts(2, cfg.Transport, cfg.Delay)
	if err != nil {
		return nil, fmt.Errorf("loopback: %w", err)
	}
	p := &Pair{Keys: [2]crypto.PrivKey{cfg.HostKey, cfg.GuestKey}, fronts: fronts}
	names := [2]string{cfg.HostName, cfg.GuestName}
	for i := range p.Hosts {
		if p.Keys[i] == nil {
			if p.Keys[i], _, err = crypto.GenerateEd25519Key(nil); err != nil {
				return nil, fmt.Errorf("loopback: key: %w", err)
			}
		}
		h, err := p2p.New(ctx, fronts[i].hostConfig(p2p.Config{Key: p.Keys[i], ListenAddrs: listen, Name: names[i], Logger: cfg.Logger}))
		if err != nil {
			p.Close()
			return nil, fmt.Errorf("loopback: %w", err)
		}
		p.Hosts[i] = h
	}
	fail := func(err error) (*Pair, error) {
		p.Close()
		return nil, fmt.Errorf("loopback: %w", err)
	}
	id, err := p.Hosts[1].Connect(ctx, p.Hosts[0].Invite())
	if err != nil {
		return fail(err)
	}
	type hosted struct {
		m   *Match
		err error
	}
	done := make(chan hosted, 1)
	go func() {
		select {
		case c := <-p.Hosts[0].Incoming():
			m, err := Host(ctx, c, Self{Key: p.Keys[0], Name: names[0]}, cfg.Offer)
			done <- hosted{m, err}
		case <-ctx.Done():
			done <- hosted{nil, ctx.Err()}
		}
	}()
	c, err := p.Hosts[1].OpenMatch(ctx, id)
	if err != nil {
		return fail(err)
	}
	guest, err := Join(ctx, c, Self{Key: p.Keys[1], Name: names[1]}, nil)
	h := <-done
	if err != nil {
		return fail(err)
	}
	if h.err != nil {
		return fail(h.err)
	}
	p.Seats = [2]*Match{h.m, guest}
	return p, nil
}
