"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<6x8xf32>) -> (tensor<2x4xf32>, tensor<6x6xf32>, tensor<6xf32>, tensor<8xf32>, tensor<2x2xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<6x8xf32>):
    %0 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 3, 8>, start_indices = array<i64: 1, 0>, strides = array<i64: 1, 2>}> : (tensor<6x8xf32>) -> tensor<2x4xf32>
    %1 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 6, 8>, start_indices = array<i64: 0, 2>, strides = array<i64: 1, 1>}> : (tensor<6x8xf32>) -> tensor<6x6xf32>
    %2 = "stablehlo.reverse"(%1) <{dimensions = array<i64: 0>}> : (tensor<6x6xf32>) -> tensor<6x6xf32>
    %3 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 6, 4>, start_indices = array<i64: 0, 3>, strides = array<i64: 1, 1>}> : (tensor<6x8xf32>) -> tensor<6x1xf32>
    %4 = "stablehlo.reshape"(%3) : (tensor<6x1xf32>) -> tensor<6xf32>
    %5 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 3, 8>, start_indices = array<i64: 2, 0>, strides = array<i64: 1, 1>}> : (tensor<6x8xf32>) -> tensor<1x8xf32>
    %6 = "stablehlo.reshape"(%5) : (tensor<1x8xf32>) -> tensor<8xf32>
    %7 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 7>, start_indices = array<i64: 0, 1>, strides = array<i64: 2, 3>}> : (tensor<6x8xf32>) -> tensor<2x2xf32>
    "func.return"(%0, %2, %4, %6, %7) : (tensor<2x4xf32>, tensor<6x6xf32>, tensor<6xf32>, tensor<8xf32>, tensor<2x2xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
