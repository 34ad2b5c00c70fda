package fairness_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
)

// craftedSize is the size of each crafted file TestAttackAuditMemory audits.
const craftedSize = 100 << 20

// memoryBudget is what auditing any of them may take: the heap in use,
// sampled while it runs, above what it was before.
const memoryBudget = 256 << 20

// bigLine returns an envelope line of about 1 MiB for the match of header
// line h, its body as expensive to decode as a body can be (a hundred
// thousand empty inputs), its signature not valid.
func bigLine(t testing.TB, h string, seq int) string {
	var hd fairness.Header
	if err := json.Unmarshal([]byte(h), &hd); err != nil {
		t.Fatal(err)
	}
	body := `{"inputs":[` + strings.Repeat(`{"t":""},`, (fairness.MaxEnvelope-1024)/9-1) + `{"t":""}],"state":""}`
	sig := base64.StdEncoding.EncodeToString(make([]byte, 64))
	return `{"match":"` + hd.Match + `","seq":` + strconv.Itoa(seq) + `,"from":"` + hd.Players[1].Peer + `","prev":"","body":` + body + `,"sig":"` + sig + `"}` + "\n"
}

// writeCrafted writes the file: the prefix, then fill repeated up to
// craftedSize bytes, streamed so that the test itself holds little.
func writeCrafted(t *testing.T, prefix []string, fill string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "crafted.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	n := 0
	for _, l := range prefix {
		k, _ := w.WriteString(l)
		n += k
	}
	for n < craftedSize {
		k, _ := w.WriteString(fill)
		n += k
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// peakHeap runs f and returns the most heap in use above the level before,
// sampled every millisecond.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapInuse, ms.HeapInuse
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var ms runtime.MemStats
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	})
	f()
	close(stop)
	wg.Wait()
	return peak - base
}

// settledGoroutines waits up to a second for the number of goroutines to
// come down to want, and returns the last count.
func settledGoroutines(want int) int {
	n := runtime.NumGoroutine()
	for deadline := time.Now().Add(time.Second); n > want && time.Now().Before(deadline); n = runtime.NumGoroutine() {
		time.Sleep(5 * time.Millisecond)
	}
	return n
}

// TestAttackAuditMemory: whoever hands the auditor a file cannot make it
// take much memory, nor leave goroutines behind. On main the auditor read
// the whole file (up to 1 GiB) and decoded every body ahead of the replay:
// a 16 MB file of large cheap-to-write bodies took 3.3 GB.
func TestAttackAuditMemory(t *testing.T) {
	golden := goldenLines(t, "ubuild-standard.jsonl")
	cheat := goldenLines(t, "ubuild-miss-on-hit.jsonl")
	cases := map[string]struct {
		prefix []string
		fill   string
		says   string // in the error or the verdict's detail
		line   int    // the verdict's line
	}{
		"one huge line": {golden[:5], strings.Repeat("x", 1<<20), "line 6 is longer than", 6},
		"large bodies mid-match": {golden[:5], bigLine(t, golden[0], 5),
			"a message after the violation at line 6", 7},
		"large bodies after the end": {golden, bigLine(t, golden[0], len(golden)),
			"a message after the violation at line 32", 33},
		"lines after a closing record": {cheat, golden[3], "a message after the closing record", 15},
		"a line repeated":              {golden[:5], golden[4], "line 6 repeats message 4", 6},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			path := writeCrafted(t, c.prefix, c.fill)
			before := runtime.NumGoroutine()
			var rep *fairness.Report
			var err error
			peak := peakHeap(func() { rep, err = fairness.AuditFile(path, games.Spec) })
			says := ""
			if err != nil {
				says = err.Error()
			} else {
				says = rep.Detail
				if rep.Verdict != fairness.Corrupt || rep.Line != c.line {
					t.Errorf("verdict %s at line %d; want corrupt at line %d", rep.Verdict, rep.Line, c.line)
				}
			}
			if !strings.Contains(says, c.says) {
				t.Errorf("audit says %q; want it to say %q", says, c.says)
			}
			t.Logf("%d MB file: peak heap %.1f MiB above the start; %s", craftedSize>>20, float64(peak)/(1<<20), says)
			if peak > memoryBudget {
				t.Errorf("auditing took %d MiB of heap; the budget is %d MiB", peak>>20, memoryBudget>>20)
			}
			if n := settledGoroutines(before); n > before {
				t.Errorf("%d goroutines before the audit, %d after", before, n)
			}
		})
	}
}

// Audit leaves no goroutine behind on any path, also for a transcript it
// reads to the end.
func TestAuditLeavesNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	for _, name := range []string{"ubuild-standard.jsonl", "ubuild-miss-on-hit.jsonl"} {
		auditFile(t, filepath.Join("testdata", name))
	}
	if _, err := fairness.Audit(bytes.NewReader(nil), games.Spec); err == nil {
		t.Fatal("empty file audited")
	}
	if n := settledGoroutines(before); n > before {
		t.Fatalf("%d goroutines before the audits, %d after", before, n)
	}
}
