//go:build !unix

package fairness_test

// cpuTime is not measured here; the benchmarks then report 0 cpu-ns/op.
func cpuTime() int64 { return 0 }
