#!/usr/bin/env bash
# Runs fencegen over sqlc's end-to-end test schemas with a bigint fence column
# added to every table, and reports per engine: ok, refusals (with or without
# a fencing reason), bad errors, crashes, compile failures and leaked files
# (scripts/sqlcsweep documents each outcome). By hand, not in CI: it needs a
# copy of sqlc's repository, which is never committed here.
#
#   scripts/sqlc-sweep.sh SQLC_REPO [sqlcsweep flags...]
#
# SQLC_REPO is a git clone (or bare git directory) of github.com/sqlc-dev/sqlc.
# The suite is taken at the tag of the sqlc version fencegen links (go.mod),
# so "sqlc accepts it" means the sqlc inside fencegen does; SQLC_REF=HEAD
# sweeps the newest cases instead. Example: scripts/sqlc-sweep.sh ~/src/sqlc -v
set -euo pipefail
cd "$(dirname "$0")/.."
repo=${1:?usage: scripts/sqlc-sweep.sh SQLC_REPO [sqlcsweep flags...]}
shift
gitdir=$repo
[ -d "$repo/.git" ] && gitdir=$repo/.git
ref=${SQLC_REF:-$(go list -m -f '{{.Version}}' github.com/sqlc-dev/sqlc)}
work=$(mktemp -d "${TMPDIR:-/tmp}/sqlc-sweep.XXXXXX")
git --git-dir="$gitdir" archive "$ref" internal/endtoend/testdata | tar -x -C "$work"
testdata=$work/internal/endtoend/testdata
printf 'sqlc end-to-end suite at %s (%s)\n' "$ref" "$(git --git-dir="$gitdir" log -1 --format='%h %cs' "$ref")"
go build -o "$work/fencegen" ./cmd/fencegen
go run ./scripts/sqlcsweep -testdata "$testdata" -fencegen "$work/fencegen" -work "$work/cases" "$@"
