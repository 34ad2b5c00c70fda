package main

import (
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p/session"
)

// salvo resume without network flags takes the saved match's relays and
// bootstrap peers; flags given on the command line win.
func TestResumeReusesSavedNetworkFlags(t *testing.T) {
	sv := session.Saved{Relays: []string{"/ip4/7.0.0.1/tcp/4001/p2p/R"}, Bootstrap: []string{"/ip4/7.0.0.1/tcp/4001/p2p/B"}}
	for _, tc := range []struct {
		args         []string
		relays, boot []string
	}{
		{nil, sv.Relays, sv.Bootstrap},
		{[]string{"--relay", "/ip4/8.0.0.1/tcp/1/p2p/X"}, []string{"/ip4/8.0.0.1/tcp/1/p2p/X"}, sv.Bootstrap},
		{[]string{"--bootstrap", "/ip4/8.0.0.1/tcp/1/p2p/Y"}, sv.Relays, []string{"/ip4/8.0.0.1/tcp/1/p2p/Y"}},
	} {
		fs := flag.NewFlagSet("salvo resume", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var nf netFlags
		nf.register(fs, "off")
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		nf.reuse(sv)
		if !slices.Equal(nf.relays, tc.relays) || !slices.Equal(nf.bootstrap, tc.boot) {
			t.Fatalf("args %v: relays %v bootstrap %v, want %v %v", tc.args, nf.relays, nf.bootstrap, tc.relays, tc.boot)
		}
	}
}

// salvo resume lists a table in progress with its other players' count,
// beside two-player matches with their opponent.
func TestResumeListsTables(t *testing.T) {
	h := fairness.Header{Game: "air", Variant: "standard", Players: make([]fairness.Player, 3)}
	var out strings.Builder
	listInProgress(session.Store{Dir: t.TempDir()}, []session.Saved{{Match: "m1", Header: h, Seat: 2, Group: true, Seq: 40}}, &out)
	if !strings.Contains(out.String(), "m1  air standard  seat 2  vs 2 other players  at message 40") {
		t.Fatalf("listed %q", out.String())
	}
}
