#!/usr/bin/env bash
# Runs the fenced-UPDATE benchmarks on throwaway PostgreSQL 15 clusters and
# prints throughput ratios.
#
# The machine is small and shared, so one pass is noisy. The test binary is
# built once; each round runs every variant in its own process (a fresh
# cluster and table each, so no variant inherits another's dead rows), in an
# order that rotates from round to round, and a ratio is the median over the
# rounds of that round's ratio. A ratio is the fenced write's throughput
# divided by the other's (above 1: fenced is faster).
#
# Usage: bash bench.sh [ROUNDS] [BENCHTIME]     (defaults: 5 rounds of 1s)
set -euo pipefail
cd "$(dirname "$0")"

rounds=${1:-5}
benchtime=${2:-1s}
variants=(plain fenced select-for-update)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go test -c -o "$work/bench.test" ./bench
for ((r = 0; r < rounds; r++)); do
	for ((v = 0; v < ${#variants[@]}; v++)); do
		variant=${variants[(r + v) % ${#variants[@]}]}
		line=$(cd bench && "$work/bench.test" -test.run '^$' -test.benchtime "$benchtime" \
			-test.bench "^BenchmarkUpdate\$/^${variant}\$" | grep '^Benchmark')
		echo "round $((r + 1)): $line"
		echo "$r $line" >>"$work/results.txt"
	done
done

awk '
{
	name = $2; sub(/^BenchmarkUpdate\//, "", name); sub(/-[0-9]+$/, "", name)
	for (i = 3; i < NF; i++) if ($(i+1) == "ns/op") ns[$1, name] = $i
	if ($1 + 1 > rounds) rounds = $1 + 1
}
function median(a, k,    i, j, t) {
	for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
	return (k % 2) ? a[(k+1)/2] : (a[k/2] + a[k/2+1]) / 2
}
END {
	for (r = 0; r < rounds; r++) {
		if (!((r, "plain") in ns) || !((r, "fenced") in ns) || !((r, "select-for-update") in ns)) {
			print "bench.sh: round " r " is missing a result" > "/dev/stderr"; exit 1
		}
		vsPlain[r+1] = ns[r, "plain"] / ns[r, "fenced"]
		vsLock[r+1] = ns[r, "select-for-update"] / ns[r, "fenced"]
		fenced[r+1] = ns[r, "fenced"]
	}
	printf "\nfenced UPDATE: median %.0f ns/op over %d rounds\n", median(fenced, rounds), rounds
	printf "fenced UPDATE throughput vs plain UPDATE:               %.2fx (aim >= 0.95x)\n", median(vsPlain, rounds)
	printf "fenced UPDATE throughput vs SELECT FOR UPDATE + UPDATE: %.2fx\n", median(vsLock, rounds)
}' "$work/results.txt"
