"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<3x4xf32>, tensor<3x4xf32>) -> (tensor<6x4xf32>, tensor<3x2x4xf32>, tensor<3x12xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<3x4xf32>, %arg2: tensor<3x4xf32>):
    %0 = "stablehlo.concatenate"(%arg1, %arg2) <{dimension = 0 : i64}> : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<6x4xf32>
    %1 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 0, 2>}> : (tensor<3x4xf32>) -> tensor<3x1x4xf32>
    %2 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64: 0, 2>}> : (tensor<3x4xf32>) -> tensor<3x1x4xf32>
    %3 = "stablehlo.concatenate"(%1, %2) <{dimension = 1 : i64}> : (tensor<3x1x4xf32>, tensor<3x1x4xf32>) -> tensor<3x2x4xf32>
    %4 = "func.call"(%arg1) <{callee = @atleast_1d}> : (tensor<3x4xf32>) -> tensor<3x4xf32>
    %5 = "func.call"(%arg2) <{callee = @atleast_1d}> : (tensor<3x4xf32>) -> tensor<3x4xf32>
    %6 = "func.call"(%arg1) <{callee = @atleast_1d}> : (tensor<3x4xf32>) -> tensor<3x4xf32>
    %7 = "stablehlo.concatenate"(%4, %5, %6) <{dimension = 1 : i64}> : (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x12xf32>
    "func.return"(%0, %3, %7) : (tensor<6x4xf32>, tensor<3x2x4xf32>, tensor<3x12xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<3x4xf32>) -> tensor<3x4xf32>, sym_name = "atleast_1d", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<3x4xf32>):
    "func.return"(%arg0) : (tensor<3x4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
