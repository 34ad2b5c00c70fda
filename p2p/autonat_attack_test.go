package p2p

import (
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/autonatv2"
	"github.com/libp2p/go-libp2p/p2p/protocol/autonatv2/pb"
	"github.com/libp2p/go-msgio/pbio"
)

// Every Salvo host now answers AutoNAT v2 dial requests (libp2p enables
// the server with the client). A peer that floods them is turned away by
// libp2p's per-peer rate (12 a minute) with E_REQUEST_REJECTED, never
// gets a dial to a private address, and the host still plays a match.
func TestAttackAutoNATv2RequestFlood(t *testing.T) {
	a := newHost(t, Config{ListenAddrs: loopTCP})
	hostile := plainHost(t, false)
	ctx := ctxT(t, 30*time.Second)
	if err := hostile.Connect(ctx, peer.AddrInfo{ID: a.ID(), Addrs: a.h.Addrs()}); err != nil {
		t.Fatal(err)
	}
	const requests = 30
	statuses := map[pb.DialResponse_ResponseStatus]int{}
	for i := range requests {
		s, err := hostile.NewStream(ctx, a.ID(), autonatv2.DialProtocol)
		if err != nil {
			t.Fatal(err)
		}
		req := &pb.Message{Msg: &pb.Message_DialRequest{DialRequest: &pb.DialRequest{
			Addrs: [][]byte{hostile.Addrs()[0].Bytes()}, Nonce: uint64(i + 1)}}}
		if err := pbio.NewDelimitedWriter(s).WriteMsg(req); err != nil {
			t.Fatal(err)
		}
		var resp pb.Message
		if err := pbio.NewDelimitedReader(s, 8<<10).ReadMsg(&resp); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		s.Close()
		dr := resp.GetDialResponse()
		if dr == nil {
			t.Fatalf("request %d: answer %v, want a dial response", i, &resp)
		}
		if dr.GetDialStatus() == pb.DialStatus_OK {
			t.Fatalf("request %d: the host dialed a loopback address back", i)
		}
		statuses[dr.GetStatus()]++
	}
	t.Logf("answers to %d dial requests: %v", requests, statuses)
	if statuses[pb.DialResponse_E_REQUEST_REJECTED] < requests-12 {
		t.Fatalf("only %d of %d requests rejected", statuses[pb.DialResponse_E_REQUEST_REJECTED], requests)
	}
	b := newHost(t, Config{ListenAddrs: loopTCP})
	if _, err := b.Connect(ctx, fullAddr(a)); err != nil {
		t.Fatal(err)
	}
	matchPair(t, b, a)
}
