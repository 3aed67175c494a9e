#!/usr/bin/env bash
# The commands of action.yml's steps (GitHub Actions sets the variables):
#   build  go build fencelint from the action's source ($GITHUB_ACTION_PATH,
#          checked out at the ref the workflow uses) into $RUNNER_TEMP
#   run    fencelint -format sarif over $FENCELINT_PACKAGES into
#          $FENCELINT_SARIF; sets the sarif-file output
#   check  print the findings that are not suppressed, set the findings
#          output, and fail if there are any and $FENCELINT_FAIL is true
set -euo pipefail

bin="${RUNNER_TEMP:?}/fencelint-bin/fencelint"

case "${1:-}" in
build)
	cd "${GITHUB_ACTION_PATH:?}"
	go build -o "$bin" ./cmd/fencelint
	"$bin" -version
	;;
run)
	sarif="$(realpath -m "${FENCELINT_SARIF:-fencelint.sarif}")"
	# -format sarif exits 0 with findings, 1 if a package fails to load.
	# shellcheck disable=SC2086 # packages and args are word lists
	"$bin" -format sarif ${FENCELINT_ARGS:-} ${FENCELINT_PACKAGES:-./...} >"$sarif.tmp"
	mv "$sarif.tmp" "$sarif"
	echo "sarif-file=$sarif" >>"${GITHUB_OUTPUT:?}"
	;;
check)
	sarif="${FENCELINT_SARIF_PATH:?the run step wrote no SARIF log}"
	unsuppressed='[.runs[].results[] | select((.suppressions // []) | length == 0)]'
	jq -r "$unsuppressed[] | \"::warning file=\(.locations[0].physicalLocation.artifactLocation.uri),line=\(.locations[0].physicalLocation.region.startLine),col=\(.locations[0].physicalLocation.region.startColumn),title=fencelint \(.ruleId)::\(.message.text)\"" "$sarif"
	n="$(jq "$unsuppressed | length" "$sarif")"
	echo "findings=$n" >>"${GITHUB_OUTPUT:?}"
	echo "fencelint: $n finding(s)"
	if [ "$n" -gt 0 ] && [ "${FENCELINT_FAIL:-true}" = true ]; then
		exit 1
	fi
	;;
*)
	echo "usage: scripts/action.sh build|run|check (the steps of action.yml)" >&2
	exit 2
	;;
esac
