//go:build unix

package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// salvo resume lists a match in progress by its transcript's name, and
// salvo audit takes that name as listed; a name that fits no match is
// refused by both with what they take instead.
func TestResumeListsMatchesByTranscriptName(t *testing.T) {
	suspendedMatch(t, true)
	var out, errb bytes.Buffer
	if code := runResume(nil, &out, &errb); code != exitOK {
		t.Fatalf("salvo resume: exit %d, %s", code, errb.String())
	}
	name, _, _ := strings.Cut(out.String(), "  ")
	if !regexp.MustCompile(`^\d{8}-\d{6}-ubuild-vs-bot-[0-9a-f]{8}$`).MatchString(name) {
		t.Fatalf("salvo resume lists %q", out.String())
	}
	out.Reset()
	if code := run([]string{"audit", name}, &out, &errb); code == exitUsage || !strings.Contains(out.String(), "incomplete") {
		t.Fatalf("salvo audit %s: exit %d, %q %q", name, code, out.String(), errb.String())
	}
	errb.Reset()
	if code := runResume([]string{"20990101-000000-ubuild-vs-nobody-00000000"}, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "at least 8 digits of its match ID") {
		t.Fatalf("salvo resume of no such name: exit %d, %q", code, errb.String())
	}
}
