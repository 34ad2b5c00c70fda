package session

import (
	"errors"
	"fmt"
	"net"
	"time"

	ma "github.com/multiformats/go-multiaddr"

	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/slowlink"
)

// slowFront is a slow link in front of one loopback host: the host listens
// on a port of its own and announces only the link's, so every peer that
// dials it (the guest, and at a table every other player) goes through
// the link and waits its delay each way. It measures what a match's
// flights cost on a slow link (LoopbackConfig.Delay).
type slowFront struct {
	link   *slowlink.Proxy
	listen string       // the host's own listen address
	addr   ma.Multiaddr // the link's address, the only one announced
}

// newSlowFront picks a free loopback port for the host and starts a link
// to it with delay each way. The host must then listen on f.listen and
// announce with f.announce.
func newSlowFront(transport string, delay time.Duration) (*slowFront, error) {
	if transport != "" && transport != "tcp" {
		return nil, fmt.Errorf("a slow link needs transport tcp, not %q", transport)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("slow link: %w", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	if err := l.Close(); err != nil {
		return nil, fmt.Errorf("slow link: %w", err)
	}
	link, err := slowlink.Listen(fmt.Sprintf("127.0.0.1:%d", port), delay)
	if err != nil {
		return nil, err
	}
	addr, err := ma.NewMultiaddr(fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", link.Addr().Port))
	if err != nil {
		_ = link.Close()
		return nil, fmt.Errorf("slow link: %w", err)
	}
	return &slowFront{link: link, listen: fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", port), addr: addr}, nil
}

// announce is the host's AddrsFactory: the link's address only.
func (f *slowFront) announce([]ma.Multiaddr) []ma.Multiaddr { return []ma.Multiaddr{f.addr} }

// Close closes the link (nil-safe).
func (f *slowFront) Close() error {
	if f == nil {
		return nil
	}
	return f.link.Close()
}

// hostConfig returns c for a host behind f (c itself when f is nil).
func (f *slowFront) hostConfig(c p2p.Config) p2p.Config {
	if f != nil {
		c.ListenAddrs, c.AddrsFactory = []string{f.listen}, f.announce
	}
	return c
}

// slowFronts starts one slow front per host when delay is set (nil
// entries otherwise).
func slowFronts(n int, transport string, delay time.Duration) ([]*slowFront, error) {
	fronts := make([]*slowFront, n)
	if delay <= 0 {
		return fronts, nil
	}
	for i := range fronts {
		f, err := newSlowFront(transport, delay)
		if err != nil {
			closeFronts(fronts)
			return nil, err
		}
		fronts[i] = f
	}
	return fronts, nil
}

func closeFronts(fronts []*slowFront) error {
	var errs []error
	for _, f := range fronts {
		errs = append(errs, f.Close())
	}
	return errors.Join(errs...)
}
