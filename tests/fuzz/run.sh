#!/bin/bash
# Runs fuzz targets for a set time each and prints, per target, the seconds,
# the runs executed and the edges covered, from libFuzzer's final stats.
# usage: tests/fuzz/run.sh SECONDS MERGE TARGET...
# Each target reads its committed corpus tests/fuzz/corpus/<target> and
# writes new inputs to build/fuzz/corpus/<target>; with MERGE=1 the inputs
# that add coverage are then merged into the committed corpus. A crashing
# input is written to build/fuzz/<target>-crash-*.
seconds=$1 merge=$2
shift 2
status=0
for target in "$@"; do
  binary=build/fuzz/fuzz_$target
  corpus=tests/fuzz/corpus/$target
  scratch=build/fuzz/corpus/$target
  log=build/fuzz/$target.log
  mkdir -p "$corpus" "$scratch"
  "$binary" -seed=1 -max_len=1024 -timeout=25 -max_total_time="$seconds" \
    -print_final_stats=1 -artifact_prefix="build/fuzz/$target-" \
    "$scratch" "$corpus" >"$log" 2>&1
  result=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  edges=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
  printf '%-18s %5s s %10s runs %6s edges' "$target" "$seconds" "${runs:-?}" \
    "${edges:-?}"
  if [ "$result" -ne 0 ]; then
    status=1
    printf '  FAILED (%s)\n' "$log"
    grep -E '^(==|SUMMARY|contract broken|artifact_prefix)|runtime error' "$log"
    continue
  fi
  if [ "$merge" = 1 ]; then
    "$binary" -merge=1 -max_len=1024 -timeout=25 "$corpus" "$scratch" \
      >>"$log" 2>&1 || status=1
    printf '  corpus %s files' "$(ls "$corpus" | wc -l)"
  fi
  printf '\n'
done
exit $status
