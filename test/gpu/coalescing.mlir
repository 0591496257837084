// xla-indexing-coalescing reports at every memref.load of a kernel with an xla_indexing.launch
// whether the first warp's reads are coalesced (128-byte transactions against the ideal), in
// the words of `xla-indexing coalescing FILE.hlo`, or why the load cannot be analysed.

// RUN: mlir-opt %s %plugins --split-input-file --pass-pipeline='builtin.module(xla-indexing-coalescing)' --verify-diagnostics -o /dev/null
// The pass changes no IR.
// RUN: mlir-opt %s %plugins --split-input-file > %t.before
// RUN: mlir-opt %s %plugins --split-input-file --pass-pipeline='builtin.module(xla-indexing-coalescing)' 2>/dev/null > %t.after
// RUN: diff %t.before %t.after

// The loop kernel of a transposing fusion f32[8,128] -> f32[128,8] (block 128, grid 8): the
// transposed read of the input is not coalesced, for the reason the HLO report gives; reading
// the output index of a row-major buffer is.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @transpose(%arg0: memref<8x128xf32>, %arg1: memref<128x8xf32>, %arg2: memref<128x8xf32>) kernel attributes {xla_indexing.launch = #xla_indexing.launch<block = [128, 1, 1], grid = [8, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (bl_x * 16 + th_x floordiv 8, th_x mod 8), domain: th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 7], bl_y in [0, 0], bl_z in [0, 0], chunk_id in [0, 0], unroll_id in [0, 0]">} {
      %th_x = gpu.thread_id x
      %th_y = gpu.thread_id y
      %th_z = gpu.thread_id z
      %bl_x = gpu.block_id x
      %bl_y = gpu.block_id y
      %bl_z = gpu.block_id z
      xla_indexing.loop (%th_x, %th_y, %th_z, %bl_x, %bl_y, %bl_z)[%chunk, %unroll] -> (%o0, %o1) in #xla_indexing.map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (bl_x * 16 + th_x floordiv 8, th_x mod 8), domain: th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 7], bl_y in [0, 0], bl_z in [0, 0], chunk_id in [0, 0], unroll_id in [0, 0]"> {
        %i:2 = xla_indexing.apply_indexing #xla_indexing.map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[s0, s1] -> (th_x mod 8, bl_x * 16 + th_x floordiv 8), domain: th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 7], bl_y in [0, 0], bl_z in [0, 0], s0 in [0, 0], s1 in [0, 0]">(%th_x, %th_y, %th_z, %bl_x, %bl_y, %bl_z, %chunk, %unroll) : index, index
        // expected-remark @+1 {{xla-indexing-coalescing: NOT coalesced, 8 transactions, ideal 1; why: dimension 0 moves non-linearly with the lane (not minor: stride 128 elements in layout {1,0}): 8 transactions where 1 would do (8.0x)}}
        %v = memref.load %arg0[%i#0, %i#1] : memref<8x128xf32>
        // expected-remark @+1 {{xla-indexing-coalescing: coalesced, 1 transactions, ideal 1}}
        %w = memref.load %arg1[%o0, %o1] : memref<128x8xf32>
        %s = arith.addf %v, %w : f32
        memref.store %s, %arg2[%o0, %o1] : memref<128x8xf32>
        xla_indexing.yield
      }
      gpu.return
    }
  }
}

// -----

// Broadcasts: every lane reads the same element (a block id, a constant) in one transaction.
// Strided memrefs: dense strides are a layout (a column-major read along the rows is not
// coalesced), others are named as strides (rows padded to 16 elements spread the warp's 128
// bytes over two transactions; a dynamic offset is taken as aligned). Memrefs in workgroup
// memory and memrefs of dynamic shape are not analysed.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @broadcast(%bias: memref<8xf32>, %table: memref<4x4xf32>, %cols: memref<128x8xf32, strided<[1, 128]>>, %padded: memref<128x8xf32, strided<[16, 1], offset: ?>>, %shared: memref<128xf32, #gpu.address_space<workgroup>>, %dyn: memref<?x8xf32>) kernel attributes {xla_indexing.launch = #xla_indexing.launch<block = [128, 1, 1], grid = [8, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (bl_x * 16 + th_x floordiv 8, th_x mod 8), domain: th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 7], bl_y in [0, 0], bl_z in [0, 0], chunk_id in [0, 0], unroll_id in [0, 0]">} {
      %th_x = gpu.thread_id x
      %bl_x = gpu.block_id x
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      // expected-remark @+1 {{xla-indexing-coalescing: coalesced, 1 transactions, ideal 1}}
      %a = memref.load %bias[%bl_x] : memref<8xf32>
      // expected-remark @+1 {{xla-indexing-coalescing: coalesced, 1 transactions, ideal 1}}
      %b = memref.load %table[%c1, %c2] : memref<4x4xf32>
      %o:2 = xla_indexing.apply_indexing #xla_indexing.map<"(th_x, bl_x) -> (bl_x * 16 + th_x floordiv 8, th_x mod 8), domain: th_x in [0, 127], bl_x in [0, 7]">(%th_x, %bl_x) : index, index
      // expected-remark @+1 {{xla-indexing-coalescing: NOT coalesced, 8 transactions, ideal 1; why: dimension 1 moves non-linearly with the lane (not minor: stride 128 elements in layout {0,1}): 8 transactions where 1 would do (8.0x)}}
      %c = memref.load %cols[%o#0, %o#1] : memref<128x8xf32, strided<[1, 128]>>
      // expected-remark @+1 {{xla-indexing-coalescing: NOT coalesced, 2 transactions, ideal 1; why: dimension 0 moves non-linearly with the lane (not minor: stride 16 elements in strides [16, 1]): 2 transactions where 1 would do (2.0x)}}
      %p = memref.load %padded[%o#0, %o#1] : memref<128x8xf32, strided<[16, 1], offset: ?>>
      // expected-remark @+1 {{xla-indexing-coalescing: not analysed: it reads memory space #gpu.address_space<workgroup>; coalescing concerns global memory}}
      %d = memref.load %shared[%th_x] : memref<128xf32, #gpu.address_space<workgroup>>
      // expected-remark @+1 {{xla-indexing-coalescing: not analysed: dimension 0 of memref<?x8xf32> is dynamic}}
      %e = memref.load %dyn[%o#0, %o#1] : memref<?x8xf32>
      gpu.return
    }
  }
}

// -----

// Indices that are not indexing maps of thread ids (a gathered index, a kernel argument) are
// not analysed; arith.addi and muli by constants are followed. Kernels without a launch are
// left alone.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gather(%data: memref<1024xf32>, %idx: memref<1024xindex>, %n: index) kernel attributes {xla_indexing.launch = #xla_indexing.launch<block = [128, 1, 1], grid = [8, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (th_x + bl_x * 128), domain: th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 7], bl_y in [0, 0], bl_z in [0, 0], chunk_id in [0, 0], unroll_id in [0, 0]">} {
      %th_x = gpu.thread_id x
      %bl_x = gpu.block_id x
      %c128 = arith.constant 128 : index
      %base = arith.muli %bl_x, %c128 : index
      %i = arith.addi %base, %th_x : index
      // Indices are 8 bytes (XLA's s64): 256 bytes for the warp.
      // expected-remark @+1 {{xla-indexing-coalescing: coalesced, 2 transactions, ideal 2}}
      %j = memref.load %idx[%i] : memref<1024xindex>
      // expected-remark @+1 {{xla-indexing-coalescing: not analysed: index 0 is not an indexing map of thread ids: it is computed by 'memref.load'}}
      %v = memref.load %data[%j] : memref<1024xf32>
      // expected-remark @+1 {{xla-indexing-coalescing: not analysed: index 0 is not an indexing map of thread ids: it is argument 2 of the kernel}}
      %w = memref.load %data[%n] : memref<1024xf32>
      gpu.return
    }
    gpu.func @no_launch(%data: memref<1024xf32>) kernel {
      %th_x = gpu.thread_id x
      %v = memref.load %data[%th_x] : memref<1024xf32>
      gpu.return
    }
  }
}

// -----

// A thread reads 4 neighbouring elements (unroll 4): a step of the warp covers all four, 512
// contiguous bytes in 4 transactions. A reduction loop inside (one thread per row of 8 rows)
// steps along the columns: neighbouring lanes are a row apart.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @unrolled(%in: memref<4096xf32>) kernel attributes {xla_indexing.launch = #xla_indexing.launch<block = [128, 1, 1], grid = [8, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (bl_x * 512 + th_x * 4 + unroll_id), domain: th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 7], bl_y in [0, 0], bl_z in [0, 0], chunk_id in [0, 0], unroll_id in [0, 3]">} {
      %th_x = gpu.thread_id x
      %th_y = gpu.thread_id y
      %th_z = gpu.thread_id z
      %bl_x = gpu.block_id x
      %bl_y = gpu.block_id y
      %bl_z = gpu.block_id z
      xla_indexing.loop (%th_x, %th_y, %th_z, %bl_x, %bl_y, %bl_z)[%chunk, %unroll] -> (%o) in #xla_indexing.map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (bl_x * 512 + th_x * 4 + unroll_id), domain: th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 7], bl_y in [0, 0], bl_z in [0, 0], chunk_id in [0, 0], unroll_id in [0, 3]"> {
        // expected-remark @+1 {{xla-indexing-coalescing: coalesced, 4 transactions, ideal 4}}
        %v = memref.load %in[%o] : memref<4096xf32>
        xla_indexing.yield
      }
      gpu.return
    }
    gpu.func @row_sums(%in: memref<8x128xf32>, %out: memref<8xf32>) kernel attributes {xla_indexing.launch = #xla_indexing.launch<block = [8, 1, 1], grid = [1, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (th_x), domain: th_x in [0, 7], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 0], bl_y in [0, 0], bl_z in [0, 0], chunk_id in [0, 0], unroll_id in [0, 0]">} {
      %th_x = gpu.thread_id x
      %th_y = gpu.thread_id y
      %th_z = gpu.thread_id z
      %bl_x = gpu.block_id x
      %bl_y = gpu.block_id y
      %bl_z = gpu.block_id z
      %zero = arith.constant 0.0 : f32
      xla_indexing.loop (%th_x, %th_y, %th_z, %bl_x, %bl_y, %bl_z)[%chunk, %unroll] -> (%row) in #xla_indexing.map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (th_x), domain: th_x in [0, 7], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 0], bl_y in [0, 0], bl_z in [0, 0], chunk_id in [0, 0], unroll_id in [0, 0]"> {
        %sum = xla_indexing.loop (%row)[%j] -> (%r0, %r1) in #xla_indexing.map<"(d0)[s0] -> (d0, s0), domain: d0 in [0, 7], s0 in [0, 127]"> iter_args(%acc = %zero) -> (f32) {
          // expected-remark @+1 {{xla-indexing-coalescing: NOT coalesced, 1024 transactions, ideal 128; why: lanes step 1 along dimension 0, which is not minor in layout {1,0} (stride 128 elements), so neighbouring lanes are 512 bytes apart: 1024 transactions where 128 would do (8.0x)}}
          %x = memref.load %in[%r0, %r1] : memref<8x128xf32>
          %next = arith.addf %acc, %x : f32
          xla_indexing.yield %next : f32
        }
        memref.store %sum, %out[%row] : memref<8xf32>
        xla_indexing.yield
      }
      gpu.return
    }
    // The loop's constraint keeps odd lanes idle: 16 elements of 8 bytes, spread over 256.
    gpu.func @even_lanes(%in: memref<128xi64>) kernel attributes {xla_indexing.launch = #xla_indexing.launch<block = [128, 1, 1], grid = [1, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (th_x), domain: th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 0], bl_y in [0, 0], bl_z in [0, 0], chunk_id in [0, 0], unroll_id in [0, 0]">} {
      %th_x = gpu.thread_id x
      %th_y = gpu.thread_id y
      %th_z = gpu.thread_id z
      %bl_x = gpu.block_id x
      %bl_y = gpu.block_id y
      %bl_z = gpu.block_id z
      xla_indexing.loop (%th_x, %th_y, %th_z, %bl_x, %bl_y, %bl_z)[%chunk, %unroll] -> (%o) in #xla_indexing.map<"(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk_id, unroll_id] -> (th_x), domain: th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 0], bl_y in [0, 0], bl_z in [0, 0], chunk_id in [0, 0], unroll_id in [0, 0], th_x mod 2 in [0, 0]"> {
        // expected-remark @+1 {{xla-indexing-coalescing: NOT coalesced, 2 transactions, ideal 1; why: the warp's elements straddle transaction boundaries: 2 transactions where 1 would do (2.0x)}}
        %v = memref.load %in[%o] : memref<128xi64>
        xla_indexing.yield
      }
      gpu.return
    }
  }
}
