#!/usr/bin/env bash
# benches/paths.sh [BIN]: every input path a user waits on, as a whole
# process, paired with its floor (`muster --version`) in the same run
# (issue 33, goals 1 and 3). For each path: callgrind's instructions (which
# the machine's load does not move) and the ratio to `--version`'s, then the
# wall time of RUNS runs in turn with as many of `--version` (a loop, so no
# extra tool is needed; hyperfine gives the same when installed), and the
# ratio. Run from the repository after `cargo build --release`.
set -uo pipefail
BIN=$(realpath "${1:-target/release/muster}")
RUNS=${RUNS:-100}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
export NO_COLOR=1 SOURCE_DATE_EPOCH=1795305600

instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    awk '/Collected/ { print $4 }'
}
# Wall time of RUNS runs, in milliseconds per run.
wall() {
  local start end
  start=$(date +%s%N)
  for _ in $(seq "$RUNS"); do "$@" > /dev/null 2>&1; done
  end=$(date +%s%N)
  echo $(( (end - start) / RUNS / 1000 ))
}

link=$(cat tests/rosters/netea/skitarii-legion/snapfire-chimedons-link.txt)
paths=(
  "text roster (NetEA)|check examples/codex-astartes-3000.txt"
  "text roster (BFG)|check examples/armageddon-sector-1500.txt"
  "text roster (NetEpic)|check tests/rosters/netepic/netepic-adeptus-astartes/legal-3000.ok.txt"
  "text roster (Space Fleet)|check tests/rosters/space-fleet/space-fleet-tyranids/legal-1000.ok.txt"
  "Snapfire link (file)|check tests/rosters/netea/skitarii-legion/snapfire-chimedons-link.txt"
  "Snapfire link (argument)|check $link"
  "BattleScribe .ros (NetEA)|check tests/fixtures/battlescribe/netea-codex-astartes.ros"
  "BattleScribe .ros (NetEpic)|check tests/fixtures/battlescribe/netepic-orks.ros"
  "BattleScribe .rosz (BFG)|check tests/fixtures/battlescribe/bfg-armageddon-sector.rosz"
  "Heresy roster, --lists DIR|check --lists tests/fixtures/heresy tests/fixtures/heresy/rosters/legal.ok.txt"
  "text roster with --event|check --event tests/events/club-3000.yaml examples/codex-astartes-3000.txt"
  "roster PDF|roster --pdf $OUT/r.pdf tests/fixtures/legal.txt"
  "crib sheet PDF|sheet --pdf $OUT/s.pdf codex-astartes"
)

floor=$(instructions "$BIN" --version)
floor_ms=$(wall "$BIN" --version)
printf '%-32s %14s %7s %10s %7s\n' path instructions x-floor "wall(us)" x-floor
printf '%-32s %14s %7s %10s %7s\n' "--version (the floor)" "$floor" 1.00 "$floor_ms" 1.00
for entry in "${paths[@]}"; do
  name=${entry%%|*}
  # shellcheck disable=SC2206
  args=(${entry#*|})
  [[ $name == "Snapfire link (argument)" ]] && args=(check "$link")
  n=$(instructions "$BIN" "${args[@]}")
  # The floor again just before, so both see the same load.
  f_ms=$(wall "$BIN" --version)
  ms=$(wall "$BIN" "${args[@]}")
  printf '%-32s %14s %7.2f %10s %7.2f\n' "$name" "$n" "$(echo "$n / $floor" | bc -l)" "$ms" "$(echo "$ms / $f_ms" | bc -l)"
done
