#!/usr/bin/env bash
# SpillBench and ServerBench of two revisions, alternating in one invocation, then one line per
# measure: BENCH before-after-<measure> ratio=<after/before of ours' mean, median over rounds>.
#
#   sponge-bench/before-after.sh BEFORE [AFTER]
#
# BEFORE and AFTER are git revisions of this repository (AFTER defaults to HEAD). Each is checked
# out into a temporary worktree and built there (mvn -DskipTests package of its benchmark module,
# sponge-bench or, before the module moves, integration); both worktrees are removed on exit.
# Environment: ROUNDS (3), BENCH_JVM (JVM options of every run), SPILL_PROPS and SERVER_PROPS
# (bench.* properties of SpillBench and ServerBench), KEEP_LOG (a file for the raw output).
# ServerBench runs without its TLS rows by default (bench.tls=false; a build without TLS ignores
# it): TLS spills alternating with the plaintext ones would slow the plaintext rows of one side.
set -euo pipefail

before=${1:?usage: $0 BEFORE [AFTER] (git revisions)}
after=${2:-HEAD}
rounds=${ROUNDS:-3}
jvm=${BENCH_JVM:--Xms2g -Xmx2g -XX:MaxDirectMemorySize=2g}
spill_props=${SPILL_PROPS:--Dbench.iterations=4000 -Dbench.warmup=1000 -Dbench.first.touch=64m}
server_props=${SERVER_PROPS:--Dbench.iterations=1500 -Dbench.warmup=500 -Dbench.load.gib=1 -Dbench.tls=false}

repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
work=$(mktemp -d "${TMPDIR:-/tmp}/sponge-before-after.XXXXXX")
log=${KEEP_LOG:-$work/raw.txt}
worktrees=()
cleanup() {
  for tree in "${worktrees[@]}"; do
    git -C "$repo" worktree remove --force "$tree" >/dev/null 2>&1 || true
  done
  git -C "$repo" worktree prune
  rm -rf "$work"
}
trap cleanup EXIT

# Checks out and builds revision $2 as side $1; sets ${1}_cp and ${1}_pkg.
build() {
  local side=$1 rev=$2 tree=$work/$1 module pkg
  git -C "$repo" worktree add --detach --quiet "$tree" "$rev"
  worktrees+=("$tree")
  if [[ -d $tree/sponge-bench ]]; then
    module=sponge-bench pkg=org.spongefiles.bench.transfer
  else
    module=integration pkg=org.spongefiles.integration.bench.transfer
  fi
  echo "# $side: $(git -C "$tree" log -1 --format='%h %s' | cut -c1-100)" | tee -a "$log"
  (cd "$tree" && mvn -B -q -DskipTests package dependency:build-classpath \
    -Dmdep.outputFile=target/bench.classpath -pl "$module" -am)
  printf -v "${side}_cp" '%s' "$tree/$module/target/classes:$(cat "$tree/$module/target/bench.classpath")"
  printf -v "${side}_pkg" '%s' "$pkg"
}

run() {
  local side=$1 bench=$2 props=$3 round=$4 cp pkg
  cp=${side}_cp pkg=${side}_pkg
  echo "=== $bench $side round $round $(date +%T)" >>"$log"
  # shellcheck disable=SC2086 # JVM options and properties are word lists
  (cd "$work" && java $jvm $props -classpath "${!cp}" "${!pkg}.$bench") | grep '^BENCH ' | sed "s/^/$side /" | tee -a "$log" >&2
}

echo "# $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2}') GiB, $(java -version 2>&1 | head -1)" | tee "$log"
echo "# jvm: $jvm; SpillBench: $spill_props; ServerBench: $server_props; rounds: $rounds" | tee -a "$log"
build before "$before"
build after "$after"
for round in $(seq 1 "$rounds"); do
  for bench in SpillBench ServerBench; do
    props=$spill_props
    [[ $bench == ServerBench ]] && props=$server_props
    # Alternate which side goes first, so neither always runs on a warmer machine.
    if (( round % 2 )); then order=(before after); else order=(after before); fi
    for side in "${order[@]}"; do
      run "$side" "$bench" "$props" "$round"
    done
  done
done

# ours' mean per measure: ours_us (per spill) or ours_s (the load run), or the first ours_* figure.
awk '
  $2 == "BENCH" {
    side = $1; measure = $3; value = ""
    for (i = 4; i <= NF; i++) {
      if ($i ~ /^ours_(us|s)=/) { split($i, kv, "="); value = kv[2]; break }
      if (value == "" && $i ~ /^ours_[a-z]+=/) { split($i, kv, "="); value = kv[2] }
    }
    if (value == "") next
    n = ++count[side, measure]; sample[side, measure, n] = value
    if (!(measure in seen)) { seen[measure] = 1; order[++measures] = measure }
  }
  function median(side, measure,   n, i, j, t, a) {
    n = count[side, measure]
    for (i = 1; i <= n; i++) a[i] = sample[side, measure, i]
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  END {
    for (k = 1; k <= measures; k++) {
      m = order[k]
      if (!count["before", m] || !count["after", m]) continue
      b = median("before", m); a = median("after", m)
      printf "BENCH before-after-%s ratio=%.3f before=%s after=%s rounds=%d\n", m, a / b, b, a, count["after", m]
    }
  }' "$log" | tee "$work/summary.txt"
if [[ -n ${KEEP_LOG:-} ]]; then
  cat "$work/summary.txt" >>"$KEEP_LOG"
fi
