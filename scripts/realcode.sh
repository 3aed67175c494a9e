#!/usr/bin/env bash
# realcode.sh runs fencelint over large real code and checks that it stays
# quiet there: no crash (no panic, no "internal error"), no analysis error,
# no package that fails to load, and exactly the findings listed in
# testdata/realcode/expected.txt, each a true finding with its reason.
#
# The code: the standard library, golang.org/x/tools, and the modules of the
# lock libraries fencelint knows (at the versions shared/docs/lock-apis.md
# was checked against), each fetched through the Go module proxy into its
# own scratch module (some of them cannot share one: consul/api and raft
# need different go-metrics). Standalone, test files are not analyzed: a
# library's test dependencies are not part of what its users build. Under
# -vet they are (go vet always analyzes them), but findings in test files
# are not compared with the list.
#
# Usage: scripts/realcode.sh [-quick] [-vet] [-fencelint BINARY] [-keep]
#   -quick              only the lock libraries (skips std and x/tools);
#                       what CI runs
#   -vet                run fencelint as go vet -vettool, which analyzes
#                       every dependency too (for facts), not only the
#                       listed packages: more code that must not crash
#   -fencelint BINARY   run this binary instead of building ./cmd/fencelint
#   -keep               keep the work directory (JSON output per target)
#
# Exits 0 if everything matches, 1 on any crash, error or difference (the
# differences are printed, with the findings' messages), 2 on bad usage.
set -euo pipefail

# targets lists NAME VERSION PATTERNS, one a line; PATTERNS is a
# comma-separated list of package patterns, VERSION "-" is the installed
# Go's standard library. QUICK marks the ones -quick runs. redsync's
# valkeygo adapter and examples are left out: they import
# valkey-go/valkeycompat v1.0.79, which the module proxy does not serve.
readonly targets='
std                               -        std
golang.org/x/tools                v0.52.0  golang.org/x/tools/...
go.etcd.io/etcd/client/v3         v3.7.3   go.etcd.io/etcd/client/v3/...                    QUICK
github.com/go-redsync/redsync/v4  v4.18.1  github.com/go-redsync/redsync/v4,github.com/go-redsync/redsync/v4/redis,github.com/go-redsync/redsync/v4/redis/goredis/...,github.com/go-redsync/redsync/v4/redis/redigo,github.com/go-redsync/redsync/v4/redis/rueidis  QUICK
github.com/bsm/redislock          v0.9.4   github.com/bsm/redislock/...                     QUICK
github.com/hashicorp/consul/api   v1.34.5  github.com/hashicorp/consul/api/...              QUICK
github.com/go-zookeeper/zk        v1.0.4   github.com/go-zookeeper/zk/...                   QUICK
k8s.io/client-go                  v0.37.2  k8s.io/client-go/tools/leaderelection/...        QUICK
github.com/go-co-op/gocron/v2     v2.21.2  github.com/go-co-op/gocron/v2/...                QUICK
github.com/hashicorp/raft         v1.8.0   github.com/hashicorp/raft/...                    QUICK
github.com/jackc/pgx/v5           v5.13.0  github.com/jackc/pgx/v5/...                      QUICK
github.com/redis/go-redis/v9      v9.23.0  github.com/redis/go-redis/v9/...                 QUICK
'

quick=false
vet=false
keep=false
binary=
while (($#)); do
	case $1 in
	-quick) quick=true; shift ;;
	-vet) vet=true; shift ;;
	-keep) keep=true; shift ;;
	-fencelint) binary=$(realpath "${2:?-fencelint needs a path}"); shift 2 ;;
	*) echo "realcode.sh: unknown argument $1; usage: realcode.sh [-quick] [-vet] [-fencelint BINARY] [-keep]" >&2; exit 2 ;;
	esac
done

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly expected_file="$root/testdata/realcode/expected.txt"
work=$(mktemp -d "${TMPDIR:-/tmp}/realcode.XXXXXX")
if $keep; then
	echo "work directory: $work"
else
	trap 'rm -rf "$work"' EXIT
fi
export GOWORK=off GOTOOLCHAIN=local GOFLAGS=-mod=mod
modcache=$(go env GOMODCACHE)
goroot=$(go env GOROOT)

# buildFencelint puts the fencelint to run at $work/fencelint.
buildFencelint() {
	if [[ -n $binary ]]; then
		cp "$binary" "$work/fencelint"
	else
		(cd "$root" && go build -o "$work/fencelint" ./cmd/fencelint)
	fi
}

# scratchModule makes $work/mod-SLUG, a module that requires the packages
# PATTERNS... at VERSION, and prints its directory.
scratchModule() {
	local slug=$1 version=$2
	shift 2
	local dir="$work/mod-$slug"
	mkdir "$dir"
	cd "$dir"
	go mod init "realcode.local/$slug" >/dev/null 2>&1
	local get=(go get)
	if $vet; then
		get+=(-t) # go vet analyzes test files: it needs their imports
	fi
	if [[ $version != - ]] && ! "${get[@]}" "${@/%/@$version}" >"$dir/get.log" 2>&1; then
		echo "realcode.sh: cannot fetch $*@$version:" >&2
		cat "$dir/get.log" >&2
		return 1
	fi
	echo "$dir"
}

# analyze runs fencelint -json on one target, checks that it neither
# crashed nor failed, and appends its findings to $work/actual.txt as
# "ANALYZER PATH:LINE<TAB>MESSAGE" lines.
analyze() {
	local name=$1 version=$2 patterns
	IFS=, read -r -a patterns <<<"$3"
	local slug=${name//[^A-Za-z0-9]/_}
	local dir status=0 start=$SECONDS
	if ! dir=$(scratchModule "$slug" "$version" "${patterns[@]}"); then
		echo "  FAIL: $name: cannot make its scratch module" >&2
		failed=1
		return
	fi
	local cmd=("$work/fencelint" -json -test=false)
	if $vet; then
		# go vet -json prints one JSON object per package, and exits 0
		# with findings; it analyzes test files, which -test=false
		# cannot turn off there.
		cmd=(go vet -vettool="$work/fencelint" -json)
	fi
	(cd "$dir" && /usr/bin/time -o "$work/$slug.time" -f '%e %M' \
		"${cmd[@]}" "${patterns[@]}" >"$work/$slug.json" 2>"$work/$slug.err") || status=$?
	local problems=
	if ((status != 0)); then
		problems+="fencelint exited $status; "
	fi
	if grep -q -e 'panic' -e 'internal error' "$work/$slug.err" "$work/$slug.json"; then
		problems+="crash (panic or internal error); "
	fi
	if [[ -s $work/$slug.err ]]; then
		problems+="messages on stderr; "
	fi
	if ! jq -e 'type == "object"' "$work/$slug.json" >/dev/null 2>&1; then
		problems+="no JSON output; "
	elif [[ -n $(jq -r "$jq_errors" "$work/$slug.json") ]]; then
		problems+="analysis errors; "
	fi
	local npkg nfind
	npkg=$(cd "$dir" && go list "${patterns[@]}" 2>/dev/null | wc -l)
	jq -r "$jq_findings" "$work/$slug.json" 2>/dev/null | grep -v '_test\.go:' | relativize >>"$work/actual.txt" || true
	nfind=$(jq -r "$jq_findings" "$work/$slug.json" 2>/dev/null | grep -c -v '_test\.go:' || true)
	read -r wall kb <"$work/$slug.time"
	printf '%-34s %-8s %5s pkgs %3d findings %7.1fs %6d MB peak, %3ds with fetch\n' \
		"$name" "$version" "$npkg" "$nfind" "$wall" $((kb / 1024)) $((SECONDS - start))
	if [[ -n $problems ]]; then
		echo "  FAIL: ${problems%; }" >&2
		jq -r "$jq_errors" "$work/$slug.json" 2>/dev/null | head -20 | sed 's/^/  /' >&2
		head -40 "$work/$slug.err" | sed 's/^/  /' >&2
		failed=1
	fi
}

# canary checks that fencelint reports the bundled example's unfenced
# write: a binary that reports nothing would otherwise pass here.
canary() {
	local out
	out=$(cd "$root" && "$work/fencelint" -json ./examples/frozenworker 2>&1 | jq -r "$jq_findings" 2>&1) || true
	if ! grep -q '^unfencedwrite .*/examples/frozenworker/advisory\.go:' <<<"$out"; then
		echo "  FAIL: fencelint does not report the unfenced write in examples/frozenworker: $out" >&2
		failed=1
	fi
}

# jq_findings prints each diagnostic of fencelint -json output as
# "ANALYZER POSN<TAB>MESSAGE"; jq_errors prints each analysis error.
readonly jq_findings='to_entries[] | .value | to_entries[] | select(.value | type == "array")
	| .key as $a | .value[] | "\($a) \(.posn)\t\(.message)"'
readonly jq_errors='to_entries[] | .key as $p | .value | to_entries[] | select(.value | type == "object")
	| "\($p): \(.key): \(.value.error)"'

# relativize rewrites absolute positions "/x/y.go:L:C" to paths under the
# module cache (module@version/file.go:L) or GOROOT (std/file.go:L), which
# are the same on every machine.
relativize() {
	sed -E -e "s#^([a-z]+) $modcache/#\1 #" -e "s#^([a-z]+) $goroot/src/#\1 std/#" \
		-e 's#^([a-z]+ [^\t]+\.go:[0-9]+):[0-9]+\t#\1\t#'
}

# expectedEntries prints the entries of expected.txt, checking that each has
# a justification: the line before it must be a comment.
expectedEntries() {
	awk -v file="$expected_file" '
		/^[ \t]*$/ { prev = ""; next }
		/^#/ { prev = $0; next }
		prev == "" { printf "%s:%d: entry without a justification comment on the line before: %s\n", file, NR, $0 > "/dev/stderr"; bad = 1 }
		{ print; prev = "" }
		END { exit bad }' "$expected_file"
}

# compare prints the differences between the findings and expected.txt
# and reports whether there are none.
compare() {
	cut -f1 "$work/actual.txt" | sort -u >"$work/actual.keys"
	local entries
	entries=$(expectedEntries) || return 1
	if $quick; then
		entries=$(grep -v -e '^[a-z]* std/' -e '^[a-z]* golang.org/x/tools@' <<<"$entries" || true)
	fi
	sort -u <<<"$entries" | sed '/^$/d' >"$work/expected.keys"
	local unexpected missing
	unexpected=$(comm -23 "$work/actual.keys" "$work/expected.keys")
	missing=$(comm -13 "$work/actual.keys" "$work/expected.keys")
	if [[ -n $unexpected ]]; then
		echo "findings not in testdata/realcode/expected.txt (a false positive to fix, or a true finding to list with its reason):"
		grep -F -f <(sed 's/$/\t/' <<<"$unexpected") "$work/actual.txt" | sed 's/^/  /'
	fi
	if [[ -n $missing ]]; then
		echo "findings in testdata/realcode/expected.txt that fencelint no longer reports:"
		sed 's/^/  /' <<<"$missing"
	fi
	[[ -z $unexpected && -z $missing ]]
}

start=$SECONDS
failed=0
buildFencelint
canary
: >"$work/actual.txt"
printf '%-34s %-8s\n' target version
while read -r name version pattern mark; do
	[[ -z $name ]] && continue
	if $quick && [[ $mark != QUICK ]]; then
		continue
	fi
	analyze "$name" "$version" "$pattern"
done <<<"$targets"
compare || failed=1
echo "total $((SECONDS - start))s"
if ((failed)); then
	echo "realcode.sh: FAIL"
	exit 1
fi
echo "realcode.sh: ok"
