"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<8x8xf32>, tensor<8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x4x6xf32>, tensor<2x3xf32>, tensor<3x4xi32>, tensor<3x4xi32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x8xf32>, %arg1: tensor<8xf32>):
    %0 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<8xf32>) -> tensor<1x8xf32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x8xf32>) -> tensor<8x8xf32>
    %2 = "stablehlo.add"(%arg0, %1) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %3 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x8xf32>
    %5 = "stablehlo.multiply"(%arg0, %4) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %6 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1x1xf32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<8x1x1xf32>) -> tensor<8x4x6xf32>
    %8 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x3xf32>
    %10 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<12xi32>
    %11 = "stablehlo.reshape"(%10) : (tensor<12xi32>) -> tensor<3x4xi32>
    %12 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<3x4xi32>
    "func.return"(%2, %5, %7, %9, %11, %12) : (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x4x6xf32>, tensor<2x3xf32>, tensor<3x4xi32>, tensor<3x4xi32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
