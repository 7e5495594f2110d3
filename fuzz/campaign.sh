#!/bin/sh
# A long fuzzing run of one target, then its corpus minimised and kept in the
# repository as fuzz/corpora/TARGET.tar.xz (CI's short runs start from it). Run from
# anywhere:
#
#   fuzz/campaign.sh TARGET [SECONDS]      # SECONDS defaults to 1800
#
# Seeds: fuzz/seeds/TARGET, the kept corpus, and for the targets that read them the
# bundled scenarios and spec examples (simulator) or the UBL fixtures (received,
# ubl_validate). The log goes to fuzz/logs/TARGET.log (ignored by git); its last
# `#N DONE` line and `stat::` lines are what fuzz/README.md records.
#
# CPU=N pins the run to core N (taskset) so that work on the other cores cannot take
# its time; the CPU seconds the run used (user + system, from /usr/bin/time) are
# printed beside its wall time: a run that had its core to itself used about as many
# CPU seconds as it lasted.
set -eu
t=$1
secs=${2:-1800}
cd "$(dirname "$0")"
mkdir -p "corpus/$t" corpora logs
kept="corpus/$t.kept"
rm -rf "$kept" && mkdir -p "$kept"
[ -f "corpora/$t.tar.xz" ] && tar -xJf "corpora/$t.tar.xz" -C "$kept"
extra=""
dict=""
case "$t" in
  simulator) extra="../examples/scenarios ../tests/fixtures/spec_examples"; dict="-dict=dicts/json.dict" ;;
  create_body|patch_body|ubl_writer|pdf) dict="-dict=dicts/json.dict" ;;
  payment_terms) dict="-dict=dicts/terms.dict" ;;
  structured_reference) dict="-dict=dicts/reference.dict" ;;
  attachment) dict="-dict=dicts/attachment.dict" ;;
  received|ubl_validate) extra="../tests/fixtures/peppol" ;;
  xml_read) extra="seeds/ubl_validate ../tests/fixtures/peppol"; dict="-dict=dicts/xml.dict" ;;
esac
max_len=""
case "$t" in
  received|ubl_validate|xml_read) max_len="-max_len=65536" ;;
esac
pin=""
[ -n "${CPU:-}" ] && pin="taskset -c $CPU"
# Built first, so that the timed run is the fuzzing alone.
cargo +nightly fuzz build -s none --codegen-units 16 "$t" >"logs/$t.build.log" 2>&1
start=$(date -u +%Y-%m-%dT%H:%M:%SZ)
# shellcheck disable=SC2086 # the lists are meant to split
/usr/bin/time -f '%e %U %S' -o "logs/$t.time" $pin \
  cargo +nightly fuzz run -s none --codegen-units 16 "$t" "corpus/$t" "seeds/$t" "$kept" $extra -- \
  -max_total_time="$secs" -print_final_stats=1 $dict $max_len >"logs/$t.log" 2>&1
read -r wall user sys <"logs/$t.time"
echo "$t: started $start, wall $wall s, CPU $user s user + $sys s system${CPU:+ on core $CPU}"
echo "$t: $(grep -E '^#[0-9]+.*DONE' "logs/$t.log" | tail -1)"
# Minimise what the run found together with what was kept; keep it compressed (the
# inputs are text: 20 MB of scenarios are 0.2 MB of xz).
rm -rf "corpus/$t.min" && mkdir -p "corpus/$t.min"
# shellcheck disable=SC2086
$pin cargo +nightly fuzz run -s none --codegen-units 16 "$t" "corpus/$t.min" "corpus/$t" "$kept" -- -merge=1 $dict $max_len \
  >"logs/$t.merge.log" 2>&1
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - -C "corpus/$t.min" . \
  | xz -9 >"corpora/$t.tar.xz"
echo "$t: kept $(ls "corpus/$t.min" | wc -l) inputs, $(cat "corpus/$t.min"/* | wc -c) bytes, $(wc -c <"corpora/$t.tar.xz") bytes compressed"
