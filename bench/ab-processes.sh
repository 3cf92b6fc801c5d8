#!/usr/bin/env bash
# Two commands timed as fresh processes, alternating (A B A B ...), so that a slow spell of
# the machine falls on both: the median wall-clock ms of each and B / A. The scratch A/B
# of a change against the build before it, e.g. with the build before in a worktree:
#   git worktree add /tmp/before <commit> && (cd /tmp/before && npm ci && npm run build)
#   bench/ab-processes.sh 15 "SHAPELOG_CACHE_DIR=/tmp/ca node /tmp/before/bin/shapelog.js infer M.onnx" \
#                            "SHAPELOG_CACHE_DIR=/tmp/cb node bin/shapelog.js infer M.onnx"
# (each side with a cache folder of its own, warmed by a first run). Output goes nowhere;
# a command that fails is reported and stops the comparison.
set -euo pipefail
if [ $# -ne 3 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: bench/ab-processes.sh RUNS 'command A' 'command B'" >&2
  exit 2
fi
unset NODE_EXTRA_CA_CERTS # node parses it at every start (see bench/process-env.ts)
runs=$1 a=$2 b=$3
ms() {
  local s e
  s=$EPOCHREALTIME
  if ! bash -c "$1" >/dev/null 2>&1; then
    echo "failed: $1" >&2
    exit 1
  fi
  e=$EPOCHREALTIME
  awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f\n", (e - s) * 1000 }'
}
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
ta=() tb=()
for _ in $(seq "$runs"); do
  ta+=("$(ms "$a")")
  tb+=("$(ms "$b")")
done
ma=$(median "${ta[@]}") mb=$(median "${tb[@]}")
awk -v a="$ma" -v b="$mb" -v n="$runs" 'BEGIN { printf "A %.0f ms, B %.0f ms (medians of %d each, alternating): B / A = %.3f\n", a, b, n, b / a }'
