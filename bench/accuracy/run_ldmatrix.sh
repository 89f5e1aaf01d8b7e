#!/bin/bash
# Device-side driver for probe_ldmatrix.cu: builds, dumps SASS, lists the candidate
# ncu metrics, profiles every pattern launch. Writes everything to ${OUT:-./out}.
set -u
OUT=${OUT:-./out}; mkdir -p "$OUT"
D=$(dirname "$0"); W=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/env.txt"; ncu --version >> "$OUT/env.txt"; nvcc --version | tail -2 >> "$OUT/env.txt"
nvcc -O3 -arch=sm_90 -o "$W/probe" "$D/probe_ldmatrix.cu" || exit 1
cuobjdump -sass "$W/probe" | grep -E "Function|LDSM|STSM|LDGSTS|LDS|STS|DEPBAR|LDGDEPBAR" > "$OUT/sass.txt"
python3 "$D/gen_ldmatrix.py" "$OUT/rows.jsonl" "$D/../../tests/data/hw/sm90_stores.jsonl" > "$W/all.txt"
awk '$1 < 100' "$W/all.txt" > "$W/ldsm.txt"; awk '$1 >= 100' "$W/all.txt" > "$W/cpa.txt"
ncu --query-metrics > "$W/q.txt" 2>&1
grep -iE "ldsm|stsm|ldgsts|shared|bank" "$W/q.txt" > "$OUT/query_metrics.txt"
BASE="smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed.sum"
EXTRA=$(awk '{print $1}' "$OUT/query_metrics.txt" | grep -E "^(l1tex|smsp|sm)__" | grep -E "wavefronts|conflicts|inst_executed|bank_(reads|writes)" | grep -vE "atom|_red|_ratio|_pct" | sed 's/$/.sum/' | sort -u | tr '\n' ',' | sed 's/,$//')
# the per-op shared metrics (op_ldsm, op_stsm, op_ldgsts) exist under smsp__sass_l1tex_*
EXTRA=${METRICS:-$EXTRA}
echo "EXTRA=$EXTRA" > "$OUT/metrics_used.txt"
for t in ldsm cpa; do
  timeout 240 ncu --clock-control none --csv --metrics "$BASE,$EXTRA" "$W/probe" "$W/$t.txt" > "$OUT/ncu_$t.csv" 2> "$OUT/ncu_$t.err"
  rc=$?
  if [ $rc -ne 0 ] || [ $(wc -l < "$OUT/ncu_$t.csv") -lt 10 ]; then
    echo "$t: rc=$rc with extra metrics; retrying base only" | tee -a "$OUT/metrics_used.txt"
    timeout 200 ncu --clock-control none --csv --metrics "$BASE" "$W/probe" "$W/$t.txt" > "$OUT/ncu_$t.csv" 2>> "$OUT/ncu_$t.err"
  fi
  echo "$t: $(wc -l < "$OUT/ncu_$t.csv") csv lines"; tail -3 "$OUT/ncu_$t.err"
done
grep -c . "$OUT/query_metrics.txt"; head -c 3000 "$OUT/metrics_used.txt"; grep -c LDSM "$OUT/sass.txt"; grep -E "LDSM|STSM|LDGSTS" "$OUT/sass.txt" | sed 's/^ *//' | cut -c1-90 | sort | uniq -c | head -20
