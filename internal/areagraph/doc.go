// Package areagraph holds TestAreaGraph, the test of the graph of the root package's areas
// (areagraph_test.go): which area refers to which, type-checked, against the packages the
// areas are to become. It has no code of its own; the test lives here, not in the root
// package, so that the root's test binary, which runs the benchmarks, does not link the type
// checker (linking it moved BenchmarkSendMessage/memory by 25%, through code layout alone).
package areagraph
