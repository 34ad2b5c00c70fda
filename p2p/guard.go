package p2p

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/libp2p/go-libp2p/core/control"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// TestNetsEnv names the environment variable that puts a salvo process
// under the test network guard: tests that run the salvo binary (the
// network-namespace lab) set it to the CIDRs of their simulated public
// network, comma-separated ("7.0.0.0/24"), or to "none". A test binary
// (testing.Testing) is always guarded.
const TestNetsEnv = "SALVO_TEST_NETS"

// ErrOutsideTestNet is what the test network guard refuses with.
var ErrOutsideTestNet = errors.New("test network guard: address outside the test network")

// netGuard keeps tests off the internet: no test may reach any address
// but loopback, the machine's own, private ranges (the namespaces tests
// make) and the CIDRs of TestNetsEnv. Production processes have none.
type netGuard struct {
	allowed []netip.Prefix
	// refused holds the addresses the guard stopped (tests check there
	// are none); libp2p may ask about one address more than once.
	mu      sync.Mutex
	refused map[string]bool
}

// refuse records a refused address.
func (g *netGuard) refuse(a string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.refused == nil {
		g.refused = map[string]bool{}
	}
	g.refused[a] = true
}

var (
	guardOnce sync.Once
	guard     *netGuard
)

// testGuard returns the process's guard, nil outside tests.
func testGuard() *netGuard {
	guardOnce.Do(func() {
		env, set := os.LookupEnv(TestNetsEnv)
		if !set && !testing.Testing() {
			return
		}
		guard = newNetGuard(env)
	})
	return guard
}

// newNetGuard allows loopback, private, link-local and unique-local
// ranges, the machine's own addresses and the CIDRs in extra.
func newNetGuard(extra string) *netGuard {
	g := &netGuard{}
	for _, s := range []string{"127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "::1/128", "fc00::/7", "fe80::/10"} {
		g.allowed = append(g.allowed, netip.MustParsePrefix(s))
	}
	for s := range strings.SplitSeq(extra, ",") {
		if p, err := netip.ParsePrefix(strings.TrimSpace(s)); err == nil {
			g.allowed = append(g.allowed, p)
		}
	}
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if ipn, ok := a.(*net.IPNet); ok {
				if ip, ok := netip.AddrFromSlice(ipn.IP); ok {
					g.allowed = append(g.allowed, netip.PrefixFrom(ip.Unmap(), ip.Unmap().BitLen()))
				}
			}
		}
	}
	return g
}

// check says whether a may be dialed: an IP address inside the allowed
// ranges (a relay address counts by the relay's own transport address).
// DNS names are refused: resolving one already leaves the machine.
func (g *netGuard) check(a ma.Multiaddr) error {
	if len(a) > 0 && (a[0].Code() == ma.P_P2P || a[0].Code() == ma.P_CIRCUIT) {
		return nil // a circuit through a relay named or known: the relay's own dial is checked
	}
	ip, err := manet.ToIP(a)
	if err != nil {
		return fmt.Errorf("%w: %s (tests dial IP addresses only)", ErrOutsideTestNet, a)
	}
	addr, ok := netip.AddrFromSlice(ip)
	if ok {
		addr = addr.Unmap()
		for _, p := range g.allowed {
			if p.Contains(addr) {
				return nil
			}
		}
	}
	return fmt.Errorf("%w: %s (tests pass their own --bootstrap or --lan-only)", ErrOutsideTestNet, a)
}

// checkPeers checks configured bootstrap peers and relays before New
// starts anything: the public bootstrap list is refused here, before any
// name in it is resolved.
func (g *netGuard) checkPeers(what string, ais []peer.AddrInfo) error {
	for _, ai := range ais {
		for _, a := range ai.Addrs {
			if err := g.check(a); err != nil {
				g.refuse(a.String())
				return fmt.Errorf("%s %s: %w", what, ai.ID, err)
			}
		}
	}
	return nil
}

// GuardRefusals is how many addresses the test network guard has refused
// to dial in this process (always 0 outside tests): a test that sees more
// than none tried to leave the machine.
func GuardRefusals() int {
	if g := testGuard(); g != nil {
		g.mu.Lock()
		defer g.mu.Unlock()
		return len(g.refused)
	}
	return 0
}

// guardGater is the connection gater of a guarded host: it refuses to
// dial outside the test network, says so on stderr (the lab reads every
// process's output for it) and counts it; everything else is allowed.
type guardGater struct{ g *netGuard }

func (gg guardGater) InterceptPeerDial(peer.ID) bool { return true }

func (gg guardGater) InterceptAddrDial(p peer.ID, a ma.Multiaddr) bool {
	if err := gg.g.check(a); err != nil {
		gg.g.refuse(a.String())
		fmt.Fprintf(os.Stderr, "salvo: TEST GUARD: refused to dial %s at %s: %v\n", p, a, err)
		return false
	}
	return true
}

func (gg guardGater) InterceptAccept(network.ConnMultiaddrs) bool { return true }

func (gg guardGater) InterceptSecured(network.Direction, peer.ID, network.ConnMultiaddrs) bool {
	return true
}

func (gg guardGater) InterceptUpgraded(network.Conn) (bool, control.DisconnectReason) {
	return true, 0
}
