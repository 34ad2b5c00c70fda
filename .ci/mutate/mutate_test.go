package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sample = `package p

func check(n int) error {
	if n > 10 {
		return errTooBig
	}
	if err := other(); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		continue
	}
	return nil
}
`

func sampleFile(t *testing.T) *srcFile {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.go")
	if err := os.WriteFile(path, []byte(sample), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := parseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The named edits find their one place or say "pattern not found": a
// planted bug is never silently skipped when the code moves on.
func TestNamedEditsFindOnePlaceOrFailLoudly(t *testing.T) {
	f := sampleFile(t)
	_, fn, err := findFunc([]*srcFile{f}, "check")
	if err != nil {
		t.Fatal(err)
	}
	apply := func(e edit) (string, error) {
		start, end, repl, _, err := e.locate(f, fn)
		if err != nil {
			return "", err
		}
		return string(f.src[:start]) + repl + string(f.src[end:]), nil
	}
	got, err := apply(neverIf{"n  >  10"})
	if err != nil || !strings.Contains(got, "if false && (n > 10) {") {
		t.Fatalf("neverIf: %v\n%s", err, got)
	}
	if got, err = apply(neverIf{"other()"}); err != nil || !strings.Contains(got, "err := other(); false && (err != nil)") {
		t.Fatalf("neverIf on the init: %v\n%s", err, got)
	}
	if got, err = apply(replace{"continue", "break"}); err != nil || strings.Contains(got, "continue") {
		t.Fatalf("replace: %v\n%s", err, got)
	}
	for _, e := range []edit{neverIf{"n > 11"}, neverIf{"n"}, replace{"return", "panic"}, replace{"goto", "break"}} {
		if _, err := apply(e); err == nil || !strings.Contains(err.Error(), "pattern not found") {
			t.Fatalf("%#v: %v, want pattern not found", e, err)
		}
	}
	if _, _, err := findFunc([]*srcFile{f}, "Match.check"); err == nil {
		t.Fatal("a method found as a function")
	}
}

// Every entry of the named list finds its place in the code as it is.
func TestPlantedBugsAllFound(t *testing.T) {
	if err := os.Chdir("../.."); err != nil {
		t.Fatal(err)
	}
	ms, err := namedMutants(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != len(plantedBugs) {
		t.Fatalf("%d of %d located", len(ms), len(plantedBugs))
	}
}

// Generic sites cover the four kinds, and sampling is deterministic.
func TestGenericSites(t *testing.T) {
	f := sampleFile(t)
	ms := sites(f, "p")
	kinds := map[string]int{}
	for _, m := range ms {
		kinds[strings.SplitN(strings.SplitN(m.Desc, ", ", 2)[1], ":", 2)[0]]++
	}
	if kinds["negated"] != 3 || kinds["boundary"] != 2 || kinds["guard dropped"] != 2 {
		t.Fatalf("sites %v", kinds)
	}
}
