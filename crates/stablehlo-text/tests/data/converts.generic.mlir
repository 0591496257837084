"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<3x5xf32>, tensor<3x5xi32>) -> (tensor<3x5xi32>, tensor<3x5xf32>, tensor<3x5xbf16>, tensor<3x5xi32>, tensor<3x5xi1>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg3: tensor<3x5xf32>, %arg4: tensor<3x5xi32>):
    %6 = "stablehlo.convert"(%arg3) : (tensor<3x5xf32>) -> tensor<3x5xi32>
    %7 = "stablehlo.convert"(%arg4) : (tensor<3x5xi32>) -> tensor<3x5xf32>
    %8 = "stablehlo.convert"(%arg3) : (tensor<3x5xf32>) -> tensor<3x5xbf16>
    %9 = "stablehlo.bitcast_convert"(%arg3) : (tensor<3x5xf32>) -> tensor<3x5xi32>
    %10 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x5xf32>
    %12 = "stablehlo.compare"(%arg3, %11) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %13 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x5xf32>
    %15 = "stablehlo.compare"(%arg3, %14) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %16 = "stablehlo.convert"(%15) : (tensor<3x5xi1>) -> tensor<3x5xf32>
    %17 = "stablehlo.constant"() <{value = dense<-1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %18 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %19 = "func.call"(%arg3, %17, %18) <{callee = @clip}> : (tensor<3x5xf32>, tensor<f32>, tensor<f32>) -> tensor<3x5xf32>
    %20 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %21 = "stablehlo.constant"() <{value = dense<6.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %22 = "stablehlo.broadcast_in_dim"(%20) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x5xf32>
    %23 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x5xf32>
    %24 = "stablehlo.clamp"(%22, %arg3, %23) : (tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    "func.return"(%6, %7, %8, %9, %12, %16, %19, %24) : (tensor<3x5xi32>, tensor<3x5xf32>, tensor<3x5xbf16>, tensor<3x5xi32>, tensor<3x5xi1>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<3x5xf32>, tensor<f32>, tensor<f32>) -> tensor<3x5xf32>, sym_name = "clip", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<3x5xf32>, %arg1: tensor<f32>, %arg2: tensor<f32>):
    %0 = "stablehlo.convert"(%arg1) : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x5xf32>
    %2 = "stablehlo.maximum"(%1, %arg0) : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %3 = "stablehlo.convert"(%arg2) : (tensor<f32>) -> tensor<f32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x5xf32>
    %5 = "stablehlo.minimum"(%4, %2) : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    "func.return"(%5) : (tensor<3x5xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
