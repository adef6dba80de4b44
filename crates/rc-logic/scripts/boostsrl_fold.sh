#!/usr/bin/env bash
# Side-by-side baseline for docs/PERFORMANCE.md (rc-logic): learns 20 boosted trees
# with BoostSRL (the jar bundled in PyPI srlearn; Java 17) on one fold, with the
# settings our RFGB defaults mirror, and prints learn/infer seconds and the test AUCs.
# SRLEARN_DIR = the installed srlearn package directory (holds BoostSRL.jar, auc.jar).
# SHUF=k shuffles the training negatives file (BoostSRL samples negatives by file order).
# usage: boostsrl_fold.sh <dataset-dir (with background.txt)> <fold dir name or ""> <target> <outdir> [extra mode lines...]
set -euo pipefail
DS=$1; FOLD=$2; TARGET=$3; OUT=$4; shift 4
JAR=${SRLEARN_DIR:?set SRLEARN_DIR to the srlearn package directory}/BoostSRL.jar
AUC=${SRLEARN_DIR}/
rm -rf "$OUT"; mkdir -p "$OUT/train" "$OUT/test"
BK="$OUT/bk.txt"
{
  echo "setParam: numOfClauses=100."
  echo "setParam: numOfCycles=100."
  echo "usePrologVariables: true."
  echo "setParam: nodeSize=2."
  echo "setParam: maxTreeDepth=3."
  tr -d '\r' < "$DS/background.txt" | grep -v '^\s*$' | sed 's/^mode: *//' | sed 's/^/mode: /'
  for m in "$@"; do echo "mode: $m"; done
} > "$BK"
SRC="$DS/${FOLD:+$FOLD/}"
for split in train test; do
  cp "$BK" "$OUT/$split/${split}_bk.txt"
  for k in pos neg; do
    tr -d '\r' < "$SRC$split/${split}_$k.txt" | grep "^$TARGET(" | sort -u | { if [ -n "${SHUF:-}" ] && [ $k = neg ] && [ $split = train ]; then shuf --random-source=<(yes $SHUF); else cat; fi; } > "$OUT/$split/${split}_$k.txt" || true
  done
  tr -d '\r' < "$SRC$split/${split}_facts.txt" > "$OUT/$split/${split}_facts.txt"
done
cd "$OUT"
s=$(date +%s.%N)
java -jar $JAR -l -train train/ -target $TARGET -trees 20 -negPosRatio 2 > train_log.txt 2>&1
e=$(date +%s.%N)
java -jar $JAR -i -test test/ -model train/models/ -target $TARGET -trees 20 -aucJarPath $AUC > test_log.txt 2>&1
f=$(date +%s.%N)
echo "learn_s $(echo "$e - $s" | bc) infer_s $(echo "$f - $e" | bc)" > times.txt
grep -E "AUC ROC|AUC PR|CLL" test_log.txt >> times.txt || true
cat times.txt
