"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<4x5xf32>) -> (tensor<7x8xf32>, tensor<9x4xf32>, tensor<6x7xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg3: tensor<4x5xf32>):
    %16 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %17 = "func.call"(%arg3, %16) <{callee = @_pad}> : (tensor<4x5xf32>, tensor<i32>) -> tensor<7x8xf32>
    %18 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %19 = "stablehlo.pad"(%arg3, %18) <{edge_padding_high = array<i64: 1, -1>, edge_padding_low = array<i64: 1, 0>, interior_padding = array<i64: 1, 0>}> : (tensor<4x5xf32>, tensor<f32>) -> tensor<9x4xf32>
    %20 = "func.call"(%arg3) <{callee = @_pad_0}> : (tensor<4x5xf32>) -> tensor<6x7xf32>
    "func.return"(%17, %19, %20) : (tensor<7x8xf32>, tensor<9x4xf32>, tensor<6x7xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x5xf32>, tensor<i32>) -> tensor<7x8xf32>, sym_name = "_pad", sym_visibility = "private"}> ({
  ^bb0(%arg1: tensor<4x5xf32>, %arg2: tensor<i32>):
    %14 = "stablehlo.convert"(%arg2) : (tensor<i32>) -> tensor<f32>
    %15 = "stablehlo.pad"(%arg1, %14) <{edge_padding_high = array<i64: 2, 3>, edge_padding_low = array<i64: 1, 0>, interior_padding = array<i64: 0, 0>}> : (tensor<4x5xf32>, tensor<f32>) -> tensor<7x8xf32>
    "func.return"(%15) : (tensor<7x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x5xf32>) -> tensor<6x7xf32>, sym_name = "_pad_0", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x5xf32>):
    %0 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 1, 5>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<4x5xf32>) -> tensor<1x5xf32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64: 0, 2>}> : (tensor<1x5xf32>) -> tensor<1x1x5xf32>
    %2 = "stablehlo.reshape"(%1) : (tensor<1x1x5xf32>) -> tensor<1x5xf32>
    %3 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 5>, start_indices = array<i64: 3, 0>, strides = array<i64: 1, 1>}> : (tensor<4x5xf32>) -> tensor<1x5xf32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64: 0, 2>}> : (tensor<1x5xf32>) -> tensor<1x1x5xf32>
    %5 = "stablehlo.reshape"(%4) : (tensor<1x1x5xf32>) -> tensor<1x5xf32>
    %6 = "stablehlo.concatenate"(%2, %arg0, %5) <{dimension = 0 : i64}> : (tensor<1x5xf32>, tensor<4x5xf32>, tensor<1x5xf32>) -> tensor<6x5xf32>
    %7 = "stablehlo.slice"(%6) <{limit_indices = array<i64: 6, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<6x5xf32>) -> tensor<6x1xf32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<6x1xf32>) -> tensor<6x1x1xf32>
    %9 = "stablehlo.reshape"(%8) : (tensor<6x1x1xf32>) -> tensor<6x1xf32>
    %10 = "stablehlo.slice"(%6) <{limit_indices = array<i64: 6, 5>, start_indices = array<i64: 0, 4>, strides = array<i64: 1, 1>}> : (tensor<6x5xf32>) -> tensor<6x1xf32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<6x1xf32>) -> tensor<6x1x1xf32>
    %12 = "stablehlo.reshape"(%11) : (tensor<6x1x1xf32>) -> tensor<6x1xf32>
    %13 = "stablehlo.concatenate"(%9, %6, %12) <{dimension = 1 : i64}> : (tensor<6x1xf32>, tensor<6x5xf32>, tensor<6x1xf32>) -> tensor<6x7xf32>
    "func.return"(%13) : (tensor<6x7xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
