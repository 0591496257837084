"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<?x3xf32>) -> (tensor<3xf32>, tensor<?xf32>, tensor<?xi32>, tensor<?x3xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg4: tensor<?x3xf32>):
    %25 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %26 = "stablehlo.get_dimension_size"(%arg4) <{dimension = 0 : i64}> : (tensor<?x3xf32>) -> tensor<i32>
    %27 = "stablehlo.compare"(%26, %25) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.custom_call"(%27, %26) <{api_version = 2 : i32, call_target_name = "shape_assertion", has_side_effect = true}> {error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (b, 3). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/501/shape-polymorphism.html#shape-assertion-errors for more details."} : (tensor<i1>, tensor<i32>) -> ()
    %28:4 = "func.call"(%26, %arg4) <{callee = @_wrapped_jax_export_main}> : (tensor<i32>, tensor<?x3xf32>) -> (tensor<3xf32>, tensor<?xf32>, tensor<?xi32>, tensor<?x3xf32>)
    "func.return"(%28#0, %28#1, %28#2, %28#3) : (tensor<3xf32>, tensor<?xf32>, tensor<?xi32>, tensor<?x3xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{jax.global_constant = "b"}, {}], function_type = (tensor<i32>, tensor<?x3xf32>) -> (tensor<3xf32>, tensor<?xf32>, tensor<?xi32>, tensor<?x3xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}], sym_name = "_wrapped_jax_export_main", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<i32>, %arg1: tensor<?x3xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %1 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %2 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.constant"() <{value = dense<3> : tensor<1xi32>}> : () -> tensor<1xi32>
    %4 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %6 = "stablehlo.reshape"(%arg0) : (tensor<i32>) -> tensor<1xi32>
    %7 = "stablehlo.concatenate"(%6, %3) <{dimension = 0 : i64}> : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %8 = "stablehlo.dynamic_broadcast_in_dim"(%4, %7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>, tensor<2xi32>) -> tensor<?x3xf32>
    %9 = "stablehlo.multiply"(%arg1, %8) : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
    %10 = "stablehlo.reduce"(%9, %2) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %24 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%24) : (tensor<f32>) -> ()
    }) : (tensor<?x3xf32>, tensor<f32>) -> tensor<3xf32>
    %11 = "stablehlo.convert"(%arg0) : (tensor<i32>) -> tensor<i32>
    %12 = "stablehlo.multiply"(%11, %5) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %13 = "stablehlo.reshape"(%12) : (tensor<i32>) -> tensor<1xi32>
    %14 = "stablehlo.dynamic_reshape"(%arg1, %13) : (tensor<?x3xf32>, tensor<1xi32>) -> tensor<?xf32>
    %15 = "stablehlo.reshape"(%arg0) : (tensor<i32>) -> tensor<1xi32>
    %16 = "stablehlo.dynamic_iota"(%15) <{iota_dimension = 0 : i64}> : (tensor<1xi32>) -> tensor<?xi32>
    %17 = "stablehlo.reshape"(%arg0) : (tensor<i32>) -> tensor<1xi32>
    %18 = "stablehlo.dynamic_broadcast_in_dim"(%1, %17) <{broadcast_dimensions = array<i64>}> : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %19 = "stablehlo.multiply"(%18, %16) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
    %20 = "stablehlo.reshape"(%arg0) : (tensor<i32>) -> tensor<1xi32>
    %21 = "stablehlo.dynamic_broadcast_in_dim"(%0, %20) <{broadcast_dimensions = array<i64>}> : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %22 = "stablehlo.add"(%21, %19) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
    %23 = "stablehlo.concatenate"(%arg1, %arg1) <{dimension = 0 : i64}> : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
    "func.return"(%10, %14, %22, %23) : (tensor<3xf32>, tensor<?xf32>, tensor<?xi32>, tensor<?x3xf32>) -> ()
  }) : () -> ()
}) {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
