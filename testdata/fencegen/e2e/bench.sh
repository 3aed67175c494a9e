#!/usr/bin/env bash
# Runs the fenced-UPDATE benchmark on a throwaway PostgreSQL 15 cluster and
# prints the throughput ratios of fencegen's generated UPDATE against a plain
# UPDATE and against a SELECT ... FOR UPDATE + UPDATE transaction.
#
# BenchmarkUpdateInterleaved runs the three writes round-robin, so load
# from elsewhere on a shared machine hits all three alike; it is repeated
# ROUNDS times and the script prints the median of each ratio. A ratio is
# the fenced write's throughput divided by the other's (above 1: fenced is
# faster). `go test -bench .` in this module also runs BenchmarkUpdate, the
# same writes one after another, for conventional ns/op figures.
#
# Usage: bash bench.sh [ROUNDS] [BENCHTIME]     (defaults: 5 rounds of 3s)
set -euo pipefail
cd "$(dirname "$0")/bench"

rounds=${1:-5}
benchtime=${2:-3s}
out=$(go test -run '^$' -bench '^BenchmarkUpdateInterleaved$' -count "$rounds" -benchtime "$benchtime" .)
grep '^Benchmark' <<<"$out"

awk '
/^Benchmark/ {
	for (i = 2; i < NF; i++) {
		if ($(i+1) == "fenced/plain") plain[++n] = $i
		if ($(i+1) == "fenced/select-for-update") lock[n] = $i
		if ($(i+1) == "fenced-ns/op") fenced[n] = $i
	}
}
function median(a, k,    i, j, t) {
	for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
	return (k % 2) ? a[(k+1)/2] : (a[k/2] + a[k/2+1]) / 2
}
END {
	if (n == 0) { print "bench.sh: no benchmark result" > "/dev/stderr"; exit 1 }
	printf "\nfenced UPDATE: median %.0f ns/op over %d rounds\n", median(fenced, n), n
	printf "fenced UPDATE throughput vs plain UPDATE:               %.2fx (aim >= 0.95x)\n", median(plain, n)
	printf "fenced UPDATE throughput vs SELECT FOR UPDATE + UPDATE: %.2fx\n", median(lock, n)
}' <<<"$out"
