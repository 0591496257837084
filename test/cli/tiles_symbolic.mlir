// Symbolic tiles, the tiling space and the best tiling of real fusions.

// REQUIRES: xla-indexing-cli
// RUN: %xla-indexing tiles %S/../../examples/hlo/reshape_tiles.hlo --symbolic | FileCheck %s --check-prefix=SYM
// RUN: %xla-indexing tiles %S/../../examples/hlo/reshape_tiles.hlo --space | FileCheck %s --check-prefix=SPACE
// RUN: %xla-indexing tiles %S/../../examples/hlo/transpose_add.hlo --best --top 2 | FileCheck %s --check-prefix=BEST
// RUN: %xla-indexing tiles %S/../../examples/hlo/softmax.hlo --best --format json | FileCheck %s --check-prefix=JSON
// RUN: %xla-indexing tiles %S/../../crates/hlo/tests/data/layer_norm.hlo --best --top 1 | FileCheck %s --check-prefix=NORM
// RUN: %xla-indexing tiles %S/../../crates/hlo/tests/data/concatenations.hlo --symbolic | FileCheck %s --check-prefix=OVER
// RUN: not %xla-indexing tiles %S/../../examples/hlo/softmax.hlo --symbolic --tile 4,4 2>&1 | FileCheck %s --check-prefix=BOTH

// The reshape [1,8,6,4] -> [48,4] splits output dimension 0 into rows of 6: a tile of ts0
// rows is exact when it divides a row of 6 or is whole rows (XLA's constraint).
// SYM: f output 0 f32[48,4]{1,0}: tile t covers t_i * ts_i + [0, ts_i - 1], ts0 in [1, 48], ts1 in [1, 4]
// SYM-NEXT: operand 0 f32[1,8,6,4]{3,2,1,0}:
// SYM-NEXT: offsets (0, (t0 * ts0) floordiv 6, min((t0 * ts0) mod 6, max(-ts0 + 6, 0)), t1 * ts1)
// SYM-NEXT: sizes (1, (ts0 + 5) floordiv 6, min(ts0, 6), ts1), strides (0, 1, 1, 1)
// SYM-NEXT: exact when ts0 mod 6 == 0 || 6 mod ts0 == 0
// The reversed operand starts at the mirror of the tile's last row.
// SYM-NEXT: operand 1 f32[48,4]{1,0}:
// SYM-NEXT: offsets (-ts0 - t0 * ts0 + 48, t1 * ts1)
// SYM-NEXT: sizes (ts0, ts1), strides (1, 1)
// SYM-NEXT: exact when true

// Powers of two up to each dimension, and the dimension: 1, 2 and 48 rows hold.
// SPACE: f output 0 f32[48,4]{1,0}: 9 of 21 power-of-two tilings valid
// SPACE-NEXT: [1, 1]
// SPACE: [2, 4]
// SPACE-NEXT: [48, 1]
// SPACE-NOT: [4,
// SPACE: [48, 4]

// The best is the first ranked; a transpose's tile reads its operand transposed.
// BEST: transpose_fusion output 0 f32[32,16]{1,0}: best [8, 16] of 15 ranked tilings on sm_90 (0 over the register budget)
// BEST-NEXT: sizes tiles read B/elem coalescing occupancy redundant B exact cost
// BEST-NEXT: [8, 16] 4 8.00 1.00 0.03 0 yes
// BEST: reduce_fusion output 0 f32[32]{0}: best [32]
// BEST-NEXT: sizes
// BEST-NEXT: [32] 1 64.00

// A layer norm's normalization: rows of 64 read whole, two rows per block of 128 threads.
// NORM: broadcast_subtract_fusion output 0 f32[4,16,64]{2,1,0}: best [1, 2, 64] of 105 ranked tilings on sm_90 (0 over the register budget)
// NORM-NEXT: sizes
// NORM-NEXT: [1, 2, 64] 32

// A concatenate's operand is read only where the output is its part: the tile covers it,
// says why, and by how much at most a tile that reads anything over-reads (all but a row).
// OVER: operand 0 f32[4,8]{1,0}:
// OVER-NEXT: offsets (t0 * ts0, t1 * ts1)
// OVER-NEXT: sizes (ts0, ts1), strides (1, 1)
// OVER-NEXT: covers the read when true
// OVER-NEXT: over: the read is limited to d0 in [0, 3]
// OVER-NEXT: over by at most -ts1 + ts0 * ts1 elements (a full tile that reads anything)

// JSON lists every ranked candidate, the best first.
// JSON: "chip":"sm_90"
// JSON-SAME: "fusion":"subtract_exponential_fusion"
// JSON-SAME: "best":[1,128]
// JSON-SAME: "ranked":[{"sizes":[1,128],"tiles":8,"read_bytes_per_element":4.03125,"coalescing":{{[0-9.]+}},"occupancy":{{[0-9.]+}},"redundant_bytes":0,"exact":true,"cost":{{[0-9.e+]+}}},{"sizes"

// BOTH: error: the argument '--symbolic' cannot be used with '--tile <SIZES>'
