"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<6x10xf32>) -> (tensor<f32>, tensor<10xf32>, tensor<6xf32>, tensor<6xf32>, tensor<10xf32>, tensor<6xi1>, tensor<i1>, tensor<6xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<6x10xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.reduce"(%arg0, %0) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg15: tensor<f32>, %arg16: tensor<f32>):
      %32 = "stablehlo.add"(%arg15, %arg16) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%32) : (tensor<f32>) -> ()
    }) : (tensor<6x10xf32>, tensor<f32>) -> tensor<f32>
    %2 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.reduce"(%arg0, %2) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg13: tensor<f32>, %arg14: tensor<f32>):
      %31 = "stablehlo.add"(%arg13, %arg14) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%31) : (tensor<f32>) -> ()
    }) : (tensor<6x10xf32>, tensor<f32>) -> tensor<10xf32>
    %4 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.reduce"(%arg0, %4) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg11: tensor<f32>, %arg12: tensor<f32>):
      %30 = "stablehlo.maximum"(%arg11, %arg12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%30) : (tensor<f32>) -> ()
    }) : (tensor<6x10xf32>, tensor<f32>) -> tensor<6xf32>
    %6 = "stablehlo.constant"() <{value = dense<0x7F800000> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.reduce"(%arg0, %6) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
      %29 = "stablehlo.minimum"(%arg9, %arg10) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%29) : (tensor<f32>) -> ()
    }) : (tensor<6x10xf32>, tensor<f32>) -> tensor<6xf32>
    %8 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.reduce"(%arg0, %8) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %28 = "stablehlo.multiply"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%28) : (tensor<f32>) -> ()
    }) : (tensor<6x10xf32>, tensor<f32>) -> tensor<10xf32>
    %10 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<6x10xf32>
    %12 = "stablehlo.compare"(%arg0, %11) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<6x10xf32>, tensor<6x10xf32>) -> tensor<6x10xi1>
    %13 = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
    %14 = "stablehlo.reduce"(%12, %13) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg5: tensor<i1>, %arg6: tensor<i1>):
      %27 = "stablehlo.or"(%arg5, %arg6) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%27) : (tensor<i1>) -> ()
    }) : (tensor<6x10xi1>, tensor<i1>) -> tensor<6xi1>
    %15 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<6x10xf32>
    %17 = "stablehlo.compare"(%arg0, %16) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<6x10xf32>, tensor<6x10xf32>) -> tensor<6x10xi1>
    %18 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %19 = "stablehlo.reduce"(%17, %18) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg3: tensor<i1>, %arg4: tensor<i1>):
      %26 = "stablehlo.and"(%arg3, %arg4) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%26) : (tensor<i1>) -> ()
    }) : (tensor<6x10xi1>, tensor<i1>) -> tensor<i1>
    %20 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %21 = "stablehlo.reduce"(%arg0, %20) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %25 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%25) : (tensor<f32>) -> ()
    }) : (tensor<6x10xf32>, tensor<f32>) -> tensor<6xf32>
    %22 = "stablehlo.constant"() <{value = dense<1.000000e+01> : tensor<f32>}> : () -> tensor<f32>
    %23 = "stablehlo.broadcast_in_dim"(%22) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<6xf32>
    %24 = "stablehlo.divide"(%21, %23) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    "func.return"(%1, %3, %5, %7, %9, %14, %19, %24) : (tensor<f32>, tensor<10xf32>, tensor<6xf32>, tensor<6xf32>, tensor<10xf32>, tensor<6xi1>, tensor<i1>, tensor<6xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
