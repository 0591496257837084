"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}, {jax.result_info = "result[8]"}, {jax.result_info = "result[9]"}, {jax.result_info = "result[10]"}, {jax.result_info = "result[11]"}, {jax.result_info = "result[12]"}, {jax.result_info = "result[13]"}, {jax.result_info = "result[14]"}, {jax.result_info = "result[15]"}, {jax.result_info = "result[16]"}, {jax.result_info = "result[17]"}, {jax.result_info = "result[18]"}, {jax.result_info = "result[19]"}, {jax.result_info = "result[20]"}, {jax.result_info = "result[21]"}, {jax.result_info = "result[22]"}, {jax.result_info = "result[23]"}, {jax.result_info = "result[24]"}, {jax.result_info = "result[25]"}, {jax.result_info = "result[26]"}, {jax.result_info = "result[27]"}, {jax.result_info = "result[28]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg3: tensor<4x8xf32>, %arg4: tensor<4x8xf32>):
    %15 = "stablehlo.add"(%arg3, %arg4) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %16 = "stablehlo.subtract"(%arg3, %arg4) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %17 = "stablehlo.multiply"(%arg3, %arg4) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %18 = "stablehlo.divide"(%arg3, %arg4) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %19 = "stablehlo.maximum"(%arg3, %arg4) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %20 = "stablehlo.minimum"(%arg3, %arg4) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %21 = "stablehlo.exponential"(%arg3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %22 = "stablehlo.log"(%arg3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %23 = "stablehlo.tanh"(%arg3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %24 = "stablehlo.negate"(%arg3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %25 = "stablehlo.abs"(%arg3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %26 = "stablehlo.sqrt"(%arg3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %27 = "stablehlo.rsqrt"(%arg3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %28 = "stablehlo.power"(%arg3, %arg4) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %29 = "stablehlo.floor"(%arg3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %30 = "stablehlo.ceil"(%arg3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %31 = "stablehlo.sine"(%arg3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %32 = "stablehlo.cosine"(%arg3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %33 = "stablehlo.sign"(%arg3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %34 = "stablehlo.exponential_minus_one"(%arg3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %35 = "stablehlo.log_plus_one"(%arg3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %36 = "stablehlo.negate"(%arg3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %37 = "stablehlo.exponential"(%36) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %38 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %39 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
    %40 = "stablehlo.add"(%39, %37) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %41 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %42 = "stablehlo.broadcast_in_dim"(%41) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
    %43 = "stablehlo.divide"(%42, %40) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %44 = "func.call"(%arg3) <{callee = @round}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %45 = "stablehlo.atan2"(%arg3, %arg4) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %46 = "func.call"(%arg3, %arg4) <{callee = @remainder}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %47 = "stablehlo.is_finite"(%arg3) : (tensor<4x8xf32>) -> tensor<4x8xi1>
    %48 = "stablehlo.cbrt"(%arg3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %49 = "stablehlo.tan"(%arg3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %50 = "stablehlo.round_nearest_afz"(%arg3) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    "func.return"(%15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %43, %44, %45, %46, %47, %48, %49, %50) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x8xf32>) -> tensor<4x8xf32>, sym_name = "round", sym_visibility = "private"}> ({
  ^bb0(%arg2: tensor<4x8xf32>):
    %14 = "stablehlo.round_nearest_even"(%arg2) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    "func.return"(%14) : (tensor<4x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>, sym_name = "remainder", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>):
    %0 = "stablehlo.remainder"(%arg0, %arg1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %1 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
    %3 = "stablehlo.compare"(%0, %2) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %4 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
    %6 = "stablehlo.compare"(%0, %5) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %7 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
    %9 = "stablehlo.compare"(%arg1, %8) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %10 = "stablehlo.compare"(%6, %9) <{compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
    %11 = "stablehlo.and"(%10, %3) : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
    %12 = "stablehlo.add"(%0, %arg1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %13 = "stablehlo.select"(%11, %12, %0) : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    "func.return"(%13) : (tensor<4x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
