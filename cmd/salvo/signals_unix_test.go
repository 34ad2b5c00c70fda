//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// envHangupHelper names the directory TestSignalHelperProcess hosts from.
const envHangupHelper = "SALVO_TEST_HANGUP_DIR"

// envNohupHelper makes TestSignalHelperProcess check stopSignals with
// SIGHUP ignored.
const envNohupHelper = "SALVO_TEST_NOHUP"

// A closed terminal (SIGHUP) stops a waiting host the orderly way, as
// ctrl-c does: it exits by itself and writes its report, where before
// SIGHUP killed it on the spot.
func TestHangupStopsNetplayInOrder(t *testing.T) {
	skipUnderNohup(t)
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSignalHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), envHangupHelper+"="+dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	waitCode(t, ctx, filepath.Join(dir, "code")) // the host is up and waiting
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			t.Fatalf("SIGHUP killed the host (%v) instead of stopping it; output:\n%s", ws.Signal(), out.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "host.json")); err != nil {
		t.Fatalf("the host stopped by SIGHUP wrote no report (%v); output:\n%s", err, out.String())
	}
}

// Under nohup SIGHUP stays ignored: a process told to outlive its
// terminal does. (Checked in a child process: the runtime keeps a signal
// ignored once signal.Ignore was called, and children inherit it.)
func TestStopSignalsKeepNohup(t *testing.T) {
	skipUnderNohup(t)
	if !slices.Contains(stopSignals(), os.Signal(syscall.SIGHUP)) {
		t.Fatal("SIGHUP does not stop a network command")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSignalHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), envNohupHelper+"=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("under nohup: %v\n%s", err, out)
	}
}

// skipUnderNohup skips a test that needs SIGHUP when this process was
// started with it ignored (as under nohup), which its children inherit.
func skipUnderNohup(t *testing.T) {
	if signal.Ignored(syscall.SIGHUP) {
		t.Skip("SIGHUP is ignored here (nohup?), and would be in a child too")
	}
}

// TestSignalHelperProcess is the child of TestHangupStopsNetplayInOrder
// and TestStopSignalsKeepNohup (it does nothing in an ordinary run): a
// headless host on loopback that waits for a joiner, or a check of
// stopSignals with SIGHUP ignored.
func TestSignalHelperProcess(t *testing.T) {
	if os.Getenv(envNohupHelper) != "" {
		signal.Ignore(syscall.SIGHUP)
		if slices.Contains(stopSignals(), os.Signal(syscall.SIGHUP)) {
			t.Fatal("SIGHUP, ignored as under nohup, would stop a network command")
		}
		return
	}
	dir := os.Getenv(envHangupHelper)
	if dir == "" {
		t.Skip("run by TestHangupStopsNetplayInOrder and TestStopSignalsKeepNohup")
	}
	t.Setenv("SALVO_HOME", filepath.Join(dir, "home"))
	var out, errb bytes.Buffer
	code := run([]string{"netplay", "--role", "host", "--lan-only", "--listen", "/ip4/127.0.0.1/tcp/0", "--wait", "60s",
		"--code-file", filepath.Join(dir, "code"), "--report", filepath.Join(dir, "host.json")}, &out, &errb)
	os.Stderr.Write(errb.Bytes())
	os.Exit(code)
}
