// Package p2ptest holds helpers for tests of Salvo's networking on real
// loopback libp2p hosts.
package p2ptest

import (
	"io"
	"net"
	"sync/atomic"
	"testing"

	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/salvo-game/salvo/p2p"
)

// LinkProxy forwards TCP connections on loopback to target until cut:
// from then on it swallows every byte in both directions and sends
// nothing, not even a reset, as a link does whose far end was killed
// behind a NAT, or whose cable was pulled.
type LinkProxy struct {
	ln  net.Listener
	cut atomic.Bool
}

// NewLinkProxy starts a proxy to the host's TCP address and returns it with
// its address as a multiaddr of the host's peer, to connect to; it stops
// with the test.
func NewLinkProxy(t testing.TB, to *p2p.Host) (*LinkProxy, string) {
	t.Helper()
	var target net.Addr
	for _, a := range to.Libp2p().Network().ListenAddresses() {
		if na, err := manet.ToNetAddr(a); err == nil && na.Network() == "tcp" {
			target = na
		}
	}
	if target == nil {
		t.Fatal("the host listens on no TCP address")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &LinkProxy{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go p.serve(target.String())
	addr, err := manet.FromNetAddr(ln.Addr())
	if err != nil {
		t.Fatal(err)
	}
	return p, addr.Encapsulate(ma.StringCast("/p2p/" + to.ID().String())).String()
}

// Cut makes the link swallow everything from now on, for good.
func (p *LinkProxy) Cut() { p.cut.Store(true) }

func (p *LinkProxy) serve(target string) {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		u, err := net.Dial("tcp", target)
		if err != nil {
			c.Close()
			continue
		}
		go p.pipe(u, c)
		go p.pipe(c, u)
	}
}

// pipe copies src to dst until the proxy is cut, then reads src to its
// end and drops it all (dst is never written or closed again).
func (p *LinkProxy) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && !p.cut.Load() {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	if !p.cut.Load() {
		dst.Close()
	}
	_, _ = io.Copy(io.Discard, src)
}
