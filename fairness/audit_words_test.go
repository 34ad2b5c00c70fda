package fairness

import "testing"

// A forfeit verdict tells a player what happened, not the error chain of
// the program that wrote the record.
func TestPlainDetail(t *testing.T) {
	for in, want := range map[string]string{
		"connection lost: session: recv: peer closed the match stream: the match is over there": "connection lost, peer closed the match stream, the match is over there",
		"connection lost: session: peer gone: no connection for 2m0s":                           "connection lost, peer gone, no connection for 2m0s",
		"EOF":             "EOF",
		"gave up \x1b[2J": "gave up \\u{1b}[2J",
	} {
		if got := plainDetail(in); got != want {
			t.Errorf("plainDetail(%q) = %q, want %q", in, got, want)
		}
	}
}
