package tui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// hostAndGuest starts a host of a U-Build match of variant (the default
// when empty) and a guest that joins it by code, at w×h.
func hostAndGuest(t *testing.T, variant string, w, h int) (host, guest *harness) {
	t.Helper()
	host = start(t, Config{Offline: true, Name: "ann", Start: StartHost, Variant: variant, Timeout: 20 * time.Second}, w, h)
	host.WaitFor("invite code")
	var code string
	host.onUI(func() { code = host.app.top().(*hostScreen).code })
	guest = start(t, Config{Offline: true, Name: "bob", Start: StartJoin, Code: code, Timeout: 20 * time.Second}, w, h)
	return host, guest
}

// Issue 15 point 2 on screen, at 80×24: the guest places its fleet while
// the host is still placing (the placement screen shows at once, not after
// the host's commitment); a question that turns out stale (the host leaves
// before committing) is withdrawn cleanly: the placement prompt goes, and
// the screen says how the match ended.
func TestGuestPlacesWhileTheHostPlaces(t *testing.T) {
	t.Parallel()
	host, guest := hostAndGuest(t, "", 80, 24)
	host.WaitFor("vs bob", "Place the Battleship")
	guest.WaitFor("vs ann", "Place the Battleship", "your turn")
	guest.Keys("x", tcell.KeyEnter)
	// Its fleet shows while it waits, before any message says so.
	guest.WaitFunc("the guest's fleet placed", 15*time.Second, func(s string) bool {
		return strings.Contains(s, "waiting for ann: ann commits its grid") && oceanShips(s) == 17
	})
	host.Keys("x", tcell.KeyEnter)
	guest.WaitFunc("the first turn", 15*time.Second, func(s string) bool { return strings.Contains(s, "fires first") })
}

func TestStaleSetUpPromptIsWithdrawn(t *testing.T) {
	t.Parallel()
	host, guest := hostAndGuest(t, "", 80, 24)
	host.WaitFor("vs bob", "Place the Battleship")
	guest.WaitFor("vs ann", "Place the Battleship")
	host.Keys("q", "y") // the host leaves before committing
	txt := guest.WaitFor("you won")
	if strings.Contains(txt, "Place the Battleship") || strings.Contains(txt, "your turn") {
		t.Fatalf("the stale placement prompt is still shown\n%s", txt)
	}
	guest.Keys("x", tcell.KeyEnter) // keys for the withdrawn prompt do nothing
	guest.WaitFor("you won")
}

// oceanRow is a row of the U-Build boards (both oceans side by side).
var oceanRow = regexp.MustCompile(`(?m)^\s*[A-J]  .*$`)

// oceanShips counts the ship cells drawn on the boards' rows.
func oceanShips(screen string) int {
	n := 0
	for _, row := range oceanRow.FindAllString(screen, -1) {
		n += strings.Count(row, "■")
	}
	return n
}

// In custom U-Build the guest places its fleet and then builds it (its
// weapon counts), both while the host is still placing.
func TestGuestBuildsWhileTheHostPlaces(t *testing.T) {
	t.Parallel()
	host, guest := hostAndGuest(t, "custom", 80, 24)
	host.WaitFor("vs bob", "Place the Battleship")
	guest.WaitFor("vs ann", "Place the Battleship")
	guest.Keys("x", tcell.KeyEnter)
	guest.WaitFor("Build your fleet")
	guest.Keys(tcell.KeyEnter)
	guest.WaitFor("waiting for ann")
	host.Keys("x", tcell.KeyEnter)
	host.WaitFor("Build your fleet")
	host.Keys(tcell.KeyEnter)
	guest.WaitFunc("the first turn", 15*time.Second, func(s string) bool { return strings.Contains(s, "fires first") })
}
