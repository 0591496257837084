"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<10xf32>, tensor<f32>) -> (tensor<10xf32>, tensor<10xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg3: tensor<10xf32>, %arg4: tensor<f32>):
    %3 = "stablehlo.composite"(%arg3) <{decomposition = @my.tanh, name = "my.tanh"}> : (tensor<10xf32>) -> tensor<10xf32>
    %4 = "stablehlo.composite"(%arg3, %arg4) <{decomposition = @my.scaled, name = "my.scaled"}> : (tensor<10xf32>, tensor<f32>) -> tensor<10xf32>
    "func.return"(%3, %4) : (tensor<10xf32>, tensor<10xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<10xf32>) -> tensor<10xf32>, sym_name = "my.tanh", sym_visibility = "private"}> ({
  ^bb0(%arg2: tensor<10xf32>):
    %2 = "stablehlo.tanh"(%arg2) : (tensor<10xf32>) -> tensor<10xf32>
    "func.return"(%2) : (tensor<10xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<10xf32>, tensor<f32>) -> tensor<10xf32>, sym_name = "my.scaled", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<10xf32>, %arg1: tensor<f32>):
    %0 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
    %1 = "stablehlo.multiply"(%arg0, %0) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    "func.return"(%1) : (tensor<10xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
