"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<2x3x4xf32>) -> (tensor<2x4x3xf32>, tensor<4x3x2xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<2x3x4xf32>):
    %0 = "stablehlo.transpose"(%arg0) <{permutation = array<i64: 0, 2, 1>}> : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
    %1 = "stablehlo.transpose"(%arg0) <{permutation = array<i64: 2, 1, 0>}> : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
    "func.return"(%0, %1) : (tensor<2x4x3xf32>, tensor<4x3x2xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
