// Package cputime measures the processor time a benchmark uses: on a shared machine
// the wall time of an operation depends on what else runs, its processor time much
// less.
package cputime

import (
	"syscall"
	"testing"
	"time"
)

// Used returns the processor time the process used so far (user and system, all its
// threads: the collector's included).
func Used() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Report reports the processor time per operation since start as the metric
// cpu-ns/op of b.
func Report(b *testing.B, start time.Duration) {
	if b.N > 0 {
		b.ReportMetric(float64(Used()-start)/float64(b.N), "cpu-ns/op")
	}
}
