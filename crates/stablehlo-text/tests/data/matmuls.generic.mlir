"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<4x6xf32>, tensor<6x5xf32>, tensor<6xf32>) -> (tensor<4x5xf32>, tensor<4xf32>, tensor<4x5xf32>, tensor<1x4x5xf32>, tensor<6x6xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x6xf32>, %arg1: tensor<6x5xf32>, %arg2: tensor<6xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x6xf32>, tensor<6x5xf32>) -> tensor<4x5xf32>
    %1 = "stablehlo.dot_general"(%arg0, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<4xf32>
    %2 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]}> : (tensor<4x6xf32>, tensor<6x5xf32>) -> tensor<4x5xf32>
    %3 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<4x6xf32>) -> tensor<1x4x6xf32>
    %4 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<6x5xf32>) -> tensor<1x6x5xf32>
    %5 = "stablehlo.dot_general"(%3, %4) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<1x4x6xf32>, tensor<1x6x5xf32>) -> tensor<1x4x5xf32>
    %6 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64: 0>}> : (tensor<6xf32>) -> tensor<6x1xf32>
    %7 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64: 1>}> : (tensor<6xf32>) -> tensor<1x6xf32>
    %8 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<6x1xf32>) -> tensor<6x6xf32>
    %9 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x6xf32>) -> tensor<6x6xf32>
    %10 = "stablehlo.multiply"(%8, %9) : (tensor<6x6xf32>, tensor<6x6xf32>) -> tensor<6x6xf32>
    "func.return"(%0, %1, %2, %5, %10) : (tensor<4x5xf32>, tensor<4xf32>, tensor<4x5xf32>, tensor<1x4x5xf32>, tensor<6x6xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
