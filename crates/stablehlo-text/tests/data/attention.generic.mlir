"builtin.module"() <{sym_name = "jit_attention"}> ({
  "func.func"() <{function_type = (tensor<2x8x16xf32>, tensor<2x10x16xf32>, tensor<2x10x16xf32>) -> tensor<2x8x16xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<2x8x16xf32>, %arg1: tensor<2x10x16xf32>, %arg2: tensor<2x10x16xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x16xf32>, tensor<2x10x16xf32>) -> tensor<2x8x10xf32>
    %1 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x10xf32>
    %3 = "stablehlo.divide"(%0, %2) : (tensor<2x8x10xf32>, tensor<2x8x10xf32>) -> tensor<2x8x10xf32>
    %4 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.reduce"(%3, %4) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %20 = "stablehlo.maximum"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%20) : (tensor<f32>) -> ()
    }) : (tensor<2x8x10xf32>, tensor<f32>) -> tensor<2x8xf32>
    %6 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8xf32>
    %8 = "stablehlo.maximum"(%7, %5) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1xf32>) -> tensor<2x8x10xf32>
    %11 = "stablehlo.subtract"(%3, %10) : (tensor<2x8x10xf32>, tensor<2x8x10xf32>) -> tensor<2x8x10xf32>
    %12 = "stablehlo.exponential"(%11) : (tensor<2x8x10xf32>) -> tensor<2x8x10xf32>
    %13 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.reduce"(%12, %13) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %19 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%19) : (tensor<f32>) -> ()
    }) : (tensor<2x8x10xf32>, tensor<f32>) -> tensor<2x8xf32>
    %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1xf32>) -> tensor<2x8x10xf32>
    %17 = "stablehlo.divide"(%12, %16) : (tensor<2x8x10xf32>, tensor<2x8x10xf32>) -> tensor<2x8x10xf32>
    %18 = "stablehlo.dot_general"(%17, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x10xf32>, tensor<2x10x16xf32>) -> tensor<2x8x16xf32>
    "func.return"(%18) : (tensor<2x8x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
