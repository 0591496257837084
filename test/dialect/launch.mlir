// The #xla_indexing.launch attribute prints its sizes and the canonical text of its thread-id
// map (parsed by the Rust grammar of xla-indexing-core), and parses back to the same thing,
// pretty or generic.

// RUN: mlir-opt %s %plugins | FileCheck %s
// RUN: mlir-opt %s %plugins | mlir-opt %plugins | FileCheck %s
// RUN: mlir-opt %s %plugins --mlir-print-op-generic | mlir-opt %plugins | FileCheck %s

// CHECK-LABEL: gpu.func @fusion
// CHECK-SAME: xla_indexing.launch = #xla_indexing.launch<block = [128, 1, 1], grid = [8, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk, unroll] -> (bl_x, th_x), domain: th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 7], bl_y in [0, 0], bl_z in [0, 0], chunk in [0, 0], unroll in [0, 0]">
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fusion(%arg0: memref<8x128xf32>) kernel attributes {xla_indexing.launch = #xla_indexing.launch<block = [128, 1, 1], grid = [8, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[chunk, unroll] -> (bl_x, th_x), domain: th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 7], bl_y in [0, 0], bl_z in [0, 0], chunk in [0, 0], unroll in [0, 0]">} {
      gpu.return
    }
  }
}

// Other spellings of the map, split over adjacent string pieces, are stored canonical; any
// names may be given to the six dimensions.
// CHECK-LABEL: func.func private @spellings
// CHECK-SAME: l = #xla_indexing.launch<block = [32, 4, 2], grid = [3, 2, 1], map = "(d0, d1, d2, d3, d4, d5) -> (d0 + d1 * 32 + d2 * 128 + d3 * 256 + d4 * 768), domain: d0 in [0, 31], d1 in [0, 3], d2 in [0, 1], d3 in [0, 2], d4 in [0, 1], d5 in [0, 0]">
func.func private @spellings() attributes {l = #xla_indexing.launch<block = [32, 4, 2], grid = [3, 2, 1],
    map = "(d0, d1, d2, d3, d4, d5) -> (d4 * 768 + d3 * 256 + d2 * 128 + d1 * 32 + d0), "
          "domain: d0 in [0, 31], d1 in [0, 3], d2 in [0, 1], d3 in [0, 2], d4 in [0, 1], d5 in [0, 0],">}
