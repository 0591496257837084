"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<10xf32>) -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg2: tensor<10xf32>):
    %12 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
    %14 = "stablehlo.maximum"(%arg2, %13) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %15 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
    %16 = "stablehlo.subtract"(%arg2, %15) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %17 = "stablehlo.compare"(%16, %16) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xi1>
    %18 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
    %19 = "stablehlo.add"(%arg2, %18) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %20 = "stablehlo.abs"(%16) : (tensor<10xf32>) -> tensor<10xf32>
    %21 = "stablehlo.negate"(%20) : (tensor<10xf32>) -> tensor<10xf32>
    %22 = "stablehlo.exponential"(%21) : (tensor<10xf32>) -> tensor<10xf32>
    %23 = "stablehlo.log_plus_one"(%22) : (tensor<10xf32>) -> tensor<10xf32>
    %24 = "stablehlo.add"(%14, %23) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %25 = "stablehlo.select"(%17, %19, %24) : (tensor<10xi1>, tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %26 = "stablehlo.multiply"(%arg2, %arg2) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %27 = "stablehlo.multiply"(%26, %arg2) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %28 = "stablehlo.constant"() <{value = dense<4.471500e-02> : tensor<f32>}> : () -> tensor<f32>
    %29 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
    %30 = "stablehlo.multiply"(%29, %27) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %31 = "stablehlo.add"(%arg2, %30) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %32 = "stablehlo.constant"() <{value = dense<0.797884583> : tensor<f32>}> : () -> tensor<f32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
    %34 = "stablehlo.multiply"(%33, %31) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %35 = "stablehlo.tanh"(%34) : (tensor<10xf32>) -> tensor<10xf32>
    %36 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %37 = "stablehlo.broadcast_in_dim"(%36) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
    %38 = "stablehlo.add"(%37, %35) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %39 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %40 = "stablehlo.broadcast_in_dim"(%39) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
    %41 = "stablehlo.multiply"(%40, %38) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %42 = "stablehlo.multiply"(%arg2, %41) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %43 = "func.call"(%arg2) <{callee = @relu}> : (tensor<10xf32>) -> tensor<10xf32>
    %44 = "func.call"(%arg2) <{callee = @silu}> : (tensor<10xf32>) -> tensor<10xf32>
    "func.return"(%25, %42, %43, %44) : (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<10xf32>) -> tensor<10xf32>, sym_name = "relu", sym_visibility = "private"}> ({
  ^bb0(%arg1: tensor<10xf32>):
    %9 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
    %11 = "stablehlo.maximum"(%arg1, %10) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    "func.return"(%11) : (tensor<10xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<10xf32>) -> tensor<10xf32>, sym_name = "silu", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<10xf32>):
    %0 = "stablehlo.negate"(%arg0) : (tensor<10xf32>) -> tensor<10xf32>
    %1 = "stablehlo.exponential"(%0) : (tensor<10xf32>) -> tensor<10xf32>
    %2 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
    %4 = "stablehlo.add"(%3, %1) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %5 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
    %7 = "stablehlo.divide"(%6, %4) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %8 = "stablehlo.multiply"(%arg0, %7) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    "func.return"(%8) : (tensor<10xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
