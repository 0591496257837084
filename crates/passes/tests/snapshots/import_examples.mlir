// ----- examples/hlo/layouts_add.hlo
module @layouts_add {
  func.func @main(%a: tensor<100x200xf32>, %b: tensor<100x200xf32>) -> (tensor<100x200xf32>) {
    %add_fusion = xla_indexing.fusion (%a, %b) {name = "fused_add", kind = "kLoop"} : (tensor<100x200xf32>, tensor<100x200xf32>) -> (tensor<100x200xf32>) {
    ^bb0(%p0: tensor<100x200xf32>, %p1: tensor<100x200xf32>):
      %add = "stablehlo.add"(%p0, %p1) : (tensor<100x200xf32>, tensor<100x200xf32>) -> tensor<100x200xf32> loc("examples/hlo/layouts_add.hlo":6:3)
      xla_indexing.yield %add : tensor<100x200xf32>
    }
    return %add_fusion : tensor<100x200xf32>
  }
}

// ----- examples/hlo/reshape_tiles.hlo
module @reshape_tiles {
  func.func @main(%x: tensor<1x8x6x4xf32>, %y: tensor<48x4xf32>) -> (tensor<48x4xf32>) {
    %f = xla_indexing.fusion (%x, %y) {name = "fused_reshape", kind = "kLoop"} : (tensor<1x8x6x4xf32>, tensor<48x4xf32>) -> (tensor<48x4xf32>) {
    ^bb0(%p0: tensor<1x8x6x4xf32>, %p1: tensor<48x4xf32>):
      %r = "stablehlo.reshape"(%p0) : (tensor<1x8x6x4xf32>) -> tensor<48x4xf32> loc("examples/hlo/reshape_tiles.hlo":5:3)
      %rev = "stablehlo.reverse"(%p1) <{dimensions = array<i64: 0>}> : (tensor<48x4xf32>) -> tensor<48x4xf32> loc("examples/hlo/reshape_tiles.hlo":7:3)
      %a = "stablehlo.add"(%r, %rev) : (tensor<48x4xf32>, tensor<48x4xf32>) -> tensor<48x4xf32> loc("examples/hlo/reshape_tiles.hlo":8:3)
      xla_indexing.yield %a : tensor<48x4xf32>
    }
    return %f : tensor<48x4xf32>
  }
}

// ----- examples/hlo/row_column_sums.hlo
module @row_column_sums {
  func.func @main(%a: tensor<64x300xf32>, %b: tensor<300x64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
    %row_sum = xla_indexing.fusion (%a) {name = "fused_row_sum", kind = "kLoop"} : (tensor<64x300xf32>) -> (tensor<64xf32>) {
    ^bb0(%p0: tensor<64x300xf32>):
      %zero = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32> loc("examples/hlo/row_column_sums.hlo":11:3)
      %rows = "stablehlo.reduce"(%p0, %zero) <{dimensions = array<i64: 1>}> ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("examples/hlo/row_column_sums.hlo":6:3)
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
      }) : (tensor<64x300xf32>, tensor<f32>) -> tensor<64xf32> loc("examples/hlo/row_column_sums.hlo":12:3)
      xla_indexing.yield %rows : tensor<64xf32>
    }
    %column_sum = xla_indexing.fusion (%b) {name = "fused_column_sum", kind = "kLoop"} : (tensor<300x64xf32>) -> (tensor<64xf32>) {
    ^bb0(%p0_1: tensor<300x64xf32>):
      %zero_1 = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32> loc("examples/hlo/row_column_sums.hlo":17:3)
      %columns = "stablehlo.reduce"(%p0_1, %zero_1) <{dimensions = array<i64: 0>}> ({
      ^bb0(%x_1: tensor<f32>, %y_1: tensor<f32>):
        %s_1 = "stablehlo.add"(%x_1, %y_1) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("examples/hlo/row_column_sums.hlo":6:3)
        "stablehlo.return"(%s_1) : (tensor<f32>) -> ()
      }) : (tensor<300x64xf32>, tensor<f32>) -> tensor<64xf32> loc("examples/hlo/row_column_sums.hlo":18:3)
      xla_indexing.yield %columns : tensor<64xf32>
    }
    return %row_sum, %column_sum : tensor<64xf32>, tensor<64xf32>
  }
}

// ----- examples/hlo/softmax.hlo
module @jit_softmax {
  func.func @main.3(%x.1: tensor<8x128xf32>) -> (tensor<8x128xf32>) {
    %constant.4 = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32> loc("examples/hlo/softmax.hlo":87:3)
    %constant.5 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32> loc("examples/hlo/softmax.hlo":88:3)
    %wrapped_reduce-window = xla_indexing.fusion (%x.1, %constant.5) {name = "wrapped_reduce-window_computation", kind = "kLoop"} : (tensor<8x128xf32>, tensor<f32>) -> (tensor<8x4xf32>) {
    ^bb0(%param_0.5: tensor<8x128xf32>, %param_1.7: tensor<f32>):
      %reduce-window.2 = "stablehlo.reduce_window"(%param_0.5, %param_1.7) <{window_dimensions = array<i64: 1, 32>, window_strides = array<i64: 1, 32>, base_dilations = array<i64: 1, 1>, window_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [0, 0]]> : tensor<2x2xi64>}> ({
      ^bb0(%reduce_max.3: tensor<f32>, %reduce_max.4: tensor<f32>):
        %reduce_max.5 = "stablehlo.maximum"(%reduce_max.3, %reduce_max.4) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("examples/hlo/softmax.hlo":52:3)
        "stablehlo.return"(%reduce_max.5) : (tensor<f32>) -> ()
      }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8x4xf32> loc("examples/hlo/softmax.hlo":58:3)
      xla_indexing.yield %reduce-window.2 : tensor<8x4xf32>
    }
    %wrapped_reduce = xla_indexing.fusion (%wrapped_reduce-window, %constant.5) {name = "wrapped_reduce_computation", kind = "kLoop"} : (tensor<8x4xf32>, tensor<f32>) -> (tensor<8xf32>) {
    ^bb0(%param_0.6: tensor<8x4xf32>, %param_1.8: tensor<f32>):
      %reduce_max.6 = "stablehlo.reduce"(%param_0.6, %param_1.8) <{dimensions = array<i64: 1>}> ({
      ^bb0(%reduce_max.0: tensor<f32>, %reduce_max.1: tensor<f32>):
        %reduce_max.2 = "stablehlo.maximum"(%reduce_max.0, %reduce_max.1) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("examples/hlo/softmax.hlo":64:3)
        "stablehlo.return"(%reduce_max.2) : (tensor<f32>) -> ()
      }) : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32> loc("examples/hlo/softmax.hlo":70:3)
      xla_indexing.yield %reduce_max.6 : tensor<8xf32>
    }
    %subtract_exponential_fusion = xla_indexing.fusion (%x.1, %wrapped_reduce) {name = "fused_computation.2", kind = "kLoop"} : (tensor<8x128xf32>, tensor<8xf32>) -> (tensor<8x128xf32>) {
    ^bb0(%param_0.4: tensor<8x128xf32>, %param_1.6: tensor<8xf32>):
      %sub.1 = "stablehlo.broadcast_in_dim"(%param_1.6) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x128xf32> loc("examples/hlo/softmax.hlo":44:3)
      %sub.0 = "stablehlo.subtract"(%param_0.4, %sub.1) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32> loc("examples/hlo/softmax.hlo":45:3)
      %exp.0 = "stablehlo.exponential"(%sub.0) : (tensor<8x128xf32>) -> tensor<8x128xf32> loc("examples/hlo/softmax.hlo":46:3)
      xla_indexing.yield %exp.0 : tensor<8x128xf32>
    }
    %wrapped_reduce-window.1 = xla_indexing.fusion (%subtract_exponential_fusion, %constant.4) {name = "wrapped_reduce-window_computation.1", kind = "kLoop"} : (tensor<8x128xf32>, tensor<f32>) -> (tensor<8x4xf32>) {
    ^bb0(%param_0.7: tensor<8x128xf32>, %param_1.9: tensor<f32>):
      %reduce-window.3 = "stablehlo.reduce_window"(%param_0.7, %param_1.9) <{window_dimensions = array<i64: 1, 32>, window_strides = array<i64: 1, 32>, base_dilations = array<i64: 1, 1>, window_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [0, 0]]> : tensor<2x2xi64>}> ({
      ^bb0(%reduce_sum.3: tensor<f32>, %reduce_sum.4: tensor<f32>):
        %reduce_sum.5 = "stablehlo.add"(%reduce_sum.3, %reduce_sum.4) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("examples/hlo/softmax.hlo":76:3)
        "stablehlo.return"(%reduce_sum.5) : (tensor<f32>) -> ()
      }) : (tensor<8x128xf32>, tensor<f32>) -> tensor<8x4xf32> loc("examples/hlo/softmax.hlo":82:3)
      xla_indexing.yield %reduce-window.3 : tensor<8x4xf32>
    }
    %reduce_divide_fusion = xla_indexing.fusion (%wrapped_reduce-window.1) {name = "fused_computation.1", kind = "kLoop"} : (tensor<8x4xf32>) -> (tensor<8xf32>) {
    ^bb0(%param_0.2: tensor<8x4xf32>):
      %constant.2 = "stablehlo.constant"() <{value = dense<1.0> : tensor<f32>}> : () -> tensor<f32> loc("examples/hlo/softmax.hlo":33:3)
      %broadcast.5 = "stablehlo.broadcast_in_dim"(%constant.2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32> loc("examples/hlo/softmax.hlo":34:3)
      %constant.1 = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32> loc("examples/hlo/softmax.hlo":36:3)
      %reduce_sum.6 = "stablehlo.reduce"(%param_0.2, %constant.1) <{dimensions = array<i64: 1>}> ({
      ^bb0(%reduce_sum.0: tensor<f32>, %reduce_sum.1: tensor<f32>):
        %reduce_sum.2 = "stablehlo.add"(%reduce_sum.0, %reduce_sum.1) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("examples/hlo/softmax.hlo":29:3)
        "stablehlo.return"(%reduce_sum.2) : (tensor<f32>) -> ()
      }) : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32> loc("examples/hlo/softmax.hlo":37:3)
      %divide.1 = "stablehlo.divide"(%broadcast.5, %reduce_sum.6) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> loc("examples/hlo/softmax.hlo":38:3)
      xla_indexing.yield %divide.1 : tensor<8xf32>
    }
    %broadcast_multiply_fusion = xla_indexing.fusion (%subtract_exponential_fusion, %reduce_divide_fusion) {name = "fused_computation", kind = "kLoop"} : (tensor<8x128xf32>, tensor<8xf32>) -> (tensor<8x128xf32>) {
    ^bb0(%param_0: tensor<8x128xf32>, %param_1.1: tensor<8xf32>):
      %broadcast.4 = "stablehlo.broadcast_in_dim"(%param_1.1) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x128xf32> loc("examples/hlo/softmax.hlo":22:3)
      %multiply.1 = "stablehlo.multiply"(%param_0, %broadcast.4) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32> loc("examples/hlo/softmax.hlo":23:3)
      xla_indexing.yield %multiply.1 : tensor<8x128xf32>
    }
    return %broadcast_multiply_fusion : tensor<8x128xf32>
  }
}

// ----- examples/hlo/transpose_add.hlo
module @transpose_add {
  func.func @main(%x: tensor<16x32xf32>, %y: tensor<512xf32>) -> (tensor<32xf32>) {
    %transpose_fusion = xla_indexing.fusion (%x, %y) {name = "fused_transpose", kind = "kLoop"} : (tensor<16x32xf32>, tensor<512xf32>) -> (tensor<32x16xf32>) {
    ^bb0(%p0: tensor<16x32xf32>, %p1: tensor<512xf32>):
      %exp = "stablehlo.exponential"(%p0) : (tensor<16x32xf32>) -> tensor<16x32xf32> loc("examples/hlo/transpose_add.hlo":13:3)
      %transpose = "stablehlo.transpose"(%exp) <{permutation = array<i64: 1, 0>}> : (tensor<16x32xf32>) -> tensor<32x16xf32> loc("examples/hlo/transpose_add.hlo":14:3)
      %bitcast = "stablehlo.reshape"(%p1) : (tensor<512xf32>) -> tensor<32x16xf32> loc("examples/hlo/transpose_add.hlo":16:3)
      %add = "stablehlo.add"(%transpose, %bitcast) : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32> loc("examples/hlo/transpose_add.hlo":17:3)
      xla_indexing.yield %add : tensor<32x16xf32>
    }
    %reduce_fusion = xla_indexing.fusion (%transpose_fusion) {name = "fused_reduce", kind = "kInput"} : (tensor<32x16xf32>) -> (tensor<32xf32>) {
    ^bb0(%q0: tensor<32x16xf32>):
      %zero = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32> loc("examples/hlo/transpose_add.hlo":22:3)
      %row_sum = "stablehlo.reduce"(%q0, %zero) <{dimensions = array<i64: 1>}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %sum = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("examples/hlo/transpose_add.hlo":8:3)
        "stablehlo.return"(%sum) : (tensor<f32>) -> ()
      }) : (tensor<32x16xf32>, tensor<f32>) -> tensor<32xf32> loc("examples/hlo/transpose_add.hlo":23:3)
      xla_indexing.yield %row_sum : tensor<32xf32>
    }
    return %reduce_fusion : tensor<32xf32>
  }
}

// ----- examples/hlo/transpose_exp_add.hlo
module @jit_f {
  func.func @main.1(%x.1: tensor<10x20xf32>, %y.1: tensor<200xf32>) -> (tensor<20x10xf32>) {
    %bitcast_add_fusion = xla_indexing.fusion (%y.1, %x.1) {name = "fused_computation", kind = "kLoop"} : (tensor<200xf32>, tensor<10x20xf32>) -> (tensor<20x10xf32>) {
    ^bb0(%param_0.1: tensor<200xf32>, %param_1.4: tensor<10x20xf32>):
      %exp.2 = "stablehlo.exponential"(%param_1.4) : (tensor<10x20xf32>) -> tensor<10x20xf32> loc("examples/hlo/transpose_exp_add.hlo":25:3)
      %transpose.4 = "stablehlo.transpose"(%exp.2) <{permutation = array<i64: 1, 0>}> : (tensor<10x20xf32>) -> tensor<20x10xf32> loc("examples/hlo/transpose_exp_add.hlo":26:3)
      %bitcast.1 = "stablehlo.reshape"(%param_0.1) : (tensor<200xf32>) -> tensor<20x10xf32> loc("examples/hlo/transpose_exp_add.hlo":29:3)
      %add.0 = "stablehlo.add"(%transpose.4, %bitcast.1) : (tensor<20x10xf32>, tensor<20x10xf32>) -> tensor<20x10xf32> loc("examples/hlo/transpose_exp_add.hlo":30:3)
      xla_indexing.yield %add.0 : tensor<20x10xf32>
    }
    return %bitcast_add_fusion : tensor<20x10xf32>
  }
}

// ----- examples/hlo/unrolled_f16.hlo
module @unrolled_f16 {
  func.func @main(%x: tensor<544x512xf16>, %y: tensor<512xf16>, %z: tensor<600xf32>) -> (tensor<544x512xf16>, tensor<300xf32>) {
    %scale = xla_indexing.fusion (%x, %y) {name = "fused_scale", kind = "kLoop"} : (tensor<544x512xf16>, tensor<512xf16>) -> (tensor<544x512xf16>) {
    ^bb0(%p0: tensor<544x512xf16>, %p1: tensor<512xf16>):
      %b = "stablehlo.broadcast_in_dim"(%p1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<512xf16>) -> tensor<544x512xf16> loc("examples/hlo/unrolled_f16.hlo":6:3)
      %m = "stablehlo.multiply"(%p0, %b) : (tensor<544x512xf16>, tensor<544x512xf16>) -> tensor<544x512xf16> loc("examples/hlo/unrolled_f16.hlo":7:3)
      xla_indexing.yield %m : tensor<544x512xf16>
    }
    %strided = xla_indexing.fusion (%z) {name = "fused_strided", kind = "kLoop"} : (tensor<600xf32>) -> (tensor<300xf32>) {
    ^bb0(%p0_1: tensor<600xf32>):
      %s = "stablehlo.slice"(%p0_1) <{start_indices = array<i64: 0>, limit_indices = array<i64: 600>, strides = array<i64: 2>}> : (tensor<600xf32>) -> tensor<300xf32> loc("examples/hlo/unrolled_f16.hlo":12:3)
      xla_indexing.yield %s : tensor<300xf32>
    }
    return %scale, %strided : tensor<544x512xf16>, tensor<300xf32>
  }
}

// ----- test/cli/Inputs/conv_gather.hlo
module @cg {
  func.func @main(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>, %o: tensor<10x5xf32>, %i: tensor<4x1xi32>, %a: tensor<4x6xf32>) -> (tensor<1x8x8x4xf32>, tensor<4x5xf32>, tensor<6x4xf32>, tensor<4x6xf32>) {
    %conv = "stablehlo.convolution"(%x, %k) <{window_strides = array<i64: 1, 1>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32> loc("test/cli/Inputs/conv_gather.hlo":6:3)
    %g = "stablehlo.gather"(%o, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], operand_batching_dims = [], start_indices_batching_dims = [], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 5>}> : (tensor<10x5xf32>, tensor<4x1xi32>) -> tensor<4x5xf32> loc("test/cli/Inputs/conv_gather.hlo":9:3)
    %t = "stablehlo.transpose"(%a) <{permutation = array<i64: 1, 0>}> : (tensor<4x6xf32>) -> tensor<6x4xf32> loc("test/cli/Inputs/conv_gather.hlo":11:3)
    %c = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32> loc("test/cli/Inputs/conv_gather.hlo":12:3)
    %b = "stablehlo.broadcast_in_dim"(%c) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x6xf32> loc("test/cli/Inputs/conv_gather.hlo":13:3)
    return %conv, %g, %t, %b : tensor<1x8x8x4xf32>, tensor<4x5xf32>, tensor<6x4xf32>, tensor<4x6xf32>
  }
}

