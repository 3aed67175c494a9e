#!/usr/bin/env bash
# realworld_test.sh checks realworld.sh's handling of broken=PKG,... and
# debs=PKG,... in apps.tsv's flags, and of -reuse (a kept run's results
# taken only when its binary is the same), without the network or the real
# applications: it lays out a tiny module whose package broken does not
# type-check and whose package user imports it, runs the real fencelint
# over it through realworld.sh, and checks that
#   - with broken and user listed, the run passes (their analysis errors are
#     expected), and the application's line says how many program summary
#     passes ran;
#   - with no broken= entry, the run fails on analysis errors;
#   - with only broken listed, the run fails, and the error it prints is
#     user's, not broken's;
#   - with debs= naming a Debian package that is not installed, the
#     application is not run and the output says what to install;
#   - a fencelint that cannot load the application (empty output) fails
#     the run, and one that ran out of disk says so.
#
# Usage: scripts/realworld_test.sh [-fencelint BINARY]
# Exits 0 when every case behaves, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

binary=
if [[ ${1:-} == -fencelint ]]; then
	binary=$(realpath "${2:?-fencelint needs a path}")
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/realworld-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [[ -z $binary ]]; then
	binary=$work/fencelint
	go build -o "$binary" ./cmd/fencelint
fi

# The application, laid out as layout() leaves one: its commit stamp
# matches apps.tsv's, so no mirror is asked for.
readonly commit=0123456789abcdef0123456789abcdef01234567
app=$work/apps/app
mkdir -p "$app/broken" "$app/ok" "$app/user"
printf 'module example.com/app\n\ngo 1.22\n' >"$app/go.mod"
printf 'package broken\n\nfunc F() int { return "not an int" }\n' >"$app/broken/broken.go"
printf 'package ok\n\nfunc G() int { return 1 }\n' >"$app/ok/ok.go"
printf 'package user\n\nimport "example.com/app/broken"\n\nfunc H() int { return broken.F() }\n' >"$app/user/user.go"
echo "$commit" >"$app/.realworld-commit"

failures=0

# check runs realworld.sh over the application with the flags column FLAGS
# (and the script's own ARGS, words) and checks its exit status
# (WANT_STATUS) and that its output holds each line of MUST and none of
# MUST_NOT (grep -E patterns, one a line).
check() {
	local name=$1 flags=$2 want_status=$3 must=$4 must_not=$5 args
	read -r -a args <<<"${6:-}"
	local root=$work/root-$name
	mkdir -p "$root/testdata/realworld"
	printf '# test\napp\texample/app\t%s\t.\t./...\tnone\t%s\n' "$commit" "$flags" >"$root/testdata/realworld/apps.tsv"
	echo '# none' >"$root/testdata/realworld/triage.tsv"
	echo '# none' >"$root/testdata/realworld/targets.tsv"
	local status=0
	REALWORLD_ROOT=$root REALWORLD_DIR=$work/apps REALWORLD_MIRRORS=$work/no-mirrors \
		bash "$repo/scripts/realworld.sh" -fencelint "$binary" "${args[@]}" >"$work/$name.out" 2>&1 || status=$?
	local bad=
	[[ $status == "$want_status" ]] || bad+="exit status $status, want $want_status; "
	local p
	while read -r p; do
		[[ -z $p ]] || grep -qE -- "$p" "$work/$name.out" || bad+="no line matching '$p'; "
	done <<<"$must"
	while read -r p; do
		[[ -z $p ]] || ! grep -qE -- "$p" "$work/$name.out" || bad+="a line matches '$p'; "
	done <<<"$must_not"
	if [[ -n $bad ]]; then
		echo "FAIL: $name: ${bad%; }; output:"
		sed 's/^/    /' "$work/$name.out"
		failures=$((failures + 1))
	else
		echo "ok: $name"
	fi
}

check listed 'broken=example.com/app/broken,example.com/app/user' 0 \
	$'^realworld.sh: ok$\n^app +.* MB peak, 1 pass$' \
	'FAIL'
check unlisted - 1 \
	$'FAIL: .*analysis errors\n^  example.com/app/broken: \n^  example.com/app/user: ' \
	'^realworld.sh: ok$'
check importer-unlisted 'broken=example.com/app/broken' 1 \
	$'FAIL: .*analysis errors\n^  example.com/app/user: ' \
	$'^  example.com/app/broken: \n^realworld.sh: ok$'

# debs= names the Debian packages whose headers the application's cgo
# packages need: a missing one stops the application before its run, and
# says what to install; installed ones change nothing.
check debs-absent 'debs=coreutils,fencelint-no-such-package' 1 \
	'NOT LAID OUT: app: its cgo packages need the Debian packages fencelint-no-such-package \(apt-get install' \
	'coreutils \(|example.com/app/broken'
check debs-present 'debs=coreutils broken=example.com/app/broken,example.com/app/user' 0 \
	'^realworld.sh: ok$' \
	'FAIL|NOT LAID OUT'

# -reuse takes a kept run's finished results when that run's binary is
# this one (its output, marked here, is printed again), and analyzes
# again otherwise.
check kept 'broken=example.com/app/broken,example.com/app/user' 0 '^realworld.sh: ok$' 'FAIL' -keep
kept=$(sed -n 's/^work directory: //p' "$work/kept.out")
echo 'reused result' >>"$kept/app.out"
check reused 'broken=example.com/app/broken,example.com/app/user' 0 \
	$'^reused result$\n^realworld.sh: ok$' 'FAIL|not this one' "-reuse $kept"
cp "$binary" "$work/other-fencelint" && printf 'x' >>"$work/other-fencelint"
cp "$work/other-fencelint" "$kept/fencelint"
check not-reused 'broken=example.com/app/broken,example.com/app/user' 0 \
	$'not this one; analyze everything\n^realworld.sh: ok$' '^reused result$' "-reuse $kept"
rm -rf "$kept"

# A fencelint that cannot load the application prints nothing on stdout:
# the run fails, and is not counted as one with no findings (jq -e takes
# an empty file for a success).
real=$binary
binary=$work/load-failure
printf '#!/bin/sh
echo "fencelint: err: exit status 1: stderr: verifying example.com/absent@v1.0.0/go.mod: checksum mismatch" >&2
exit 1
' >"$binary"
chmod +x "$binary"
check load-failure - 1 \
	$'FAIL: .*no JSON output\n^  fencelint: err: ' \
	'^realworld.sh: ok$'

# A disk that fills up midway is said to be the cause, not the
# application.
printf '#!/bin/sh
echo "fencelint: err: exit status 1: stderr: go: writing stat cache: write /root/.cache/go-build/ab/cd: no space left on device" >&2
exit 1
' >"$binary"
check disk-full - 1 \
	'FAIL: .*the disk filled up' \
	'^realworld.sh: ok$'
binary=$real

if ((failures)); then
	echo "realworld_test.sh: $failures of 10 cases failed"
	exit 1
fi
echo "realworld_test.sh: ok"
