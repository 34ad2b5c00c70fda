// Command mutate is Salvo's mutation tester for the fairness layer: it
// plants small bugs in the source, one at a time, runs the package's tests
// against each, and reports the bugs the tests did not catch. A check that
// exists but that no test would miss is a check nobody has proved; this
// tool is what proves them (issue 12, finding 10).
//
// Mutants never touch the tree: each is a mutated copy of one file in a
// temporary directory, handed to `go test -overlay`, so a run is safe on a
// checkout in use and mutants could run side by side (-j).
//
// There are two kinds of mutants.
//
// Named mutants (named.go) are planted bugs of the kinds a review found to
// survive the tests: a chain or sequence check removed, a broken or
// finished match still accepting messages, the envelope size, empty-body
// and compact-body checks removed, the dice chain no longer depending on
// its secret seed, the Merkle index bound removed, a closing record's
// signature left unchecked, the joint audit's comparison of two forfeits
// skipped, and U-Build's deferred claims skipped after a claim about
// another ship. Each is a precise edit located by function and by the text
// of a condition or a unique snippet; when the code no longer holds that
// text the tool stops with "pattern not found" instead of skipping, so the
// list is kept honest as the code changes. Every named mutant must be
// caught: -named exits non-zero if one survives.
//
// Generic mutants are sampled from every non-test file of a package:
// comparison negated (== and !=, < and >=, > and <=), comparison boundary
// moved (< and <=, > and >=), a guard `if cond { return …, err }` made never
// to fire, and a boolean literal flipped. The sample is deterministic
// (-sample per file, -seed). The report scores each file (killed/total) and
// lists the survivors as file:line: mutation. A mutant that does not compile
// is counted apart (invalid), not as killed.
//
// A mutant is killed when the package's tests fail against it (or time
// out: -timeout per mutant). Each mutant runs
//
//	go test -overlay <json> -count=1 -failfast -vet=off -timeout <t> ./<pkg>
//
// Usage, from the module root:
//
//	go run ./.ci/mutate -named                 # the named list only (CI)
//	go run ./.ci/mutate -named -run dice       # named mutants matching a regexp
//	go run ./.ci/mutate -generic -sample 6     # 6 mutants per fairness file
//	go run ./.ci/mutate -generic -files merkle.go,dice.go -sample 0   # all of two files
//	go run ./.ci/mutate -generic -list         # list the mutants, run nothing
//	go run ./.ci/mutate -generic -sample 0 -run 'codec.go:(15|18)$'   # the mutants of two lines
//
// `go test ./.ci/mutate` checks the tool itself, and that every named
// entry still finds its place in the code (a quick check after a merge).
//
// Flags: -pkg (generic: package directory, default fairness), -seed,
// -j (mutants at once, default 1), -timeout (per mutant, default 3m),
// -baseline=false (skip the run of the unmutated tests first), -keep (keep
// the temporary directory), -v (print the test output of survivors and of
// named mutants that fail to build).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Mutant is one planted change: in File (relative to the module root),
// the bytes [Start, End) of the original are replaced by Repl. Pkg is the
// package whose tests must catch it.
type Mutant struct {
	ID    string // the named mutant's name, or file:line for a generic one
	Pkg   string // package directory relative to the module root
	File  string // the mutated file, relative to the module root
	Line  int
	Desc  string // what the mutation does, in words
	Start int
	End   int
	Repl  string
	Named bool
	First string // a test run alone before the whole package (namedFirst); "" for none
}

// Outcome is how the tests met a mutant.
type Outcome int

const (
	Survived Outcome = iota
	Killed
	TimedOut // counts as killed
	Invalid  // the mutant does not compile
)

func (o Outcome) String() string {
	return [...]string{"SURVIVED", "killed", "killed (timeout)", "invalid (does not compile)"}[o]
}

// Result is one mutant's run.
type Result struct {
	M       Mutant
	Outcome Outcome
	By      string // the first failing test, when killed
	Took    time.Duration
	Output  string
}

type options struct {
	named, generic, list, keep, verbose, baseline bool
	run                                           *regexp.Regexp
	pkg                                           string
	files                                         []string
	sample                                        int
	seed                                          uint64
	jobs                                          int
	timeout                                       time.Duration
}

func main() {
	var o options
	var runPat, files string
	flag.BoolVar(&o.named, "named", false, "run the named planted bugs (every one must be caught)")
	flag.BoolVar(&o.generic, "generic", false, "run sampled generic mutants over the files of -pkg")
	flag.BoolVar(&o.list, "list", false, "list the mutants and run nothing")
	flag.StringVar(&runPat, "run", "", "only mutants whose name (named) or file.go:line (generic) matches this regexp")
	flag.StringVar(&o.pkg, "pkg", "fairness", "generic: the package directory, relative to the module root")
	flag.StringVar(&files, "files", "", "generic: comma-separated file names of -pkg (default: every non-test file)")
	flag.IntVar(&o.sample, "sample", 5, "generic: mutants sampled per file (0: all)")
	flag.Uint64Var(&o.seed, "seed", 1, "generic: sampling seed")
	flag.IntVar(&o.jobs, "j", 1, "mutants run at once")
	flag.DurationVar(&o.timeout, "timeout", 3*time.Minute, "per-mutant limit (a timeout counts as killed)")
	flag.BoolVar(&o.baseline, "baseline", true, "first check that the unmutated tests pass")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary directory of mutated files")
	flag.BoolVar(&o.verbose, "v", false, "print the test output of survivors")
	flag.Parse()
	if !o.named && !o.generic {
		o.named = true
	}
	if runPat != "" {
		o.run = regexp.MustCompile(runPat)
	}
	if files != "" {
		o.files = strings.Split(files, ",")
	}
	if o.jobs < 1 {
		o.jobs = 1
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	start := time.Now()
	if _, err := os.Stat("go.mod"); err != nil {
		return errors.New("run from the module root (go run ./.ci/mutate)")
	}
	var ms []Mutant
	if o.named {
		named, err := namedMutants(o.run)
		if err != nil {
			return err
		}
		ms = append(ms, named...)
	}
	if o.generic {
		gen, err := genericMutants(o.pkg, o.files, o.sample, o.seed)
		if err != nil {
			return err
		}
		for _, m := range gen {
			if o.run == nil || o.run.MatchString(m.ID) {
				ms = append(ms, m)
			}
		}
	}
	if o.list {
		for _, m := range ms {
			fmt.Printf("%s\t%s:%d: %s\n", m.ID, m.File, m.Line, m.Desc)
		}
		fmt.Printf("%d mutants\n", len(ms))
		return nil
	}
	if len(ms) == 0 {
		return errors.New("no mutants selected")
	}
	tmp, err := os.MkdirTemp("", "salvo-mutate-")
	if err != nil {
		return err
	}
	if o.keep {
		fmt.Println("mutated files kept in", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	if o.baseline {
		if err := baseline(ms, o.timeout); err != nil {
			return err
		}
	}
	results := runAll(ms, tmp, o)
	fmt.Printf("\n%d mutants in %s\n", len(results), time.Since(start).Round(time.Second))
	return report(results, o)
}

// baseline runs each package's tests unmutated once: a package whose tests
// already fail would "kill" every mutant.
func baseline(ms []Mutant, timeout time.Duration) error {
	seen := map[string]bool{}
	for _, m := range ms {
		if seen[m.Pkg] {
			continue
		}
		seen[m.Pkg] = true
		t0 := time.Now()
		out, code, timedOut := goTest(m.Pkg, "", timeout, "")
		if code != 0 || timedOut {
			return fmt.Errorf("the unmutated tests of %s fail; fix them first:\n%s", m.Pkg, out)
		}
		fmt.Printf("baseline: the tests of ./%s pass unmutated (%s)\n", m.Pkg, time.Since(t0).Round(100*time.Millisecond))
	}
	return nil
}

func runAll(ms []Mutant, tmp string, o options) []Result {
	results := make([]Result, len(ms))
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	sem := make(chan struct{}, o.jobs)
	for i, m := range ms {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			r := runMutant(m, filepath.Join(tmp, fmt.Sprintf("m%04d", i)), o.timeout)
			mu.Lock()
			defer mu.Unlock()
			results[i] = r
			done++
			by := ""
			if r.By != "" {
				by = " by " + r.By
			}
			fmt.Printf("[%d/%d] %s  %s:%d: %s: %s%s (%s)\n", done, len(ms), m.ID, m.File, m.Line, m.Desc, r.Outcome, by, r.Took.Round(100*time.Millisecond))
			if o.verbose && (r.Outcome == Survived || r.Outcome == Invalid && m.Named) {
				fmt.Println(indent(r.Output))
			}
		}()
	}
	wg.Wait()
	return results
}

// runMutant writes the mutated copy of m.File into dir and runs the tests
// of m.Pkg with it overlaid.
func runMutant(m Mutant, dir string, timeout time.Duration) Result {
	t0 := time.Now()
	res := Result{M: m}
	fail := func(err error) Result {
		res.Outcome, res.Output, res.Took = Invalid, err.Error(), time.Since(t0)
		return res
	}
	src, err := os.ReadFile(m.File)
	if err != nil {
		return fail(err)
	}
	if m.End > len(src) || m.Start > m.End {
		return fail(fmt.Errorf("%s changed under the run", m.File))
	}
	mutated := append(append(append([]byte(nil), src[:m.Start]...), m.Repl...), src[m.End:]...)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fail(err)
	}
	abs, err := filepath.Abs(m.File)
	if err != nil {
		return fail(err)
	}
	copyPath := filepath.Join(dir, filepath.Base(m.File))
	if err := os.WriteFile(copyPath, mutated, 0o600); err != nil {
		return fail(err)
	}
	ov, _ := json.Marshal(map[string]map[string]string{"Replace": {abs: copyPath}})
	ovPath := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ovPath, ov, 0o600); err != nil {
		return fail(err)
	}
	out, code, timedOut := "", 0, false
	if m.First != "" {
		out, code, timedOut = goTest(m.Pkg, ovPath, timeout, "^"+m.First+"$")
	}
	if m.First == "" || code == 0 && !timedOut {
		out, code, timedOut = goTest(m.Pkg, ovPath, timeout, "")
	}
	res.Output, res.Took = out, time.Since(t0)
	switch {
	case timedOut:
		res.Outcome = TimedOut
	case code == 0:
		res.Outcome = Survived
	case buildFailed(out):
		res.Outcome = Invalid
	default:
		res.Outcome = Killed
		res.By = firstFailure(out)
	}
	return res
}

// goTest runs the tests of pkg (only those run matches, if not empty),
// with overlay if not empty, and returns the combined output, the exit
// code, and whether it ran out of time.
func goTest(pkg, overlay string, timeout time.Duration, run string) (string, int, bool) {
	args := []string{"test", "-count=1", "-failfast", "-vet=off", "-timeout", timeout.String()}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	if run != "" {
		args = append(args, "-run", run)
	}
	args = append(args, "./"+filepath.ToSlash(pkg))
	// The hard limit leaves the test binary's own -timeout room to report
	// which test hung.
	ctx, cancel := context.WithTimeout(context.Background(), timeout+time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	out, err := cmd.CombinedOutput()
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		return string(out) + "\n" + err.Error(), 1, ctx.Err() != nil
	}
	timedOut := ctx.Err() != nil || strings.Contains(string(out), "panic: test timed out")
	return string(out), code, timedOut
}

var buildFailRe = regexp.MustCompile(`(?m)^FAIL\s+\S+\s+\[(build|setup) failed\]`)

func buildFailed(out string) bool { return buildFailRe.MatchString(out) }

var failRe = regexp.MustCompile(`(?m)^\s*--- FAIL: (\S+)`)

func firstFailure(out string) string {
	if m := failRe.FindStringSubmatch(out); m != nil {
		return m[1]
	}
	if strings.Contains(out, "panic:") {
		return "a panic"
	}
	return ""
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > 40 {
		lines = append(lines[:40], fmt.Sprintf("… (%d more lines)", len(lines)-40))
	}
	return "    | " + strings.Join(lines, "\n    | ")
}

// report prints the named list and the per-file score table, and returns
// an error when a named mutant was not caught.
func report(results []Result, o options) error {
	var bad []string
	var named []Result
	perFile := map[string]*score{}
	for _, r := range results {
		if r.M.Named {
			named = append(named, r)
			if r.Outcome == Survived || r.Outcome == Invalid {
				bad = append(bad, fmt.Sprintf("%s: %s", r.M.ID, r.Outcome))
			}
			continue
		}
		s := perFile[r.M.File]
		if s == nil {
			s = &score{}
			perFile[r.M.File] = s
		}
		s.add(r)
	}
	if len(named) > 0 {
		fmt.Println("\nnamed planted bugs:")
		for _, r := range named {
			mark := "caught"
			if r.Outcome == Survived || r.Outcome == Invalid {
				mark = "NOT CAUGHT: " + r.Outcome.String()
			}
			by := ""
			if r.By != "" {
				by = " by " + r.By
			}
			fmt.Printf("  %-28s %s%s\n", r.M.ID, mark, by)
		}
	}
	if len(perFile) > 0 {
		printScores(perFile)
	}
	if len(bad) > 0 {
		return fmt.Errorf("named mutants not caught: %s", strings.Join(bad, "; "))
	}
	return nil
}

type score struct {
	killed, total, invalid int
	survivors              []Result
}

func (s *score) add(r Result) {
	switch r.Outcome {
	case Invalid:
		s.invalid++
		return
	case Survived:
		s.survivors = append(s.survivors, r)
	default:
		s.killed++
	}
	s.total++
}

func printScores(perFile map[string]*score) {
	files := make([]string, 0, len(perFile))
	for f := range perFile {
		files = append(files, f)
	}
	sort.Strings(files)
	fmt.Println("\ngeneric mutants, per file (killed/total; invalid = did not compile, not counted):")
	var all score
	for _, f := range files {
		s := perFile[f]
		fmt.Printf("  %-32s %3d/%-3d %s\n", f, s.killed, s.total, invalidNote(s.invalid))
		all.killed += s.killed
		all.total += s.total
		all.invalid += s.invalid
	}
	fmt.Printf("  %-32s %3d/%-3d %s\n", "all", all.killed, all.total, invalidNote(all.invalid))
	first := true
	for _, f := range files {
		for _, r := range perFile[f].survivors {
			if first {
				fmt.Println("\nsurvivors:")
				first = false
			}
			fmt.Printf("  %s:%d: %s\n", r.M.File, r.M.Line, r.M.Desc)
		}
	}
}

func invalidNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("(%d invalid)", n)
}
