//go:build !race

package parse

// raceEnabled reports a -race build, whose instrumentation slows parsing tenfold.
const raceEnabled = false
