"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<8x9xf32>, tensor<i32>, tensor<2x3xf32>) -> (tensor<3x4xf32>, tensor<8x9xf32>, tensor<8x1xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg2: tensor<8x9xf32>, %arg3: tensor<i32>, %arg4: tensor<2x3xf32>):
    %7 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %8 = "stablehlo.compare"(%arg3, %7) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %9 = "stablehlo.constant"() <{value = dense<8> : tensor<i32>}> : () -> tensor<i32>
    %10 = "stablehlo.add"(%arg3, %9) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %11 = "stablehlo.select"(%8, %10, %arg3) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %12 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %13 = "stablehlo.dynamic_slice"(%arg2, %11, %12) <{slice_sizes = array<i64: 3, 4>}> : (tensor<8x9xf32>, tensor<i32>, tensor<i32>) -> tensor<3x4xf32>
    %14 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %15 = "stablehlo.compare"(%arg3, %14) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %16 = "stablehlo.constant"() <{value = dense<8> : tensor<i32>}> : () -> tensor<i32>
    %17 = "stablehlo.add"(%arg3, %16) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %18 = "stablehlo.select"(%15, %17, %arg3) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %19 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %20 = "stablehlo.compare"(%arg3, %19) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %21 = "stablehlo.constant"() <{value = dense<9> : tensor<i32>}> : () -> tensor<i32>
    %22 = "stablehlo.add"(%arg3, %21) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %23 = "stablehlo.select"(%20, %22, %arg3) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %24 = "stablehlo.dynamic_update_slice"(%arg2, %arg4, %18, %23) : (tensor<8x9xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<8x9xf32>
    %25 = "func.call"(%arg2, %arg3) <{callee = @dynamic_index_in_dim}> : (tensor<8x9xf32>, tensor<i32>) -> tensor<8x1xf32>
    "func.return"(%13, %24, %25) : (tensor<3x4xf32>, tensor<8x9xf32>, tensor<8x1xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x9xf32>, tensor<i32>) -> tensor<8x1xf32>, sym_name = "dynamic_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8x9xf32>, %arg1: tensor<i32>):
    %0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %1 = "stablehlo.compare"(%arg1, %0) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %2 = "stablehlo.constant"() <{value = dense<9> : tensor<i32>}> : () -> tensor<i32>
    %3 = "stablehlo.add"(%arg1, %2) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %4 = "stablehlo.select"(%1, %3, %arg1) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %5 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %6 = "stablehlo.dynamic_slice"(%arg0, %5, %4) <{slice_sizes = array<i64: 8, 1>}> : (tensor<8x9xf32>, tensor<i32>, tensor<i32>) -> tensor<8x1xf32>
    "func.return"(%6) : (tensor<8x1xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
