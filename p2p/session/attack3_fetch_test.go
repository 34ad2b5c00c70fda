package session

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An answer is a run of consecutive messages: a responder whose byte
// bound stops it before a big envelope must stop there, not skip it and
// send the smaller ones after it, which the asker (rightly) refuses as a
// gap, counting an honest responder as a false one.
func TestAttack3FetchAnswerHasNoGapAtTheByteBound(t *testing.T) {
	match := strings.Repeat("ab", 32)
	path := filepath.Join(t.TempDir(), "t.jsonl")
	var b strings.Builder
	b.WriteString(`{"match":"` + match + `"}` + "\n")
	for seq, pad := range []int{10, MaxFetchBytes, 10} {
		fmt.Fprintf(&b, `{"match":"%s","seq":%d,"pad":"%s"}`+"\n", match, seq+1, strings.Repeat("x", pad))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	sm := &servedMatch{path: path}
	envs, high, err := sm.read(1, 3)
	if err != nil {
		t.Fatal(err)
	}
	if high != 3 {
		t.Errorf("high %d, want 3", high)
	}
	for i, e := range envs {
		if seq, _ := headSeq(e); seq != uint64(i+1) {
			t.Fatalf("envelope %d of the answer is message %d: the answer skips a message", i+1, seq)
		}
	}
	if len(envs) != 1 {
		t.Errorf("%d envelopes, want the first only", len(envs))
	}
}
