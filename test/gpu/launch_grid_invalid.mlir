// xla-indexing-launch-grid reports a launch that breaks a limit of sm_90, or whose map or
// known sizes disagree with its sizes, as an error at its op, and fails.

// RUN: mlir-opt %s %plugins --split-input-file --pass-pipeline='builtin.module(xla-indexing-launch-grid)' --verify-diagnostics -o /dev/null
// RUN: %expect-exit 1 mlir-opt %s %plugins --split-input-file --pass-pipeline='builtin.module(xla-indexing-launch-grid)'

// expected-error @+1 {{xla-indexing-launch-grid: a kernel launch failed its checks (see the error above)}}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{xla-indexing-launch-grid: block [1024, 2, 1] and grid [1, 1, 1] cannot be launched on sm_90: 2048 threads per block exceed the limit of 1024}}
    gpu.func @too_many_threads() kernel attributes {xla_indexing.launch = #xla_indexing.launch<block = [1024, 2, 1], grid = [1, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> (th_x), domain: th_x in [0, 1023], th_y in [0, 1], th_z in [0, 0], bl_x in [0, 0], bl_y in [0, 0], bl_z in [0, 0]">} {
      gpu.return
    }
  }
}

// -----

// expected-error @+1 {{xla-indexing-launch-grid: 2 kernel launches failed their checks (see the errors above)}}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{xla-indexing-launch-grid: block [128, 1, 1] and grid [1, 65536, 1] cannot be launched on sm_90: 65536 blocks along y exceed the limit of 65535}}
    gpu.func @too_many_blocks_along_y() kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 1, 65536, 1>} {
      gpu.return
    }
    // expected-error @+1 {{xla-indexing-launch-grid: block [128, 1, 1] and grid [2147483647, 1, 65536] cannot be launched on sm_90: 65536 blocks along z exceed the limit of 65535}}
    gpu.func @too_many_blocks_along_z() kernel attributes {xla_indexing.launch = #xla_indexing.launch<block = [128, 1, 1], grid = [2147483647, 1, 65536], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> (th_x), domain: th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 2147483646], bl_y in [0, 0], bl_z in [0, 65535]">} {
      gpu.return
    }
  }
}

// -----

// expected-error @+1 {{a kernel launch failed its checks}}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{xla-indexing-launch-grid: the launch map bounds th_x by [0, 63], but there are 128 threads per block along x: expected [0, 127]}}
    gpu.func @map_disagrees() kernel attributes {xla_indexing.launch = #xla_indexing.launch<block = [128, 1, 1], grid = [8, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> (th_x), domain: th_x in [0, 63], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 7], bl_y in [0, 0], bl_z in [0, 0]">} {
      gpu.return
    }
  }
}

// -----

// expected-error @+1 {{a kernel launch failed its checks}}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{xla-indexing-launch-grid: the launch map bounds bl_y by [0, 1], but there are 1 blocks along y: expected [0, 0]}}
    gpu.func @map_disagrees_on_blocks() kernel attributes {xla_indexing.launch = #xla_indexing.launch<block = [128, 1, 1], grid = [8, 1, 1], map = "(d0, d1, d2, d3, d4, d5) -> (d0), domain: d0 in [0, 127], d1 in [0, 0], d2 in [0, 0], d3 in [0, 7], d4 in [0, 1], d5 in [0, 0]">} {
      gpu.return
    }
  }
}

// -----

// expected-error @+1 {{a kernel launch failed its checks}}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{xla-indexing-launch-grid: known_block_size [256, 1, 1] disagrees with the launch's block [128, 1, 1]}}
    gpu.func @known_size_disagrees() kernel attributes {known_block_size = array<i32: 256, 1, 1>, xla_indexing.launch = #xla_indexing.launch<block = [128, 1, 1], grid = [8, 1, 1], map = "(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> (th_x), domain: th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 7], bl_y in [0, 0], bl_z in [0, 0]">} {
      gpu.return
    }
  }
}

// -----

// expected-error @+1 {{a kernel launch failed its checks}}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{xla-indexing-launch-grid: xla_indexing.launch: not an #xla_indexing.launch attribute: "128x8"}}
    gpu.func @not_a_launch() kernel attributes {xla_indexing.launch = "128x8"} {
      gpu.return
    }
  }
}

// -----

// expected-error @+1 {{a kernel launch failed its checks}}
module attributes {gpu.container_module} {
  func.func @host(%buf: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c2048 = arith.constant 2048 : index
    // expected-error @+1 {{xla-indexing-launch-grid: block [2048, 1, 1] and grid [1, 1, 1] cannot be launched on sm_90: 2048 threads per block exceed the limit of 1024}}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c2048, %sy = %c1, %sz = %c1) {
      gpu.terminator
    }
    return
  }
}

// -----

// expected-error @+1 {{a kernel launch failed its checks}}
module attributes {gpu.container_module} {
  func.func @host(%buf: memref<1024xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{xla-indexing-launch-grid: grid [0, 1, 1] and block [1, 1, 1]: every size must be at least 1}}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c0, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      gpu.terminator
    }
    return
  }
}

// -----

// expected-error @+1 {{a kernel launch failed its checks}}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{xla-indexing-launch-grid: nvvm.reqntid [64, 1, 1] disagrees with the launch's block [128, 1, 1]}}
    gpu.func @reqntid_disagrees() kernel attributes {nvvm.reqntid = array<i32: 64, 1, 1>, known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 8, 1, 1>} {
      gpu.return
    }
  }
}
