"builtin.module"() ({
  "func.func"() <{function_type = (tensor<i1>, tensor<2xf32>, tensor<2xui64>, tensor<2x3xf32>) -> (), sym_name = "f"}> ({
  ^bb0(%arg1: tensor<i1>, %arg2: tensor<2xf32>, %arg3: tensor<2xui64>, %arg4: tensor<2x3xf32>):
    %0 = "stablehlo.tuple"(%arg2, %arg1) : (tensor<2xf32>, tensor<i1>) -> tuple<tensor<2xf32>, tensor<i1>>
    %1 = "stablehlo.get_tuple_element"(%0) <{index = 1 : i32}> : (tuple<tensor<2xf32>, tensor<i1>>) -> tensor<i1>
    %2 = "stablehlo.if"(%arg1) ({
      "stablehlo.return"(%arg2) : (tensor<2xf32>) -> ()
    }, {
      %22 = "stablehlo.negate"(%arg2) : (tensor<2xf32>) -> tensor<2xf32>
      "stablehlo.return"(%22) : (tensor<2xf32>) -> ()
    }) : (tensor<i1>) -> tensor<2xf32>
    %3:2 = "stablehlo.rng_bit_generator"(%arg3) <{rng_algorithm = #stablehlo<rng_algorithm DEFAULT>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui32>)
    %4 = "stablehlo.dot"(%arg2, %arg4) <{precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision DEFAULT>]}> : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3xf32>
    %5 = "stablehlo.dot"(%arg2, %arg4) : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<3xf32>
    %6 = "stablehlo.dot_general"(%arg4, %arg4) <{algorithm = #stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 3, allow_imprecise_accumulation = false>, dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
    %7 = "stablehlo.dot_general"(%arg2, %arg2) <{dot_dimension_numbers = #stablehlo.dot<>}> : (tensor<2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
    %8 = "stablehlo.composite"(%arg2) <{composite_attributes = {k = 1 : i32}, decomposition = @g, name = "my.op", version = 2 : i32}> : (tensor<2xf32>) -> tensor<2xf32>
    %9 = "stablehlo.create_token"() : () -> !stablehlo.token
    %10 = "stablehlo.after_all"(%9, %9) : (!stablehlo.token, !stablehlo.token) -> !stablehlo.token
    %11 = "stablehlo.constant"() <{value = dense<(1.000000e+00,2.000000e+00)> : tensor<complex<f32>>}> : () -> tensor<complex<f32>>
    %12:2 = "stablehlo.optimization_barrier"(%arg2, %arg1) : (tensor<2xf32>, tensor<i1>) -> (tensor<2xf32>, tensor<i1>)
    %13 = "stablehlo.compare"(%arg2, %arg2) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
    %14 = "stablehlo.exponential"(%arg2) <{result_accuracy = #stablehlo.result_accuracy<atol = 1.000000e-05, ulps = 1, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>}> {note = "kept"} : (tensor<2xf32>) -> tensor<2xf32>
    %15 = "stablehlo.broadcast"(%arg2) <{broadcast_sizes = array<i64: 3>}> : (tensor<2xf32>) -> tensor<3x2xf32>
    %16 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %17 = "stablehlo.reduce"(%arg4, %16) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %21 = "stablehlo.add"(%arg6, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%21) : (tensor<f32>) -> ()
    }) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %18 = "stablehlo.partition_id"() : () -> tensor<ui32>
    %19 = "stablehlo.convolution"(%arg4, %arg4) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f]x[o, i]->[b, f]>, feature_group_count = 1 : i64}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
    "stablehlo.while"() ({
      %20 = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
      "stablehlo.return"(%20) : (tensor<i1>) -> ()
    }, {
      "stablehlo.return"() : () -> ()
    }) : () -> ()
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2xf32>) -> tensor<2xf32>, sym_name = "g", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<2xf32>):
    "func.return"(%arg0) : (tensor<2xf32>) -> ()
  }) : () -> ()
}) : () -> ()
