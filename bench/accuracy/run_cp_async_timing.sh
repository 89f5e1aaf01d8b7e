#!/bin/bash
# Device-side driver for cp_async_timing.cu: builds, dumps the probe's SASS, times every
# (pattern, op, source mode) at grids 1/16/132 (time.txt), then profiles the one-block
# calibration launches with ncu (calib.txt + ncu_calib.csv). Writes to ${OUT:-./out};
# turn the output into rows with `gen_cp_async_timing.py rows OUT DEST.jsonl`.
set -u
OUT=${OUT:-./out}; mkdir -p "$OUT"
D=$(dirname "$0"); W=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$OUT/env.txt"
ncu --version | tail -1 >> "$OUT/env.txt"; nvcc --version | tail -2 >> "$OUT/env.txt"
nvcc -O3 -arch=sm_90 -o "$W/probe" "$D/cp_async_timing.cu" || exit 1
cuobjdump -sass "$W/probe" | grep -E "Function|LDGSTS|STS|DEPBAR|CS2R|BRA" > "$OUT/sass.txt"
python3 "$D/gen_cp_async_timing.py" table "$OUT/table.txt" || exit 1
timeout ${TIME_LIMIT:-150} "$W/probe" time "$OUT/table.txt" ${GRIDS:-1,16,132} ${ITERS:-1000} ${REPS:-3} > "$OUT/time.txt" 2> "$OUT/time.err"
echo "time: rc=$? $(wc -l < "$OUT/time.txt") lines"
"$W/probe" calib "$OUT/table.txt" > "$OUT/calib.txt" 2>&1
M="smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__sass_inst_executed_op_shared_st.sum"
timeout ${NCU_LIMIT:-150} ncu --clock-control none --csv --log-file "$OUT/ncu_calib.csv" --metrics "$M" "$W/probe" calib "$OUT/table.txt" > /dev/null 2> "$OUT/ncu_calib.err"
echo "ncu: rc=$? $(grep -c '"' "$OUT/ncu_calib.csv") csv lines"
grep -E "LDGSTS|STS" "$OUT/sass.txt" | sed 's/^ *//; s/\/\*[0-9a-f]*\*\/ *//' | cut -c1-70 | sort | uniq -c
head -200 "$OUT/time.txt"
