#!/usr/bin/env bash
# Builds the libFuzzer harnesses (preset fuzz, clang) and runs each from the saved inputs and
# the shipped scenes. A crash fails the run; its input is copied to tests/fuzz/inputs/NAME/ so
# that the replay test (ctest fuzzInputsOfNAMEStayHandled) keeps it from coming back once fixed.
#   bash tests/fuzz/run.sh [SECONDS]     each harness for SECONDS (default 60), exploring anew
#   bash tests/fuzz/run.sh --runs N      each harness for N inputs
# CLAB_FUZZ_SEED=N fixes libFuzzer's sequence of inputs. With --runs as well, how far the
# sequence goes no longer depends on the machine's speed (a time limit cuts it where the speed
# says); CI uses both. Coverage still differs a little between runs (GiNaC orders terms by
# hashes of addresses), so explore longer before landing a change to the parser.
set -euo pipefail
cd "$(dirname "$0")/../.."
limit=(-max_total_time="${1:-60}")
what="${1:-60} s"
if [ "${1:-}" = --runs ]; then
  limit=(-runs="${2:?--runs needs a number}")
  what="$2 inputs"
fi
cmake --preset fuzz >/dev/null
# Only the harnesses: the rest of this configuration (the tests under clang) is not run here.
targets=()
for source in tests/fuzz/fuzz_*.cpp; do
  name="${source##*/}"
  targets+=("${name%.cpp}")
done
cmake --build --preset fuzz --target "${targets[@]}"
status=0
passed=0
failed=0
for harness in build/fuzz/tests/fuzz/fuzz_*; do
  name="${harness##*/fuzz_}"
  corpus="build/fuzz/corpus/$name"
  artifacts="build/fuzz/artifacts/$name"
  mkdir -p "$corpus" "$artifacts"
  dictionary=()
  [ -f "tests/fuzz/$name.dict" ] && dictionary=(-dict="tests/fuzz/$name.dict")
  # The budget of one input. A format-2 expression must be derived within the derivation
  # budget (docs/FORMATS.md: about a second and a few hundred MB), here with the sanitizers'
  # slowdown and memory on top: an input beyond it is a finding (a timeout or oom artifact).
  budget=(-timeout=10 -rss_limit_mb=4096)
  [ "$name" = SystemExpression ] && budget=(-timeout=4 -rss_limit_mb=1536)
  echo "fuzzing $name for $what"
  if ! LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp" "$harness" "${limit[@]}" "${budget[@]}" -print_final_stats=1 -seed="${CLAB_FUZZ_SEED:-0}" \
      "${dictionary[@]}" -artifact_prefix="$artifacts/" \
      "$corpus" "tests/fuzz/inputs/$name" scenes; then
    status=1
    failed=$((failed + 1))
    cp "$artifacts"/* "tests/fuzz/inputs/$name/" 2>/dev/null || true
    echo "fuzz_$name found a failing input; it is now in tests/fuzz/inputs/$name/" >&2
  else
    passed=$((passed + 1))
  fi
done
echo "fuzz: $passed passed, $failed failed"
exit "$status"
