#!/usr/bin/env bash
# bench-vet.sh measures what fencelint costs next to go vet on one large real
# module, etcd's server module (55 packages), or with -app on an application
# of the real-world set (testdata/realworld/apps.tsv, laid out by
# scripts/realworld.sh), and prints the ratios.
#
# Three ways of running are measured, alternating, RUNS times each:
#   vet         go vet with its default analyzers
#   standalone  fencelint PATTERN
#   vettool     go vet -vettool=fencelint PATTERN
# Neither vet nor fencelint may answer from go's cache: vet's cache key holds
# its flags, so each vet run passes a never-used -printf.funcs value; for the
# vettool runs the key holds the tool's ID (a hash of the binary, printed by
# -V=full), so each run uses a copy of the binary with a nonce appended.
# Compiling etcd's dependencies is shared by all three and happens once, in a
# warm-up run that is not counted.
#
# Aims: standalone at most 0.6x vet's wall time and 2 GiB peak memory;
# vettool at most 1.25x vet's wall time. Peak memory is GNU time's %M: the
# largest resident set of any one process of the run (for go vet, one of its
# vet processes or the go command itself). CPU time (user + system, of the
# command and everything it ran) is printed too: on a machine shared with
# other work it is a steadier measure than wall time.
#
# Usage: scripts/bench-vet.sh [-runs N] [-strict] [-fencelint BINARY] [-app NAME]
#   -runs N             runs per way (default 3)
#   -app NAME           measure the real-world application NAME, laid out in
#                       $REALWORLD_DIR (default /work/realworld) by
#                       scripts/realworld.sh -layout, on its packages without
#                       their tests (as realworld.sh analyzes them)
#   -strict             exit 1 if an aim is missed
#   -fencelint BINARY   measure this binary instead of building ./cmd/fencelint
# Needs the Go module proxy (or a module cache holding etcd server v3.7.3)
# and GNU time at /usr/bin/time. Takes about 2 minutes per round on 2 cores.
set -euo pipefail

readonly etcd_module=go.etcd.io/etcd/server/v3
readonly etcd_version=v3.7.3
patterns=("$etcd_module/...")
runs=3
strict=false
binary=
app=
while (($#)); do
	case $1 in
	-runs) runs=${2:?-runs needs a number}; shift 2 ;;
	-strict) strict=true; shift ;;
	-fencelint) binary=$(realpath "${2:?-fencelint needs a path}"); shift 2 ;;
	-app) app=${2:?-app needs a name}; shift 2 ;;
	*) echo "bench-vet.sh: unknown argument $1; usage: bench-vet.sh [-runs N] [-strict] [-fencelint BINARY] [-app NAME]" >&2; exit 2 ;;
	esac
done

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-vet.XXXXXX")
trap 'rm -rf "$work"' EXIT

# setup builds fencelint and a scratch module that requires etcd's server
# module with its test dependencies, so that go vet and fencelint both see
# the package's test files.
setup() {
	if [[ -n $binary ]]; then
		cp "$binary" "$work/fencelint"
	else
		(cd "$root" && go build -o "$work/fencelint" ./cmd/fencelint)
	fi
	if [[ -n $app ]]; then
		setupApp
		return
	fi
	mkdir "$work/mod"
	cd "$work/mod"
	go mod init bench.local/etcdserver >/dev/null 2>&1
	go get -t "${patterns[0]}@$etcd_version" >/dev/null 2>&1 ||
		{ echo "bench-vet.sh: cannot fetch $etcd_module@$etcd_version from the module proxy" >&2; exit 1; }
	echo "module: $etcd_module@$etcd_version, $(go list "${patterns[@]}" | wc -l) packages (with tests)"
}

# setupApp moves into the laid-out real-world application $app and sets
# patterns and the environment its row of apps.tsv asks for. As on etcd, both
# go vet and fencelint analyze the packages with their tests.
setupApp() {
	local row moddir pattern_list flags f
	row=$(awk -F'\t' -v n="$app" '$1 == n' "$root/testdata/realworld/apps.tsv")
	[[ -n $row ]] || { echo "bench-vet.sh: no application $app in testdata/realworld/apps.tsv" >&2; exit 2; }
	IFS=$'\t' read -r _ _ _ moddir pattern_list _ flags <<<"$row"
	local dir="${REALWORLD_DIR:-/work/realworld}/$app/$moddir"
	[[ -f ${REALWORLD_DIR:-/work/realworld}/$app/.realworld-commit ]] ||
		{ echo "bench-vet.sh: $app is not laid out; run scripts/realworld.sh -layout -only $app" >&2; exit 1; }
	for f in $flags; do
		[[ $f == [A-Z]*=* ]] && export "${f?}"
	done
	IFS=, read -r -a patterns <<<"$pattern_list"
	cd "$dir"
	echo "application: $app ($dir), $(go list "${patterns[@]}" | wc -l) packages"
}

# measure runs a command under GNU time and prints
# "WALL_SECONDS PEAK_KB CPU_SECONDS".
# The command's own output goes to $work/last.log; findings are not errors
# (fencelint exits 3 and go vet 1 when they report something), so only a
# crash or a load failure, seen in the log, fails the benchmark.
measure() {
	local status=0
	/usr/bin/time -o "$work/time" -f '%e %M %U %S' "$@" >"$work/last.log" 2>&1 || status=$?
	if grep -q -e 'panic:' -e 'internal error' -e 'cannot find package' -e 'no required module' "$work/last.log"; then
		echo "bench-vet.sh: $* failed (exit $status):" >&2
		tail -20 "$work/last.log" >&2
		exit 1
	fi
	# GNU time puts "Command exited with non-zero status N" above the figures.
	tail -n 1 "$work/time" | awk '{printf "%s %s %.2f\n", $1, $2, $3 + $4}'
}

# freshTool copies fencelint to a new file with a nonce appended, so that go
# vet's cache, keyed by the tool's hash, holds nothing for it.
freshTool() {
	local tool="$work/fencelint-$1"
	cp "$work/fencelint" "$tool"
	printf '\nbench-nonce %s %s\n' "$1" "$RANDOM$RANDOM" >>"$tool"
	echo "$tool"
}

# median prints the median of its arguments.
median() {
	printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'
}

# verdict prints "ok" if value <= aim, "MISSED" otherwise, and records a miss.
missed=0
verdict() {
	if awk -v v="$1" -v a="$2" 'BEGIN {exit !(v <= a)}'; then
		echo ok
	else
		missed=1
		echo "MISSED (aim <= $2)"
	fi
}

setup
# Other work on the machine skews every number: say how busy it was.
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
echo "warm-up (compiles dependencies; not counted)"
measure go vet -printf.funcs="warmup$RANDOM" "${patterns[@]}" >/dev/null
measure "$work/fencelint" "${patterns[@]}" >/dev/null

declare -a vet_wall vet_mem vet_cpu sa_wall sa_mem sa_cpu vt_wall vt_mem vt_cpu
printf '%-4s %26s %26s %26s\n' run "vet (wall s, MB, cpu s)" "standalone (wall, MB, cpu)" "vettool (wall, MB, cpu)"
for ((i = 1; i <= runs; i++)); do
	read -r w m c < <(measure go vet -printf.funcs="nonce$i$RANDOM" "${patterns[@]}")
	vet_wall+=("$w") vet_mem+=("$m") vet_cpu+=("$c")
	read -r w m c < <(measure "$work/fencelint" "${patterns[@]}")
	sa_wall+=("$w") sa_mem+=("$m") sa_cpu+=("$c")
	read -r w m c < <(measure go vet -vettool="$(freshTool "$i")" "${patterns[@]}")
	vt_wall+=("$w") vt_mem+=("$m") vt_cpu+=("$c")
	printf '%-4s %10s %6d %8s %10s %6d %8s %10s %6d %8s\n' "$i" \
		"${vet_wall[-1]}" $((vet_mem[-1] / 1024)) "${vet_cpu[-1]}" \
		"${sa_wall[-1]}" $((sa_mem[-1] / 1024)) "${sa_cpu[-1]}" \
		"${vt_wall[-1]}" $((vt_mem[-1] / 1024)) "${vt_cpu[-1]}"
done

vw=$(median "${vet_wall[@]}")
sw=$(median "${sa_wall[@]}")
tw=$(median "${vt_wall[@]}")
vc=$(median "${vet_cpu[@]}")
sc=$(median "${sa_cpu[@]}")
tc=$(median "${vt_cpu[@]}")
sm=$(printf '%s\n' "${sa_mem[@]}" | sort -g | tail -1)
vm=$(printf '%s\n' "${vet_mem[@]}" | sort -g | tail -1)
tm=$(printf '%s\n' "${vt_mem[@]}" | sort -g | tail -1)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
gib() { awk -v k="$1" 'BEGIN {printf "%.2f", k / 1048576}'; }

echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
echo "median wall time: vet ${vw}s, standalone ${sw}s, vettool ${tw}s"
echo "median cpu time:  vet ${vc}s, standalone ${sc}s, vettool ${tc}s"
echo "peak memory:      vet $(gib "$vm") GiB, standalone $(gib "$sm") GiB, vettool $(gib "$tm") GiB"
echo "standalone / vet wall time: $(ratio "$sw" "$vw")x  $(verdict "$(ratio "$sw" "$vw")" 0.6)"
echo "standalone peak memory:     $(gib "$sm") GiB  $(verdict "$(gib "$sm")" 2)"
echo "standalone / vet peak mem:  $(ratio "$sm" "$vm")x"
echo "vettool / vet wall time:    $(ratio "$tw" "$vw")x  $(verdict "$(ratio "$tw" "$vw")" 1.25)"
echo "vettool / vet peak mem:     $(ratio "$tm" "$vm")x"
echo "cpu time ratios:            standalone $(ratio "$sc" "$vc")x, vettool $(ratio "$tc" "$vc")x"
if $strict && ((missed)); then
	exit 1
fi
