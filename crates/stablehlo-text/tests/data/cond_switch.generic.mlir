"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<f32>, tensor<i32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<f32>, %arg1: tensor<i32>, %arg2: tensor<3xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.compare"(%arg0, %0) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = "stablehlo.convert"(%1) : (tensor<i1>) -> tensor<i32>
    %3 = "stablehlo.case"(%2) ({
      %14 = "stablehlo.sine"(%arg2) : (tensor<3xf32>) -> tensor<3xf32>
      "stablehlo.return"(%14) : (tensor<3xf32>) -> ()
    }, {
      %11 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %12 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3xf32>
      %13 = "stablehlo.multiply"(%arg2, %12) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      "stablehlo.return"(%13) : (tensor<3xf32>) -> ()
    }) : (tensor<i32>) -> tensor<3xf32>
    %4 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %5 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %6 = "stablehlo.clamp"(%4, %arg1, %5) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %7 = "stablehlo.case"(%6) ({
      %10 = "stablehlo.cosine"(%arg2) : (tensor<3xf32>) -> tensor<3xf32>
      "stablehlo.return"(%10) : (tensor<3xf32>) -> ()
    }, {
      %9 = "stablehlo.exponential"(%arg2) : (tensor<3xf32>) -> tensor<3xf32>
      "stablehlo.return"(%9) : (tensor<3xf32>) -> ()
    }, {
      %8 = "stablehlo.negate"(%arg2) : (tensor<3xf32>) -> tensor<3xf32>
      "stablehlo.return"(%8) : (tensor<3xf32>) -> ()
    }) : (tensor<i32>) -> tensor<3xf32>
    "func.return"(%3, %7) : (tensor<3xf32>, tensor<3xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
