package notation_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness/notation"
)

// A transcript's notation says the match in the game's own terms; the
// check then confirms that a notation someone hands over says exactly
// what the signed transcript proves, and names the first line that does
// not.
func ExampleCheck() {
	f, err := os.Open("../testdata/ubuild-standard.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	want, _, err := notation.FromTranscript(f, games.Spec)
	if err != nil {
		fmt.Println(err)
		return
	}
	text := want.String()
	fmt.Print(strings.Join(strings.SplitAfter(text, "\n")[15:21], ""))

	// A copy that claims bot-a won instead.
	forged, _ := notation.Parse(strings.NewReader(strings.Replace(text, `[Result "bot-b won`, `[Result "bot-a won`, 1)))
	fmt.Println(notation.Check(forged, want))
	// Output:
	// 1. bot-a
	//   > bot-a committed its grid (46a34673)
	// 2. bot-b
	//   > bot-b committed its grid (ac97631e)
	// 3. bot-a
	//   roll first player = 0
	// line 14 says "[Result \"bot-a won: sank the whole fleet\"]"; the transcript proves "[Result \"bot-b won: sank the whole fleet\"]"
}
