"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<24xf32>) -> tensor<24xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<24xf32>):
    %0 = "stablehlo.reshape"(%arg0) : (tensor<24xf32>) -> tensor<2x3x4xf32>
    %1 = "stablehlo.transpose"(%0) <{permutation = array<i64: 2, 0, 1>}> : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
    %2 = "stablehlo.reshape"(%1) : (tensor<4x2x3xf32>) -> tensor<4x6xf32>
    %3 = "stablehlo.transpose"(%2) <{permutation = array<i64: 1, 0>}> : (tensor<4x6xf32>) -> tensor<6x4xf32>
    %4 = "stablehlo.reshape"(%3) : (tensor<6x4xf32>) -> tensor<24xf32>
    "func.return"(%4) : (tensor<24xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
