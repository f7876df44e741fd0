#!/bin/bash
# Runs fuzz targets for a set time each and prints, per target, the seconds
# run, the runs executed and the edges covered (libFuzzer's final stats).
# usage: tests/fuzz/run.sh SECONDS MERGE TARGET...
# Each target reads its committed corpus tests/fuzz/corpus/<target> and
# writes new inputs to build/fuzz/corpus/<target>. With MERGE=1 the corpus is
# then rebuilt from both as the smallest set with the same coverage, plus
# the regression-* inputs, which are always kept. A crashing input is
# written to build/fuzz/<target>-crash-*.
seconds=$1 merge=$2
shift 2
status=0
for target in "$@"; do
  binary=build/fuzz/fuzz_$target
  corpus=tests/fuzz/corpus/$target
  scratch=build/fuzz/corpus/$target
  log=build/fuzz/$target.log
  mkdir -p "$corpus" "$scratch"
  started=$SECONDS
  "$binary" -seed=1 -max_len=1024 -timeout=25 -max_total_time="$seconds" \
    -print_final_stats=1 -artifact_prefix="build/fuzz/$target-" \
    "$scratch" "$corpus" >"$log" 2>&1
  result=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  edges=$(grep -ao 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
  printf '%-18s %5s s %10s runs %6s edges' "$target" \
    "$((SECONDS - started))" "${runs:-?}" "${edges:-?}"
  if [ "$result" -ne 0 ]; then
    status=1
    printf '  FAILED (%s)\n' "$log"
    grep -E '^(==|SUMMARY|contract broken|artifact_prefix)|runtime error' "$log"
    continue
  fi
  if [ "$merge" = 1 ]; then
    merged=build/fuzz/merged/$target
    rm -rf "$merged" && mkdir -p "$merged"
    if "$binary" -merge=1 -max_len=1024 -timeout=25 "$merged" "$corpus" \
      "$scratch" >>"$log" 2>&1; then
      cp "$corpus"/regression-* "$merged"/ 2>/dev/null
      rm -f "$corpus"/* && cp "$merged"/* "$corpus"/
    else
      status=1
    fi
    printf '  corpus %s files, %s bytes' "$(ls "$corpus" | wc -l)" \
      "$(cat "$corpus"/* 2>/dev/null | wc -c)"
  fi
  printf '\n'
done
exit $status
