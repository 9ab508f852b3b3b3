#!/bin/sh
# Copies the seed corpus for each target from the tests' data.
set -eu
cd "$(dirname "$0")"
mkdir -p corpus/roster corpus/check corpus/event corpus/rule corpus/notation
find ../tests/rosters ../tests/fixtures -name '*.txt' | while read -r f; do
    n=$(echo "$f" | sed 's|^\.\./||; s|/|_|g')
    cp "$f" "corpus/roster/$n"
    cp "$f" "corpus/check/$n"
done
cp ../tests/events/*.yaml corpus/event/
grep -rh '^ *rule: ' ../lists ../tests/events | sed 's/^ *rule: *//; s/^"//; s/"$//' | sort -u |
    awk '{ f = sprintf("corpus/rule/%04d", NR); print > f; close(f) }'
grep -rhoE '(firepower|range|notes|armour|hull): .*' ../lists | sed 's/^[a-z]*: *//; s/^"//; s/"$//' | sort -u |
    awk '{ f = sprintf("corpus/notation/%04d", NR); print > f; close(f) }'
