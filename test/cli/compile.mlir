// `xla-indexing compile`: a fusion becomes a gpu.func whose threads read each parameter through
// one apply_indexing of the composed, simplified map; a transpose goes to the transpose emitter
// (blocks of 128 threads, a shared 32 x 33 tile, read coalesced, a barrier, written transposed);
// its MLIR parses back with the plugin, its PTX has the tile in shared memory and no division,
// a loop kernel's LLVM IR divides in 32 bits and once (the remainder is the dividend less 200
// times the quotient), and bad requests (an op that cannot be lowered, a module without fusions)
// are located errors with the documented exit codes.

// REQUIRES: xla-indexing-cli
// RUN: %xla-indexing compile %S/../../examples/hlo/transpose_add.hlo --fusion transpose_fusion --emit mlir | FileCheck %s --check-prefix=MLIR
// RUN: %xla-indexing compile %S/../../examples/hlo/transpose_add.hlo --fusion transpose_fusion --emit mlir | mlir-opt %plugins | FileCheck %s --check-prefix=MLIR
// RUN: %xla-indexing compile %S/../../examples/hlo/row_column_sums.hlo --fusion column_sum --emit mlir | FileCheck %s --check-prefix=REDUCE
// RUN: %xla-indexing compile %S/../../examples/hlo/transpose_add.hlo --fusion transpose_fusion --emit ptx | FileCheck %s --check-prefix=SMEM
// RUN: %xla-indexing compile %S/../../examples/hlo/layouts_add.hlo --emit llvm | FileCheck %s --check-prefix=LLVM
// RUN: %expect-exit 1 %xla-indexing compile %S/Inputs/sort_fusion.hlo
// RUN: not %xla-indexing compile %S/Inputs/sort_fusion.hlo 2>&1 | FileCheck %s --check-prefix=NOLOWER
// RUN: %expect-exit 1 %xla-indexing compile %S/Inputs/sort_and_call.hlo
// RUN: not %xla-indexing compile %S/Inputs/sort_and_call.hlo 2>&1 | FileCheck %s --check-prefix=UNFUSED
// RUN: %expect-exit 2 %xla-indexing compile %S/../../examples/hlo/transpose_exp_add.hlo --fusion nope
// RUN: not %xla-indexing compile %S/../../examples/hlo/transpose_exp_add.hlo --fusion nope 2>&1 | FileCheck %s --check-prefix=NOFUSION
// RUN: %expect-exit 2 %xla-indexing compile %S/../../examples/hlo/transpose_exp_add.hlo --chip gfx90a --emit ptx

// MLIR: gpu.module @kernels {
// MLIR: gpu.func @transpose_fusion(%{{.*}}: memref<16x32xf32>, %{{.*}}: memref<512xf32>, %{{.*}}: memref<32x16xf32>) workgroup(%[[TILE:.*]] : memref<32x33xf32, #gpu.address_space<workgroup>>) kernel attributes {xla_indexing.launch = #xla_indexing.launch<block = [128, 1, 1], grid = [1, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (chunk_id * 4 + th_x floordiv 32, th_x mod 32)
// The read phase: exp of the parameter, read through the read map (the lanes of a warp read
// adjacent elements of one row) into the tile at the same row and column:
// MLIR: xla_indexing.loop ({{.*}})[%[[C:.*]], %{{.*}}] -> ({{.*}}) in #xla_indexing.map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id]
// MLIR: %[[T:.*]]:2 = xla_indexing.apply_indexing #xla_indexing.map<"(th_x)[chunk_id] -> (chunk_id * 4 + th_x floordiv 32, th_x mod 32), domain: th_x in [0, 127], chunk_id in [0, 3]">
// MLIR: %[[X:.*]] = memref.load %{{.*}}[%[[T]]#0, %[[T]]#1] : memref<16x32xf32>
// MLIR: %[[E:.*]] = math.exp %[[X]] : f32
// MLIR: memref.store %[[E]], %[[TILE]][%[[T]]#0, %[[T]]#1]
// MLIR: gpu.barrier
// The write phase: the tile read transposed, the bitcast operand at the written element:
// MLIR: xla_indexing.loop ({{.*}})[{{.*}}] -> (%[[O0:.*]], %[[O1:.*]]) in #xla_indexing.map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (chunk_id * 4 + th_x floordiv 32, th_x mod 32)
// MLIR: %[[W:.*]]:2 = xla_indexing.apply_indexing #xla_indexing.map<"(th_x)[chunk_id] -> (th_x mod 32, chunk_id * 4 + th_x floordiv 32)
// MLIR: %[[M:.*]] = memref.load %[[TILE]][%[[W]]#0, %[[W]]#1]
// MLIR: xla_indexing.apply_indexing #xla_indexing.map<"(th_x)[chunk_id] -> (th_x + chunk_id * 64 - (th_x floordiv 32) * 16)
// MLIR: %[[S:.*]] = arith.addf %[[M]], %{{.*}} : f32
// MLIR: memref.store %[[S]], %{{.*}}[%[[O0]], %[[O1]]] : memref<32x16xf32>
// MLIR: gpu.return

// The column sum goes to the reduction emitter, tiled as XLA tiles it: lane l of warp w of a
// 1024-thread block sums rows w, w + 32, ... of columns 2l and 2l + 1 (one 2-wide vector load,
// a partial sum per column), the partial sums go through a shared 32 x 65 tile transposed, and
// warp w sums columns 2w and 2w + 1 with shuffles; lane 0 stores them.
// REDUCE: gpu.func @column_sum(%[[IN:.*]]: memref<300x64xf32>, %[[OUT:.*]]: memref<64xf32>) workgroup(%[[TILE:.*]] : memref<32x65xf32, #gpu.address_space<workgroup>>)
// REDUCE-SAME: block = [1024, 1, 1], grid = [1, 1, 1]
// REDUCE: %[[SUM:.*]]:2 = xla_indexing.loop ({{.*}})[%[[R:.*]], %{{.*}}] -> ({{.*}}) in #xla_indexing.map<"{{.*}}"> iter_args(%[[A0:.*]] = %{{.*}}, %[[A1:.*]] = %{{.*}}) -> (f32, f32) {
// REDUCE: %[[V:.*]] = vector.load {{.*}} : memref<19200xf32>, vector<2xf32>
// REDUCE: %[[E0:.*]] = vector.extract %[[V]][0]
// REDUCE-NEXT: arith.addf %[[A0]], %[[E0]] : f32
// REDUCE: %[[E1:.*]] = vector.extract %[[V]][1]
// REDUCE-NEXT: arith.addf %[[A1]], %[[E1]] : f32
// REDUCE: %[[ST:.*]]:2 = xla_indexing.apply_indexing #xla_indexing.map<"(th_x) -> (th_x mod 32, (th_x floordiv 32) * 2)
// REDUCE-NEXT: memref.store %[[SUM]]#0, %[[TILE]][%[[ST]]#0, %[[ST]]#1]
// REDUCE: memref.store %[[SUM]]#1, %[[TILE]]
// REDUCE-NEXT: gpu.barrier
// REDUCE-NEXT: %[[LD:.*]]:2 = xla_indexing.apply_indexing #xla_indexing.map<"(th_x) -> (th_x floordiv 32, (th_x mod 32) * 2)
// REDUCE-NEXT: memref.load %[[TILE]][%[[LD]]#0, %[[LD]]#1]
// REDUCE-COUNT-5: gpu.shuffle xor
// REDUCE: memref.load %[[TILE]]
// REDUCE-COUNT-5: gpu.shuffle xor
// REDUCE: xla_indexing.loop ({{.*}}) -> (%[[O:.*]]) in #xla_indexing.map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> ((th_x floordiv 32) * 2), {{.*}} th_x mod 32 in [0, 0]
// REDUCE-NEXT: memref.store %{{.*}}, %[[OUT]][%[[O]]] : memref<64xf32>
// REDUCE: xla_indexing.loop ({{.*}}) -> (%[[O1:.*]]) in #xla_indexing.map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> ((th_x floordiv 32) * 2 + 1), {{.*}} th_x mod 32 in [0, 0]
// REDUCE-NEXT: memref.store %{{.*}}, %[[OUT]][%[[O1]]] : memref<64xf32>

// SMEM: .entry transpose_fusion(
// SMEM: .shared .align 4 .b8 {{.*}}[4224];
// SMEM-NOT: {{div|rem}}.
// SMEM: st.shared.b32
// SMEM-NOT: {{div|rem}}.
// SMEM: bar.sync
// SMEM-NOT: {{div|rem}}.
// SMEM: ld.shared.b32
// SMEM-NOT: {{div|rem}}.
// SMEM: ret;

// LLVM: define ptx_kernel void @add_fusion(
// LLVM-NOT: {{udiv|urem|sdiv|srem}}
// LLVM: %[[Q:.*]] = udiv i32 %[[T:.*]], 200
// LLVM-NEXT: %[[Q200:.*]] = mul nuw nsw i32 %[[Q]], 200
// LLVM-NEXT: sub nuw nsw i32 %[[T]], %[[Q200]]
// LLVM-NOT: {{udiv|urem|sdiv|srem}}
// LLVM: ret void

// NOLOWER: sort_fusion.hlo:11:3: error: sorted: cannot be lowered: sort is not lowered
// UNFUSED: sort_and_call.hlo:14:1: error: main: the module has no fusions: its entry computation holds 2 ops (sort, call), so it looks like HLO before XLA's fusion passes
// NOFUSION: error: no fusion named nope; the kernels are: bitcast_add_fusion
