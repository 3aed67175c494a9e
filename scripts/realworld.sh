#!/usr/bin/env bash
# realworld.sh runs fencelint over the real-world set: public Go applications
# that take distributed locks or leases and write stores under them, listed
# with pinned commits in testdata/realworld/apps.tsv. It compares the
# findings with the hand triage in testdata/realworld/triage.tsv and the
# expert reading in testdata/realworld/targets.tsv, and prints:
#   - per application: packages, lines, findings, wall time, peak memory and
#     how many program summary passes ran (fencelint -v), "unsettled" when
#     the limit stopped them;
#   - findings not triaged yet (new) and triaged findings no longer reported
#     (vanished);
#   - recall: the recall targets (likely real fencing bugs found by reading
#     the code) that a finding lands on, and each missed one with its cause;
#   - the precision traps (correct code that looks like a bug) that are
#     reported;
#   - false positives per 100k non-test lines (go list's GoFiles of the
#     analyzed packages).
#
# The applications are not part of this repository and CI cannot fetch them:
# this script is run by hand. Each one is laid out once, outside the
# repository, from a bare git mirror ($REALWORLD_MIRRORS/OWNER+NAME/repo, as
# the search tool's fetch leaves it) with git archive, and the modules its
# packages need are downloaded (go list -deps).
# An application without a mirror is reported as NOT LAID OUT and left out
# of every number (the summary says how many were measured).
#
# Usage: scripts/realworld.sh [-only NAME,...] [-jobs N] [-fencelint BINARY] [-reuse DIR] [-layout] [-keep]
#   -only NAME,...      only these applications
#   -jobs N             analyze up to N applications at once (default 1); on
#                       a machine shared with other work, more jobs get the
#                       run a larger share of it (wall times and peaks are
#                       still per application)
#   -fencelint BINARY   run this binary instead of building ./cmd/fencelint
#   -reuse DIR          take the results of the applications a kept earlier
#                       run (its work directory) finished, when it ran the
#                       same fencelint binary, and analyze only the others
#                       (a run cut short, or one split in parts)
#   -layout             lay the applications out and stop
#   -keep               keep the work directory (fencelint's JSON per app)
# Environment: REALWORLD_DIR (default /work/realworld), REALWORLD_MIRRORS
# (default /work/.mirror).
#
# Exits 0 when every finding is triaged and none vanished, 1 otherwise or on
# a crash or load failure, 2 on bad usage.
set -euo pipefail

# Run from a copy: a run takes long, and bash reads a script as it goes, so
# a rebase or an edit meanwhile would change what the rest of the run does.
if [[ -z ${REALWORLD_ROOT:-} ]]; then
	REALWORLD_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	copy=$(mktemp "${TMPDIR:-/tmp}/realworld-sh.XXXXXX")
	cp "${BASH_SOURCE[0]}" "$copy"
	REALWORLD_ROOT=$REALWORLD_ROOT exec bash -c 'trap "rm -f \"$0\"" EXIT; bash "$0" "$@"' "$copy" "$@"
fi

only=
jobs=1
binary=
reuse=
layout_only=false
keep=false
while (($#)); do
	case $1 in
	-only) only=${2:?-only needs names}; shift 2 ;;
	-jobs) jobs=${2:?-jobs needs a number}; shift 2 ;;
	-fencelint) binary=$(realpath "${2:?-fencelint needs a path}"); shift 2 ;;
	-reuse) reuse=$(realpath -e "${2:?-reuse needs a directory}") || exit 2; shift 2 ;;
	-layout) layout_only=true; shift ;;
	-keep) keep=true; shift ;;
	*) echo "realworld.sh: unknown argument $1; usage: realworld.sh [-only NAME,...] [-jobs N] [-fencelint BINARY] [-reuse DIR] [-layout] [-keep]" >&2; exit 2 ;;
	esac
done
if ! [[ $jobs =~ ^[1-9][0-9]*$ ]]; then
	echo "realworld.sh: -jobs $jobs: want a positive number" >&2
	exit 2
fi

root=$REALWORLD_ROOT
readonly apps_file="$root/testdata/realworld/apps.tsv"
readonly triage_file="$root/testdata/realworld/triage.tsv"
readonly targets_file="$root/testdata/realworld/targets.tsv"
readonly layout_root=${REALWORLD_DIR:-/work/realworld}
readonly mirrors=${REALWORLD_MIRRORS:-/work/.mirror}
work=$(mktemp -d "${TMPDIR:-/tmp}/realworld.XXXXXX")
if $keep; then
	echo "work directory: $work"
else
	trap 'rm -rf "$work"' EXIT
fi
export GOWORK=off GOTOOLCHAIN=local GOFLAGS=-mod=mod

# warnLowDisk warns when the build cache's file system has less than 4 GiB
# free: each application adds gigabytes to it, and a disk that fills midway
# breaks that application's load in ways that read as its own failure.
warnLowDisk() {
	local cache avail
	cache=$(go env GOCACHE)
	avail=$(df -Pk "$cache" 2>/dev/null | awk 'NR == 2 { print $4 }')
	if [[ -n $avail ]] && ((avail < 4 * 1024 * 1024)); then
		echo "warning: $((avail / 1024)) MB free for the build cache ($cache); free some (go clean -cache) before a long run" >&2
	fi
}
warnLowDisk

# selected reports whether the application NAME is to be run.
selected() {
	[[ -z $only ]] || [[ ",$only," == *",$1,"* ]]
}

# layout makes $layout_root/NAME hold REPO at COMMIT with the modules its
# PATTERNS need downloaded, unless it already does; it returns 1, saying why,
# when it cannot.
layout() {
	local name=$1 repo=$2 commit=$3 moddir=$4
	local dest="$layout_root/$name" stamp="$layout_root/$name/.realworld-commit"
	local absent
	absent=$(absentDebs "$6")
	if [[ -n $absent ]]; then
		echo "  NOT LAID OUT: $name: its cgo packages need the Debian packages $absent (apt-get install -y $absent, then run this again)"
		return 1
	fi
	if [[ -f $stamp && $(cat "$stamp") == "$commit" ]]; then
		placeholders "$dest" "$6"
		return 0
	fi
	local mirror="$mirrors/${repo/\//+}/repo"
	if ! git --git-dir="$mirror" cat-file -e "$commit^{commit}" 2>/dev/null; then
		echo "  NOT LAID OUT: $name: no mirror of $repo holding $commit at $mirror (fetch github:$repo with the search tool, then run this again)"
		return 1
	fi
	rm -rf "$dest"
	mkdir -p "$dest"
	# A mirror lacks its largest blobs (test data, assets): leave those files
	# out rather than fail. git archive reads every blob of the tree, even an
	# excluded one, so then the tree is read into a temporary index, the
	# missing files are dropped from it and the rest is checked out.
	local missing=()
	mapfile -t missing < <(git --git-dir="$mirror" ls-tree -r "$commit" |
		awk -F'\t' '$1 ~ / blob / {split($1, f, " "); print f[3]}' |
		git --git-dir="$mirror" cat-file --batch-check='%(objectname) %(objecttype)' --buffer 2>/dev/null |
		awk '$2 == "missing" {print $1}' | sort -u)
	if ((${#missing[@]} == 0)); then
		if ! git --git-dir="$mirror" archive "$commit" | tar -x -C "$dest"; then
			echo "  NOT LAID OUT: $name: git archive of $commit failed"
			return 1
		fi
	else
		local index="$dest/.realworld-index" paths=()
		mapfile -t paths < <(git --git-dir="$mirror" ls-tree -r "$commit" |
			awk -F'\t' 'NR == FNR {m[$1]; next} {split($1, f, " "); if (f[3] in m) print $2}' \
				<(printf '%s\n' "${missing[@]}") -)
		echo "  $name: ${#paths[@]} files missing from the mirror are left out"
		if ! (export GIT_INDEX_FILE=$index &&
			git --git-dir="$mirror" read-tree "$commit" &&
			printf '%s\n' "${paths[@]}" | git --git-dir="$mirror" update-index --force-remove --stdin &&
			git --git-dir="$mirror" checkout-index -a --prefix="$dest/"); then
			echo "  NOT LAID OUT: $name: checking $commit out of a temporary index failed"
			return 1
		fi
		rm -f "$index"
	fi
	# Download what the analyzed packages need, not go mod download's whole
	# graph: the module proxy refuses some versions that only tests or
	# unused packages require.
	placeholders "$dest" "$6"
	local patterns envs
	IFS=, read -r -a patterns <<<"$5"
	splitFlags "$6" 3>"$dest/.realworld-env" >/dev/null
	mapfile -t envs <"$dest/.realworld-env"
	if ! resum "$dest/$moddir" "$6" "${envs[@]}" >"$dest/.realworld-download.log"; then
		echo "  NOT LAID OUT: $name: re-recording a go.sum hash failed (see $dest/.realworld-download.log)"
		return 1
	fi
	if ! (cd "$dest/$moddir" && env "${envs[@]}" go list -deps "${patterns[@]}" >"$dest/.realworld-download.log" 2>&1); then
		echo "  NOT LAID OUT: $name: its packages do not load (see $dest/.realworld-download.log)"
		return 1
	fi
	echo "$commit" >"$stamp"
}

# placeholders writes an empty file at each placeholder=PATH of the flags
# FLAGS under DEST: files the build needs that the repository does not commit
# (a web UI's built assets behind //go:embed), or whose blob the mirror lacks
# (a generated asset package: a .go placeholder holds only its package
# clause, named after its directory).
placeholders() {
	local dest=$1 f path
	for f in $2; do
		[[ $f == placeholder=* ]] || continue
		path=$dest/${f#placeholder=}
		mkdir -p "$(dirname "$path")"
		[[ -e $path ]] && continue
		if [[ $path == *.go ]]; then
			echo "package $(basename "$(dirname "$path")")" >"$path"
		else
			: >"$path"
		fi
	done
}

# absentDebs prints the Debian packages of the debs=PKG,... entries of the
# flags FLAGS that are not installed: the C headers an application's cgo
# packages include, without which its packages do not compile and its
# findings would all seem to vanish.
absentDebs() {
	local f p absent=()
	for f in $1; do
		[[ $f == debs=* ]] || continue
		for p in $(tr , ' ' <<<"${f#debs=}"); do
			dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || absent+=("$p")
		done
	done
	echo "${absent[*]}"
}

# resum drops from DIR's go.sum the hash of each resum=MODULE@VERSION,... of
# the flags FLAGS and records it again from the module proxy (checked against
# the checksum database): for a version retagged upstream after the
# repository recorded its hash, which the go command refuses to load. The
# remaining arguments are environment settings for the go command.
resum() {
	local dir=$1 flags=$2 f mv
	shift 2
	for f in $flags; do
		[[ $f == resum=* ]] || continue
		for mv in $(tr , ' ' <<<"${f#resum=}"); do
			awk -v m="${mv%@*}" -v v="${mv#*@}" '!($1 == m && $2 == v)' "$dir/go.sum" >"$dir/go.sum.new" &&
				mv "$dir/go.sum.new" "$dir/go.sum" &&
				(cd "$dir" && env "$@" go mod download "$mv" 2>&1) || return 1
		done
	done
	return 0
}

# splitFlags splits the flags column into environment settings (VAR=value,
# printed to fd 3) and fencelint flags (stdout); placeholder=PATH entries are
# layout's.
splitFlags() {
	local f
	for f in $1; do
		[[ $f == - || $f == placeholder=* || $f == broken=* || $f == resum=* || $f == debs=* ]] && continue
		if [[ $f == [A-Z]*=* ]]; then echo "$f" >&3; else echo "$f"; fi
	done
}

# brokenPackages prints, one a line, the import paths of the broken=PATH,...
# entries of the flags: packages that do not type-check at the pinned commit
# (apps.tsv says why), whose analysis errors, and those of their importers,
# are expected.
brokenPackages() {
	local f
	for f in $1; do
		[[ $f == broken=* ]] && tr , '\n' <<<"${f#broken=}"
	done
	return 0
}

# unexpectedErrors filters analysis errors ("PKG: ANALYZER: ERROR" lines on
# stdin) to those not of a package in the list $1 (one a line).
unexpectedErrors() {
	awk -v list="$1" 'BEGIN { n = split(list, l, "\n"); for (i = 1; i <= n; i++) broken[l[i]] = 1 }
		{ pkg = $0; sub(/: .*/, "", pkg) } !(pkg in broken)'
}

# jq_findings prints each diagnostic of fencelint -json output as
# "ANALYZER POSN<TAB>MESSAGE"; jq_errors prints each analysis error.
readonly jq_findings='to_entries[] | .value | to_entries[] | select(.value | type == "array")
	| .key as $a | .value[] | "\($a) \(.posn)\t\(.message)"'
# Each related position of a finding (the other calls of a helper, the other
# writes of a function run under the lease), after its finding's key.
readonly jq_related='to_entries[] | .value | to_entries[] | select(.value | type == "array")
	| .key as $a | .value[] | "\($a) \(.posn)" as $k | (.related // [])[] | "\($k)\t\(.posn)"'
readonly jq_errors='to_entries[] | .key as $p | .value | to_entries[] | select(.value | type == "object")
	| "\($p): \(.key): \(.value.error)"'

# analyze runs fencelint on one laid-out application and writes its findings
# to $work/NAME.findings as "ANALYZER NAME/PATH:LINE<TAB>MESSAGE" (PATH
# relative to the repository root), its non-test line count to
# $work/NAME.lines, and, if it failed, $work/NAME.failed. Several may run at
# once (-jobs): each writes only its own files.
analyze() {
	local name=$1 moddir=$2 patterns flags envs
	IFS=, read -r -a patterns <<<"$3"
	local dir="$layout_root/$name/$moddir"
	flags=$(splitFlags "$4" 3>"$work/$name.env")
	mapfile -t envs <"$work/$name.env"
	local status=0 broken
	broken=$(brokenPackages "$4")
	# shellcheck disable=SC2086 # flags are words
	(cd "$dir" && env "${envs[@]}" /usr/bin/time -o "$work/$name.time" -f '%e %M' \
		"$work/fencelint" -json -test=false -v $flags "${patterns[@]}" >"$work/$name.json" 2>"$work/$name.err") || status=$?
	local problems= errors
	errors=$(jq -r "$jq_errors" "$work/$name.json" 2>/dev/null | unexpectedErrors "$broken")
	# fencelint exits 1 on analysis errors; those of declared broken
	# packages are expected.
	[[ $status == 0 || $status == 1 && -z $errors ]] || problems+="fencelint exited $status; "
	# -v's lines on stderr name packages, which may be called panic.
	if grep -q -e 'panic' -e 'internal error' "$work/$name.json" ||
		grep -q -E -e '^(panic|fatal error): ' -e 'internal error' "$work/$name.err"; then
		problems+="crash (panic or internal error); "
	fi
	if grep -q -i 'no space left on device' "$work/$name.err" "$work/$name.json"; then
		problems+="the disk filled up (not the application's fault): free some and run it again; "
	fi
	# jq -e succeeds on an empty file (no value, no false): slurp to tell.
	if ! jq -s -e 'length == 1 and (.[0] | type == "object")' "$work/$name.json" >/dev/null 2>&1; then
		problems+="no JSON output; "
	elif [[ -n $errors ]]; then
		problems+="analysis errors; "
	fi
	local lines npkg nfind
	(cd "$dir" && env "${envs[@]}" go list -f '{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}{{range .CgoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}' \
		"${patterns[@]}" 2>/dev/null) | sort -u >"$work/$name.files"
	npkg=$(cd "$dir" && env "${envs[@]}" go list "${patterns[@]}" 2>/dev/null | wc -l)
	lines=$( (xargs -r cat <"$work/$name.files" || true) | wc -l)
	echo "$name $lines" >"$work/$name.lines"
	local base="$layout_root/$name/"
	jq -r "$jq_findings" "$work/$name.json" 2>/dev/null | grep -v '_test\.go:' |
		sed -E -e "s#^([a-z]+) ${base//./\\.}#\1 $name/#" -e 's#^([a-z]+ [^\t]+\.go:[0-9]+):[0-9]+\t#\1\t#' |
		sort -u >"$work/$name.findings" || true
	jq -r "$jq_related" "$work/$name.json" 2>/dev/null | grep -v '_test\.go:' |
		sed -E -e "s#^([a-z]+) ${base//./\\.}#\1 $name/#" -e 's#^([a-z]+ [^\t]+\.go:[0-9]+):[0-9]+\t#\1\t#' \
			-e "s#\t${base//./\\.}#\t$name/#" -e 's#(\.go:[0-9]+):[0-9]+$#\1#' |
		sort -u >"$work/$name.related" || true
	nfind=$(wc -l <"$work/$name.findings")
	# GNU time puts "Command exited with non-zero status N" above the figures.
	read -r wall kb < <(tail -n 1 "$work/$name.time")
	printf '%-20s %5s pkgs %8s lines %3d findings %7.1fs %6d MB peak%s\n' \
		"$name" "$npkg" "$lines" "$nfind" "$wall" $((kb / 1024)) "$(summaryPasses "$work/$name.err")"
	if [[ -n $problems ]]; then
		echo "  FAIL: ${problems%; }" >&2
		printf '%s\n' "$errors" | head -20 | sed 's/^/  /' >&2
		grep -v '^$' "$work/$name.err" | head -20 | sed 's/^/  /' >&2
		: >"$work/$name.failed"
	fi
}

# summaryPasses prints, from fencelint -v's stderr in FILE, how many
# program summary passes ran (", 2 passes"), and whether the limit stopped
# them before the summary settled (", 3 passes, unsettled"): writes more
# interfaces away from a lease than the passes followed go unseen there.
summaryPasses() {
	sed -n -E -e 's/^ *program summary: +[^,]+, ([0-9]+ pass(es)?), settled.*/, \1/p' \
		-e 's/^ *program summary: +[^,]+, ([0-9]+ pass(es)?), not settled.*/, \1, unsettled/p' "$1" 2>/dev/null | head -n 1
}

# entries prints the non-comment, non-blank lines of a TSV file.
entries() {
	grep -v -e '^#' -e '^[[:space:]]*$' "$1" || true
}

# report compares the findings with the triage and the targets, for the
# applications measured ($work/measured.txt), and prints the numbers.
report() {
	local measured_re
	measured_re="^($(paste -sd'|' "$work/measured.txt"))/"
	cut -f1 "$work/actual.txt" | sort -u >"$work/actual.keys"
	# triage.tsv: KEY<TAB>VERDICT<TAB>REASON, KEY being "ANALYZER NAME/PATH:LINE".
	entries "$triage_file" | awk -F'\t' -v file="$triage_file" '
		NF < 3 || $3 == "" || ($2 != "TP" && $2 != "FP" && $2 != "debatable") {
			printf "%s: entry needs KEY, TP|FP|debatable and a reason: %s\n", file, $0 > "/dev/stderr"; bad = 1; next }
		{ print } END { exit bad }' >"$work/triage.all" || failed=1
	awk -F'\t' '{ split($1, k, " "); print k[2] "\t" $0 }' "$work/triage.all" |
		grep -E "$measured_re" | cut -f2- | sort -t$'\t' -k1,1 >"$work/triage.txt" || true
	cut -f1 "$work/triage.txt" | sort -u >"$work/triage.keys"
	local new vanished
	new=$(comm -23 "$work/actual.keys" "$work/triage.keys")
	vanished=$(comm -13 "$work/actual.keys" "$work/triage.keys")
	if [[ -n $new ]]; then
		echo
		echo "new findings, not in testdata/realworld/triage.tsv (triage each: TP, FP or debatable, with a reason):"
		grep -F -f <(sed 's/$/\t/' <<<"$new") "$work/actual.txt" | sed 's/^/  /'
		failed=1
	fi
	if [[ -n $vanished ]]; then
		echo
		echo "triaged findings no longer reported (a fixed false positive, or a lost true finding):"
		grep -F -f <(sed 's/$/\t/' <<<"$vanished") "$work/triage.txt" | sed 's/^/  /'
		failed=1
	fi

	# Verdicts of the findings reported now.
	local tp fp deb
	join -t$'\t' "$work/actual.keys" "$work/triage.txt" >"$work/current.txt" || true
	tp=$(awk -F'\t' '$2 == "TP"' "$work/current.txt" | wc -l)
	fp=$(awk -F'\t' '$2 == "FP"' "$work/current.txt" | wc -l)
	deb=$(awk -F'\t' '$2 == "debatable"' "$work/current.txt" | wc -l)

	# targets.tsv: ID<TAB>KIND<TAB>NAME/PATH:LINE[,LINE...][;NAME/PATH:LINE...]<TAB>CLASS<TAB>WHY.
	# A target is found when a finding of any check that is triaged true lands
	# on one of its lines, or lists one as a related position (the other
	# writes of a function run under the lease, one finding for them all; a
	# finding there that names a write the lease does not guard finds
	# nothing); a trap is sprung when any finding lands on it or lists it.
	{ sed -E 's/^[a-z]+ //' "$work/actual.keys"; cut -f2 "$work/related.txt"; } | sort -u >"$work/actual.lines"
	awk -F'\t' '$2 == "TP" {print $1}' "$work/current.txt" >"$work/true.keys"
	{ sed -E 's/^[a-z]+ //' "$work/true.keys"; join -t$'\t' <(sort "$work/true.keys") <(sort -t$'\t' -k1,1 "$work/related.txt") | cut -f2; } |
		sort -u >"$work/true.lines"
	local found=0 total=0 traps=0 sprung=0 missed="" sprung_list=""
	while IFS=$'\t' read -r id kind where class why; do
		[[ $where =~ $measured_re ]] || continue
		local file lines hit=false l loc locs
		local lines_file=$work/actual.lines
		[[ $kind == target ]] && lines_file=$work/true.lines
		IFS=';' read -r -a locs <<<"$where"
		for loc in "${locs[@]}"; do
			file=${loc%:*}
			IFS=, read -r -a lines <<<"${loc##*:}"
			for l in "${lines[@]}"; do
				grep -qxF "$file:$l" "$lines_file" && hit=true
			done
		done
		if [[ $kind == target ]]; then
			total=$((total + 1))
			if $hit; then found=$((found + 1)); else missed+="  $id $where [$class] $why"$'\n'; fi
		else
			traps=$((traps + 1))
			if $hit; then sprung=$((sprung + 1)); sprung_list+="  $id $where $why"$'\n'; fi
		fi
	done < <(entries "$targets_file")

	local lines
	lines=$(awk '{s += $2} END {print s + 0}' "$work/lines.txt")
	echo
	echo "measured $(wc -l <"$work/measured.txt") of $napps applications, $lines non-test lines"
	echo "findings: $(wc -l <"$work/actual.keys") ($tp TP, $fp FP, $deb debatable, $(grep -c . <<<"$new" || true) not triaged)"
	echo "recall on targets: $found of $total"
	if [[ -n $missed ]]; then
		echo "missed targets [cause]:"
		printf '%s' "$missed"
	fi
	echo "precision traps reported: $sprung of $traps"
	[[ -z $sprung_list ]] || printf '%s' "$sprung_list"
	awk -v fp="$fp" -v deb="$deb" -v n="$lines" 'BEGIN {
		if (n > 0) printf "false positives per 100k lines: %.2f (%.2f counting debatable ones as false)\n", fp * 100000 / n, (fp + deb) * 100000 / n }'
}

failed=0
napps=0
mkdir -p "$layout_root"
: >"$work/measured.txt"
: >"$work/actual.txt"
: >"$work/related.txt"
: >"$work/lines.txt"
if ! $layout_only; then
	if [[ -n $binary ]]; then
		cp "$binary" "$work/fencelint"
	else
		(cd "$root" && go build -o "$work/fencelint" ./cmd/fencelint)
	fi
	printf '%-20s\n' application
	if [[ -n $reuse ]] && ! cmp -s "$reuse/fencelint" "$work/fencelint"; then
		echo "realworld.sh: -reuse $reuse: that run's fencelint is not this one; analyze everything" >&2
		reuse=
	fi
fi
while IFS=$'\t' read -r name repo commit moddir patterns _locks flags; do
	selected "$name" || continue
	napps=$((napps + 1))
	if ! layout "$name" "$repo" "$commit" "$moddir" "$patterns" "$flags"; then
		continue
	fi
	$layout_only && continue
	echo "$name" >>"$work/measured.txt"
	if [[ -n $reuse && -e $reuse/$name.lines ]]; then
		cp -p "$reuse/$name".* "$work/"
		continue
	fi
	while (($(jobs -rp | wc -l) >= jobs)); do
		wait -n || true
	done
	analyze "$name" "$moddir" "$patterns" "$flags" >"$work/$name.out" 2>"$work/$name.problems" &
done < <(entries "$apps_file")
if $layout_only; then
	exit 0
fi
wait
# Gather the applications' results in apps.tsv's order.
while read -r name; do
	if [[ ! -e $work/$name.lines ]]; then
		echo "  FAIL: $name: the analysis stopped before it finished" >&2
		failed=1
		continue
	fi
	cat "$work/$name.out"
	cat "$work/$name.problems" >&2
	cat "$work/$name.findings" >>"$work/actual.txt"
	cat "$work/$name.related" >>"$work/related.txt" 2>/dev/null || true
	cat "$work/$name.lines" >>"$work/lines.txt"
	[[ ! -e $work/$name.failed ]] || failed=1
done <"$work/measured.txt"
if [[ ! -s $work/measured.txt ]]; then
	echo "realworld.sh: no application is laid out; nothing was measured" >&2
	exit 1
fi
report
if ((failed)); then
	echo "realworld.sh: FAIL"
	exit 1
fi
echo "realworld.sh: ok"
