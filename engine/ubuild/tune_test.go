package ubuild

import (
	"flag"
	"math"
	"math/rand/v2"
	"testing"
)

var tuneGames = flag.Int("tune", 0, "games for TestTune")

func TestTune(t *testing.T) {
	if *tuneGames == 0 {
		t.Skip()
	}
	xs := make([]int, *tuneGames)
	for i := range xs {
		xs[i], _ = hunterRun(t, Classic, uint64(50000+i))
	}
	t.Logf("\n%s", summarise(xs))
}

var expN = flag.Int("samples", 0, "")

func init() { expSamplesHook = func() int { return *expN } }

var expLookOn = flag.Bool("look", false, "")
var expLookK = flag.Int("lookk", 8, "")
var expLookW = flag.Float64("lookw", 1, "")

func init() {
	expLook = func(k *knowledge, r *rand.Rand) Cell {
		if *rollKF > 0 {
			return k.rolloutPick(r, *rollKF, *rollMF)
		}
		if *alphaF != 0 {
			for s := range Ship(NumShips) {
				shipW[s] = math.Pow(5/float64(s.Plate()), *alphaF)
			}
			return k.weightedPick(r)
		}
		if *modeF > 0 {
			scoreMode = *modeF
			scoreLam = *lamF
			return k.infoPick(r)
		}
		if !*expLookOn {
			return bestCellK(k, r)
		}
		lookK = *expLookK
		lookW = *expLookW
		return k.lookahead(r)
	}
}

func bestCellK(k *knowledge, r *rand.Rand) Cell {
	d, ok := k.density(mask{}, 1)
	return bestCell(d, k.shot, ok, r)
}

var modeF = flag.Int("mode", 0, "")
var lamF = flag.Float64("lam", 0.2, "")

var alphaF = flag.Float64("alpha", 0, "")

var rollKF = flag.Int("rk", 0, "")
var rollMF = flag.Int("rm", 16, "")
