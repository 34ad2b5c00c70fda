package watch

import (
	"strings"
	"testing"
)

func TestDecodeFrame(t *testing.T) {
	id := strings.Repeat("ab", 32)
	good := []string{
		`{"t":"watch","from":1}`,
		`{"t":"watch","match":"` + id + `","from":7,"direct":true}`,
		`{"t":"ok","match":"` + id + `"}`,
		`{"t":"end","lines":30}`,
		`{"t":"busy","match":"` + id + `","peers":[{"peer":"x","addrs":["/ip4/127.0.0.1/tcp/1"]}]}`,
		`{"t":"decline","reason":"no"}`,
	}
	for _, s := range good {
		if _, err := decodeFrame([]byte(s)); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	bad := []string{
		`{"t":"watch","from":0}`,
		`{"t":"watch","from":99999999}`,
		`{"t":"watch","from":1,"x":1}`,
		`{"t":"watch","match":"` + strings.ToUpper(id) + `","from":1}`,
		`{"t":"ok"}`,
		`{"t":"busy","peers":[` + strings.Repeat(`{"peer":"x"},`, MaxPeers) + `{"peer":"x"}]}`,
		`{"t":"busy","peers":[{"peer":"x","addrs":[` + strings.Repeat(`"a",`, MaxAddrs) + `"a"]}]}`,
		`{"t":"what"}`,
		`{"t":"end"} {}`,
		`not json`,
	}
	for _, s := range bad {
		if _, err := decodeFrame([]byte(s)); err == nil {
			t.Errorf("%s: accepted", s)
		}
	}
}

// FuzzDecodeFrame: whatever a peer sends as a control frame, the decoder
// returns a frame within the protocol's bounds or an error, never panics.
func FuzzDecodeFrame(f *testing.F) {
	f.Add([]byte(`{"t":"watch","from":1}`))
	f.Add([]byte(`{"t":"busy","match":"` + strings.Repeat("0", 64) + `","peers":[{"peer":"p","addrs":["a"]}]}`))
	f.Add([]byte(`{"t":"end","lines":3}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, err := decodeFrame(b)
		if err != nil {
			return
		}
		if len(fr.Peers) > MaxPeers || fr.T == tWatch && (fr.From < 1 || fr.From > MaxRecordLines) || fr.Match != "" && !validMatchID(fr.Match) {
			t.Fatalf("accepted out of bounds: %+v", fr)
		}
	})
}
