"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>, tensor<f32>, tensor<4x4xf32>, tensor<f32>, tensor<4x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}, {jax.result_info = "result[8]"}, {jax.result_info = "result[9]"}, {jax.result_info = "result[10]"}, {jax.result_info = "result[11]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg17: tensor<4x4xf32>):
    %79 = "func.call"(%arg17) <{callee = @triu}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %80 = "func.call"(%arg17) <{callee = @diagonal}> : (tensor<4x4xf32>) -> tensor<4xf32>
    %81 = "func.call"(%arg17) <{callee = @trace}> : (tensor<4x4xf32>) -> tensor<f32>
    %82 = "func.call"(%arg17) <{callee = @fft}> : (tensor<4x4xf32>) -> tensor<4x4xcomplex<f32>>
    %83 = "stablehlo.real"(%82) : (tensor<4x4xcomplex<f32>>) -> tensor<4x4xf32>
    %84 = "func.call"(%arg17) <{callee = @norm}> : (tensor<4x4xf32>) -> tensor<f32>
    %85 = "func.call"(%arg17) <{callee = @nan_to_num}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %86 = "stablehlo.reshape"(%arg17) : (tensor<4x4xf32>) -> tensor<1x4x1x4xf32>
    %87 = "stablehlo.broadcast_in_dim"(%86) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x4x1x4xf32>) -> tensor<2x4x1x4xf32>
    %88 = "stablehlo.reshape"(%87) : (tensor<2x4x1x4xf32>) -> tensor<8x4xf32>
    %89 = "stablehlo.broadcast_in_dim"(%arg17) <{broadcast_dimensions = array<i64: 0, 2>}> : (tensor<4x4xf32>) -> tensor<4x2x4xf32>
    %90 = "stablehlo.reshape"(%89) : (tensor<4x2x4xf32>) -> tensor<8x4xf32>
    %91 = "func.call"(%arg17) <{callee = @_roll_static}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %92 = "stablehlo.reduce_precision"(%arg17) <{exponent_bits = 5 : i32, mantissa_bits = 10 : i32}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %93 = "stablehlo.optimization_barrier"(%arg17) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %94 = "stablehlo.convert"(%arg17) : (tensor<4x4xf32>) -> tensor<4x4xcomplex<f32>>
    %95 = "stablehlo.constant"() <{value = dense<(0.000000e+00,1.000000e+00)> : tensor<complex<f32>>}> : () -> tensor<complex<f32>>
    %96 = "stablehlo.broadcast_in_dim"(%95) <{broadcast_dimensions = array<i64>}> : (tensor<complex<f32>>) -> tensor<4x4xcomplex<f32>>
    %97 = "stablehlo.add"(%94, %96) : (tensor<4x4xcomplex<f32>>, tensor<4x4xcomplex<f32>>) -> tensor<4x4xcomplex<f32>>
    %98 = "stablehlo.real"(%97) : (tensor<4x4xcomplex<f32>>) -> tensor<4x4xf32>
    %99 = "stablehlo.imag"(%97) : (tensor<4x4xcomplex<f32>>) -> tensor<4x4xf32>
    %100 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %101 = "stablehlo.broadcast_in_dim"(%100) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %102 = "stablehlo.compare"(%98, %101) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %103 = "stablehlo.sine"(%98) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %104 = "stablehlo.cosine"(%98) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %105 = "stablehlo.exponential_minus_one"(%99) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %106 = "stablehlo.negate"(%99) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %107 = "stablehlo.exponential_minus_one"(%106) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %108 = "stablehlo.subtract"(%105, %107) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %109 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %110 = "stablehlo.broadcast_in_dim"(%109) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %111 = "stablehlo.divide"(%108, %110) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %112 = "stablehlo.add"(%105, %107) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %113 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %114 = "stablehlo.broadcast_in_dim"(%113) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %115 = "stablehlo.add"(%112, %114) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %116 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %117 = "stablehlo.broadcast_in_dim"(%116) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %118 = "stablehlo.divide"(%115, %117) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %119 = "stablehlo.multiply"(%104, %118) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %120 = "stablehlo.negate"(%103) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %121 = "stablehlo.multiply"(%120, %111) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %122 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %123 = "stablehlo.broadcast_in_dim"(%122) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %124 = "stablehlo.complex"(%119, %123) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xcomplex<f32>>
    %125 = "stablehlo.complex"(%119, %121) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xcomplex<f32>>
    %126 = "stablehlo.select"(%102, %124, %125) : (tensor<4x4xi1>, tensor<4x4xcomplex<f32>>, tensor<4x4xcomplex<f32>>) -> tensor<4x4xcomplex<f32>>
    %127 = "stablehlo.imag"(%126) : (tensor<4x4xcomplex<f32>>) -> tensor<4x4xf32>
    "func.return"(%79, %80, %81, %83, %84, %85, %88, %90, %91, %92, %93, %127) : (tensor<4x4xf32>, tensor<4xf32>, tensor<f32>, tensor<4x4xf32>, tensor<f32>, tensor<4x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x4xf32>) -> tensor<4x4xf32>, sym_name = "triu", sym_visibility = "private"}> ({
  ^bb0(%arg16: tensor<4x4xf32>):
    %70 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4x4xi32>
    %71 = "stablehlo.constant"() <{value = dense<-1> : tensor<i32>}> : () -> tensor<i32>
    %72 = "stablehlo.broadcast_in_dim"(%71) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4x4xi32>
    %73 = "stablehlo.add"(%70, %72) : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi32>
    %74 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x4xi32>
    %75 = "stablehlo.compare"(%73, %74) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %76 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %77 = "stablehlo.broadcast_in_dim"(%76) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %78 = "stablehlo.select"(%75, %77, %arg16) : (tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    "func.return"(%78) : (tensor<4x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x4xf32>) -> tensor<4xf32>, sym_name = "diagonal", sym_visibility = "private"}> ({
  ^bb0(%arg15: tensor<4x4xf32>):
    %38 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4x4xi32>
    %39 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x4xi32>
    %40 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %41 = "stablehlo.broadcast_in_dim"(%40) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4x4xi32>
    %42 = "stablehlo.add"(%38, %41) : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi32>
    %43 = "stablehlo.compare"(%42, %39) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %44 = "stablehlo.convert"(%43) : (tensor<4x4xi1>) -> tensor<4x4xf32>
    %45 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %46 = "stablehlo.case"(%45) ({
      %69 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
      "stablehlo.return"(%69) : (tensor<i32>) -> ()
    }, {
      %68 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
      "stablehlo.return"(%68) : (tensor<i32>) -> ()
    }) : (tensor<i32>) -> tensor<i32>
    %47 = "stablehlo.case"(%46) ({
      %48 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4xi32>
      %49 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4xi32>
      %50 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
      %51 = "stablehlo.broadcast_in_dim"(%50) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4xi32>
      %52 = "stablehlo.compare"(%48, %51) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
      %53 = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
      %54 = "stablehlo.broadcast_in_dim"(%53) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4xi32>
      %55 = "stablehlo.add"(%48, %54) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
      %56 = "stablehlo.select"(%52, %55, %48) : (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
      %57 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
      %58 = "stablehlo.broadcast_in_dim"(%57) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4xi32>
      %59 = "stablehlo.compare"(%49, %58) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
      %60 = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
      %61 = "stablehlo.broadcast_in_dim"(%60) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4xi32>
      %62 = "stablehlo.add"(%49, %61) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
      %63 = "stablehlo.select"(%59, %62, %49) : (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
      %64 = "stablehlo.broadcast_in_dim"(%56) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xi32>) -> tensor<4x1xi32>
      %65 = "stablehlo.broadcast_in_dim"(%63) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xi32>) -> tensor<4x1xi32>
      %66 = "stablehlo.concatenate"(%64, %65) <{dimension = 1 : i64}> : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
      %67 = "stablehlo.gather"(%arg15, %66) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x4xf32>, tensor<4x2xi32>) -> tensor<4xf32>
      "stablehlo.return"(%67) : (tensor<4xf32>) -> ()
    }) : (tensor<i32>) -> tensor<4xf32>
    "func.return"(%47) : (tensor<4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x4xf32>) -> tensor<f32>, sym_name = "trace", sym_visibility = "private"}> ({
  ^bb0(%arg12: tensor<4x4xf32>):
    %26 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4x4xi32>
    %27 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x4xi32>
    %28 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %29 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4x4xi32>
    %30 = "stablehlo.add"(%26, %29) : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi32>
    %31 = "stablehlo.compare"(%30, %27) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %32 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %34 = "func.call"(%31, %arg12, %33) <{callee = @_where}> : (tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %35 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %36 = "stablehlo.reduce"(%34, %35) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg13: tensor<f32>, %arg14: tensor<f32>):
      %37 = "stablehlo.add"(%arg13, %arg14) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%37) : (tensor<f32>) -> ()
    }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
    "func.return"(%36) : (tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>, sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg9: tensor<4x4xi1>, %arg10: tensor<4x4xf32>, %arg11: tensor<4x4xf32>):
    %25 = "stablehlo.select"(%arg9, %arg10, %arg11) : (tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    "func.return"(%25) : (tensor<4x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x4xf32>) -> tensor<4x4xcomplex<f32>>, sym_name = "fft", sym_visibility = "private"}> ({
  ^bb0(%arg8: tensor<4x4xf32>):
    %23 = "stablehlo.convert"(%arg8) : (tensor<4x4xf32>) -> tensor<4x4xcomplex<f32>>
    %24 = "stablehlo.fft"(%23) <{fft_length = array<i64: 4>, fft_type = #stablehlo<fft_type FFT>}> : (tensor<4x4xcomplex<f32>>) -> tensor<4x4xcomplex<f32>>
    "func.return"(%24) : (tensor<4x4xcomplex<f32>>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x4xf32>) -> tensor<f32>, sym_name = "norm", sym_visibility = "private"}> ({
  ^bb0(%arg5: tensor<4x4xf32>):
    %18 = "stablehlo.multiply"(%arg5, %arg5) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %19 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.reduce"(%18, %19) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %22 = "stablehlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%22) : (tensor<f32>) -> ()
    }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
    %21 = "stablehlo.sqrt"(%20) : (tensor<f32>) -> tensor<f32>
    "func.return"(%21) : (tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x4xf32>) -> tensor<4x4xf32>, sym_name = "nan_to_num", sym_visibility = "private"}> ({
  ^bb0(%arg4: tensor<4x4xf32>):
    %5 = "stablehlo.compare"(%arg4, %arg4) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %6 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %7 = "func.call"(%5, %6, %arg4) <{callee = @_where_0}> : (tensor<4x4xi1>, tensor<f32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %8 = "stablehlo.constant"() <{value = dense<0x7F800000> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %10 = "stablehlo.compare"(%7, %9) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %11 = "stablehlo.constant"() <{value = dense<3.40282347E+38> : tensor<f32>}> : () -> tensor<f32>
    %12 = "func.call"(%10, %11, %7) <{callee = @_where_0}> : (tensor<4x4xi1>, tensor<f32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %13 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %15 = "stablehlo.compare"(%12, %14) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %16 = "stablehlo.constant"() <{value = dense<-3.40282347E+38> : tensor<f32>}> : () -> tensor<f32>
    %17 = "func.call"(%15, %16, %12) <{callee = @_where_0}> : (tensor<4x4xi1>, tensor<f32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    "func.return"(%17) : (tensor<4x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x4xi1>, tensor<f32>, tensor<4x4xf32>) -> tensor<4x4xf32>, sym_name = "_where_0", sym_visibility = "private"}> ({
  ^bb0(%arg1: tensor<4x4xi1>, %arg2: tensor<f32>, %arg3: tensor<4x4xf32>):
    %3 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %4 = "stablehlo.select"(%arg1, %3, %arg3) : (tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    "func.return"(%4) : (tensor<4x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x4xf32>) -> tensor<4x4xf32>, sym_name = "_roll_static", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x4xf32>):
    %0 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 4>, start_indices = array<i64: 0, 2>, strides = array<i64: 1, 1>}> : (tensor<4x4xf32>) -> tensor<4x2xf32>
    %1 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 2>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<4x4xf32>) -> tensor<4x2xf32>
    %2 = "stablehlo.concatenate"(%0, %1) <{dimension = 1 : i64}> : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x4xf32>
    "func.return"(%2) : (tensor<4x4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
