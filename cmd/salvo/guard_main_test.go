package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/salvo-game/salvo/p2p"
)

// TestMain fails the package when a host started in this test process
// tried to dial outside the test network (p2p's guard refused it; the lab's
// processes are checked by lab.wait): every test passes its own
// --bootstrap or --lan-only, never the public list.
func TestMain(m *testing.M) {
	code := m.Run()
	if n := p2p.GuardRefusals(); n != 0 && code == 0 {
		fmt.Fprintf(os.Stderr, "FAIL: the test network guard refused %d addresses: a test used the public network\n", n)
		code = 1
	}
	os.Exit(code)
}
