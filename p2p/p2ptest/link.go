// Package p2ptest holds helpers for tests of Salvo's networking on real
// loopback libp2p hosts.
package p2ptest

import (
	"io"
	"net"
	"strconv"
	"sync/atomic"
	"testing"

	ma "github.com/multiformats/go-multiaddr"

	"github.com/salvo-game/salvo/p2p"
)

// LinkProxy forwards a host's TCP connections or QUIC packets on loopback
// until cut: from then on it swallows every byte in both directions and
// sends nothing, not even a reset, as a link does whose far end was killed
// behind a NAT (or over QUIC, on any network), or whose cable was pulled.
type LinkProxy struct {
	cut atomic.Bool
}

// NewLinkProxy starts a proxy to the host's loopback address on transport
// ("tcp" or "quic") and returns it with its own address, a multiaddr of
// the host's peer to connect to; it stops with the test.
func NewLinkProxy(t testing.TB, to *p2p.Host, transport string) (*LinkProxy, string) {
	t.Helper()
	proto, suffix := ma.P_TCP, ""
	if transport == "quic" {
		proto, suffix = ma.P_UDP, "/quic-v1"
	}
	target := ""
	for _, a := range to.Libp2p().Network().ListenAddresses() {
		ip, err1 := a.ValueForProtocol(ma.P_IP4)
		port, err2 := a.ValueForProtocol(proto)
		_, quic := a.ValueForProtocol(ma.P_QUIC_V1)
		if err1 == nil && err2 == nil && (quic == nil) == (transport == "quic") {
			target = net.JoinHostPort(ip, port)
		}
	}
	if target == "" {
		t.Fatalf("the host listens on no loopback %s address", transport)
	}
	p := &LinkProxy{}
	var port int
	if transport == "quic" {
		port = p.startUDP(t, target)
	} else {
		port = p.startTCP(t, target)
	}
	return p, ma.StringCast("/ip4/127.0.0.1/" + ma.ProtocolWithCode(proto).Name + "/" + strconv.Itoa(port) + suffix + "/p2p/" + to.ID().String()).String()
}

// Cut makes the link swallow everything from now on, for good.
func (p *LinkProxy) Cut() { p.cut.Store(true) }

// startTCP forwards connections to target; it returns its port.
func (p *LinkProxy) startTCP(t testing.TB, target string) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
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
	}()
	return ln.Addr().(*net.TCPAddr).Port
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

// startUDP forwards datagrams to target, each client from a socket of its
// own; it returns its port.
func (p *LinkProxy) startUDP(t testing.TB, target string) int {
	to, err := net.ResolveUDPAddr("udp", target)
	if err != nil {
		t.Fatal(err)
	}
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	go func() {
		ups := map[string]*net.UDPConn{}
		defer func() {
			for _, u := range ups {
				u.Close()
			}
		}()
		buf := make([]byte, 64<<10)
		for {
			n, from, err := pc.ReadFromUDP(buf)
			if err != nil {
				return
			}
			if p.cut.Load() {
				continue
			}
			u := ups[from.String()]
			if u == nil {
				if u, err = net.DialUDP("udp", nil, to); err != nil {
					continue
				}
				ups[from.String()] = u
				go p.back(pc, u, from)
			}
			_, _ = u.Write(buf[:n])
		}
	}()
	return pc.LocalAddr().(*net.UDPAddr).Port
}

// back forwards the target's datagrams on u to the client at from until
// the proxy is cut or closed.
func (p *LinkProxy) back(pc *net.UDPConn, u *net.UDPConn, from *net.UDPAddr) {
	b := make([]byte, 64<<10)
	for {
		n, err := u.Read(b)
		if err != nil {
			return
		}
		if !p.cut.Load() {
			_, _ = pc.WriteToUDP(b[:n], from)
		}
	}
}
