#!/usr/bin/env bash
# Start-up of constraintlab-cli as a user meets it: whole processes, median wall time of N runs,
# peak resident memory and the shared objects the loader initialises, for each given binary
# (e.g. an older build's and this one's, measured one after the other for a fair ratio).
#   bash tests/benchmarks/cli-startup.sh build/dev/app/constraintlab-cli [OTHER_BINARY...]
set -euo pipefail
runs=${RUNS:-30}
measure() {
  local bin=$1; shift
  local times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s%N)
    "$bin" "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    times+=($(((end - start) / 1000)))
  done
  local median rss objects
  median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]/1000}')
  rss='?' # peak resident memory needs GNU time (Debian package "time")
  if [ -x /usr/bin/time ]; then
    local out
    out=$(mktemp)
    /usr/bin/time -o "$out" -f '%M' "$bin" "$@" >/dev/null 2>&1 || true
    rss=$(tail -1 "$out")
    rm -f "$out"
  fi
  objects=$(LD_DEBUG=files "$bin" "$@" 2>&1 >/dev/null | grep -c 'calling init:')
  printf '%-50s %-40s median %6s ms  peak RSS %6s kB  %3s shared objects\n' "$bin" "$*" "$median" "$rss" "$objects"
}
for bin in "$@"; do
  measure "$bin" list
  measure "$bin" describe ring
  measure "$bin" run bead-on-wire --output /dev/null
done
