package main

import (
	"flag"
	"io"
	"slices"
	"testing"

	"github.com/salvo-game/salvo/p2p"
)

// With no flags a peer joins the public network as a DHT client;
// --bootstrap replaces the list, --lan-only keeps it off, and a relay
// serves the DHT it joins.
func TestNetworkDefaults(t *testing.T) {
	own := "/ip4/7.0.0.1/tcp/4001/p2p/12D3KooWKN7uRfZwaXyUWASDNgsob9VS6Uye7G7gTnqUkR3rUkGY"
	for _, tc := range []struct {
		name     string
		dht      string // the command's --dht default
		args     []string
		boot     []string
		mode     p2p.DHTMode
		discover bool
	}{
		{"no flags", "", nil, p2p.PublicBootstrap(), p2p.DHTClient, true},
		{"lan-only", "", []string{"--lan-only"}, nil, p2p.DHTOff, false},
		{"own bootstrap", "", []string{"--bootstrap", own}, []string{own}, p2p.DHTClient, true},
		{"own bootstrap, lan-only", "", []string{"--lan-only", "--bootstrap", own}, []string{own}, p2p.DHTClient, true},
		{"own relay", "", []string{"--relay", own}, p2p.PublicBootstrap(), p2p.DHTClient, false},
		{"dht off", "", []string{"--dht", "off"}, nil, p2p.DHTOff, false},
		{"a DHT of one's own", "server", []string{"--bootstrap", "none"}, nil, p2p.DHTServer, true},
		{"relay", "server", nil, p2p.PublicBootstrap(), p2p.DHTServer, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var nf netFlags
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			nf.register(fs, tc.dht)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			boot, mode, err := nf.network()
			if err != nil || !slices.Equal(boot, tc.boot) || mode != tc.mode {
				t.Fatalf("network() = %v, %v, %v; want %v, %v", boot, mode, err, tc.boot, tc.mode)
			}
			if d := nf.discoverRelays(mode); d != tc.discover {
				t.Fatalf("discover relays = %v, want %v", d, tc.discover)
			}
		})
	}
}
