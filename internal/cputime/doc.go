// Package cputime reads the CPU time the process has used, for the benchmarks' cpu-ms/op
// metric: on a shared machine it varies far less than the wall clock.
package cputime
