"builtin.module"() <{sym_name = "jit_scan_sum"}> ({
  "func.func"() <{function_type = (tensor<7x3xf32>) -> (tensor<3xf32>, tensor<7x3xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg5: tensor<7x3xf32>):
    %6 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3xf32>
    %8 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<7x3xf32>
    %10 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %11:4 = "stablehlo.while"(%arg5, %10, %7, %9) ({
    ^bb0(%arg10: tensor<7x3xf32>, %arg11: tensor<i32>, %arg12: tensor<3xf32>, %arg13: tensor<7x3xf32>):
      %20 = "stablehlo.constant"() <{value = dense<7> : tensor<i32>}> : () -> tensor<i32>
      %21 = "stablehlo.compare"(%arg11, %20) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%21) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg6: tensor<7x3xf32>, %arg7: tensor<i32>, %arg8: tensor<3xf32>, %arg9: tensor<7x3xf32>):
      %12 = "func.call"(%arg6, %arg7) <{callee = @dynamic_index_in_dim}> : (tensor<7x3xf32>, tensor<i32>) -> tensor<3xf32>
      %13 = "stablehlo.add"(%arg8, %12) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      %14 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3xf32>
      %16 = "stablehlo.multiply"(%13, %15) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      %17 = "func.call"(%arg9, %16, %arg7) <{callee = @dynamic_update_index_in_dim}> : (tensor<7x3xf32>, tensor<3xf32>, tensor<i32>) -> tensor<7x3xf32>
      %18 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %19 = "stablehlo.add"(%arg7, %18) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%arg6, %19, %13, %17) : (tensor<7x3xf32>, tensor<i32>, tensor<3xf32>, tensor<7x3xf32>) -> ()
    }) : (tensor<7x3xf32>, tensor<i32>, tensor<3xf32>, tensor<7x3xf32>) -> (tensor<7x3xf32>, tensor<i32>, tensor<3xf32>, tensor<7x3xf32>)
    "func.return"(%11#2, %11#3) : (tensor<3xf32>, tensor<7x3xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<7x3xf32>, tensor<i32>) -> tensor<3xf32>, sym_name = "dynamic_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<7x3xf32>, %arg4: tensor<i32>):
    %3 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %4 = "stablehlo.dynamic_slice"(%arg3, %arg4, %3) <{slice_sizes = array<i64: 1, 3>}> : (tensor<7x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x3xf32>
    %5 = "stablehlo.reshape"(%4) : (tensor<1x3xf32>) -> tensor<3xf32>
    "func.return"(%5) : (tensor<3xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<7x3xf32>, tensor<3xf32>, tensor<i32>) -> tensor<7x3xf32>, sym_name = "dynamic_update_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<7x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<i32>):
    %0 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<3xf32>) -> tensor<1x3xf32>
    %1 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %2 = "stablehlo.dynamic_update_slice"(%arg0, %0, %arg2, %1) : (tensor<7x3xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<7x3xf32>
    "func.return"(%2) : (tensor<7x3xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
