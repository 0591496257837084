// Reductions of large inputs go to the reduction emitter and the GPU executes what it plans:
// row reductions (sums, a softmax's maximum and sum of exponentials, a whole softmax in one
// kernel, a layer norm's moments, argmax) read their f32 rows in 8-byte vectors
// (ld.global.v2), as XLA picks for 32-bit inputs, and meet in warp shuffles (shfl.sync.bfly)
// and, across a block's warps, in shared memory behind a barrier; the column sum splits the
// reduced dimension over a block's 32 warps, each lane reading two adjacent columns in one
// 8-byte vector, and transposes their partial sums through a shared 32 x 65 tile (st.shared,
// bar.sync, ld.shared). Every global load and
// store is coalesced by the project's own analysis, and ptxas accepts the kernels for sm_80 and
// sm_90.

// REQUIRES: ptxas, xla-indexing-cli
// RUN: rm -rf %t && mkdir -p %t
// RUN: %xla-indexing launch %S/Inputs/reductions_large.hlo | FileCheck %s --check-prefix=PLAN
// RUN: %xla-indexing coalescing %S/Inputs/reductions_large.hlo | FileCheck %s --check-prefix=COALESCING
// RUN: %xla-indexing compile %S/Inputs/reductions_large.hlo --emit ptx --chip sm_90 -o %t/sm_90.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/sm_90.ptx
// RUN: %ptxas -arch=sm_90 %t/sm_90.ptx -o %t/sm_90.cubin
// RUN: %xla-indexing compile %S/Inputs/reductions_large.hlo --emit ptx --chip sm_80 -o %t/sm_80.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/sm_80.ptx
// RUN: %ptxas -arch=sm_80 %t/sm_80.ptx -o %t/sm_80.cubin

// PLAN-LABEL: row_sum (calls fused_row_sum): block [256, 1, 1], grid [4096, 1, 1]
// PLAN: emitter: row reduction
// PLAN: shared memory: f32[1,8] (32 bytes)
// PLAN: reads: vector of 2 (8 bytes aligned)
// PLAN-LABEL: column_sum (calls fused_column_sum): block [1024, 1, 1], grid [64, 1, 1]
// PLAN: emitter: column reduction
// PLAN: shared memory: f32[32,65] (8320 bytes)
// PLAN: reads: vector of 2 (8 bytes aligned)
// PLAN-LABEL: row_max (calls fused_row_max)
// PLAN: emitter: row reduction
// PLAN-LABEL: exp_sum (calls fused_exp_sum)
// PLAN: emitter: row reduction
// PLAN-LABEL: softmax (calls fused_normalize)
// PLAN: emitter: loop
// PLAN-LABEL: softmax_one (calls fused_softmax)
// PLAN: emitter: row reduction
// PLAN: shared memory: f32[1,8], f32[1,8] (64 bytes)
// PLAN: stores: vector of 2 (8 bytes aligned)
// PLAN-LABEL: moments (calls fused_moments)
// PLAN: emitter: row reduction
// PLAN-LABEL: argmax (calls fused_argmax)
// PLAN: emitter: row reduction

// COALESCING-NOT: NOT coalesced
// COALESCING: row_sum output 0 <- operand 0 f32[4096,4096]{1,0} (map 0): coalesced, 16 transactions, ideal 16
// COALESCING: row_sum output 0 store: coalesced
// COALESCING: column_sum output 0 <- operand 0 f32[4096,4096]{1,0} (map 0): coalesced, 256 transactions, ideal 256
// COALESCING: column_sum output 0 store: coalesced
// COALESCING: argmax output 1 store: coalesced
// COALESCING-NOT: NOT coalesced

// PTX-LABEL: .entry row_sum(
// PTX: ld.global.v2.b32
// PTX: shfl.sync.bfly.b32
// PTX: st.shared
// PTX: bar.sync 0
// PTX: ld.shared
// PTX: shfl.sync.bfly.b32
// PTX-LABEL: .entry column_sum(
// PTX: ld.global.v2.b32
// PTX: st.shared.b32
// PTX: bar.sync 0
// PTX: ld.shared.b32
// PTX-COUNT-5: shfl.sync.bfly.b32
// PTX-LABEL: .entry row_max(
// PTX: ld.global.v2.b32
// PTX: shfl.sync.bfly.b32
// PTX-LABEL: .entry exp_sum(
// PTX: ld.global.v2.b32
// PTX: shfl.sync.bfly.b32
// PTX-LABEL: .entry softmax(
// PTX-NOT: shfl.sync
// PTX-LABEL: .entry softmax_one(
// PTX: ld.global.v2.b32
// PTX-COUNT-5: shfl.sync.bfly.b32
// PTX: bar.sync 0
// PTX: ld.global.v2.b32
// PTX: ex2.approx
// PTX: bar.sync 0
// PTX: st.global.v2.b32
// PTX-LABEL: .entry moments(
// PTX: ld.global.v2.b32
// PTX: shfl.sync.bfly.b32
// PTX-LABEL: .entry argmax(
// PTX: ld.global.v2.b32
// PTX: shfl.sync.bfly.b32
