"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{function_type = (tensor<3x4xf32>) -> tensor<3x4xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg25: tensor<3x4xf32>):
    %112 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %113 = "stablehlo.constant"() <{value = dense<32> : tensor<i32>}> : () -> tensor<i32>
    %114 = "stablehlo.shift_right_logical"(%112, %113) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %115 = "stablehlo.convert"(%114) : (tensor<i32>) -> tensor<ui32>
    %116 = "stablehlo.broadcast_in_dim"(%115) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<1xui32>
    %117 = "stablehlo.constant"() <{value = dense<-1> : tensor<i32>}> : () -> tensor<i32>
    %118 = "stablehlo.and"(%112, %117) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %119 = "stablehlo.convert"(%118) : (tensor<i32>) -> tensor<ui32>
    %120 = "stablehlo.broadcast_in_dim"(%119) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<1xui32>
    %121 = "stablehlo.concatenate"(%116, %120) <{dimension = 0 : i64}> : (tensor<1xui32>, tensor<1xui32>) -> tensor<2xui32>
    %122 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %123 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %124 = "func.call"(%121, %122, %123) <{callee = @_uniform}> : (tensor<2xui32>, tensor<f32>, tensor<f32>) -> tensor<3x4xf32>
    %125 = "stablehlo.add"(%124, %arg25) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
    "func.return"(%125) : (tensor<3x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2xui32>, tensor<f32>, tensor<f32>) -> tensor<3x4xf32>, sym_name = "_uniform", sym_visibility = "private"}> ({
  ^bb0(%arg22: tensor<2xui32>, %arg23: tensor<f32>, %arg24: tensor<f32>):
    %71 = "stablehlo.convert"(%arg23) : (tensor<f32>) -> tensor<f32>
    %72 = "stablehlo.convert"(%arg24) : (tensor<f32>) -> tensor<f32>
    %73 = "stablehlo.broadcast_in_dim"(%71) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x1xf32>
    %74 = "stablehlo.broadcast_in_dim"(%72) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x1xf32>
    %75 = "stablehlo.slice"(%arg22) <{limit_indices = array<i64: 1>, start_indices = array<i64: 0>, strides = array<i64: 1>}> : (tensor<2xui32>) -> tensor<1xui32>
    %76 = "stablehlo.reshape"(%75) : (tensor<1xui32>) -> tensor<ui32>
    %77 = "stablehlo.slice"(%arg22) <{limit_indices = array<i64: 2>, start_indices = array<i64: 1>, strides = array<i64: 1>}> : (tensor<2xui32>) -> tensor<1xui32>
    %78 = "stablehlo.reshape"(%77) : (tensor<1xui32>) -> tensor<ui32>
    %79 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<3x4xui64>
    %80 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<3x4xui64>
    %81 = "stablehlo.constant"() <{value = dense<4> : tensor<ui64>}> : () -> tensor<ui64>
    %82 = "stablehlo.broadcast_in_dim"(%81) <{broadcast_dimensions = array<i64>}> : (tensor<ui64>) -> tensor<3x4xui64>
    %83 = "stablehlo.multiply"(%82, %79) : (tensor<3x4xui64>, tensor<3x4xui64>) -> tensor<3x4xui64>
    %84 = "stablehlo.constant"() <{value = dense<1> : tensor<ui64>}> : () -> tensor<ui64>
    %85 = "stablehlo.broadcast_in_dim"(%84) <{broadcast_dimensions = array<i64>}> : (tensor<ui64>) -> tensor<3x4xui64>
    %86 = "stablehlo.multiply"(%85, %80) : (tensor<3x4xui64>, tensor<3x4xui64>) -> tensor<3x4xui64>
    %87 = "stablehlo.add"(%83, %86) : (tensor<3x4xui64>, tensor<3x4xui64>) -> tensor<3x4xui64>
    %88 = "stablehlo.constant"() <{value = dense<32> : tensor<ui64>}> : () -> tensor<ui64>
    %89 = "stablehlo.broadcast_in_dim"(%88) <{broadcast_dimensions = array<i64>}> : (tensor<ui64>) -> tensor<3x4xui64>
    %90 = "stablehlo.shift_right_logical"(%87, %89) : (tensor<3x4xui64>, tensor<3x4xui64>) -> tensor<3x4xui64>
    %91 = "stablehlo.convert"(%87) : (tensor<3x4xui64>) -> tensor<3x4xui32>
    %92 = "stablehlo.convert"(%90) : (tensor<3x4xui64>) -> tensor<3x4xui32>
    %93:2 = "func.call"(%76, %78, %92, %91) <{callee = @threefry2x32}> : (tensor<ui32>, tensor<ui32>, tensor<3x4xui32>, tensor<3x4xui32>) -> (tensor<3x4xui32>, tensor<3x4xui32>)
    %94 = "stablehlo.xor"(%93#0, %93#1) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
    %95 = "stablehlo.constant"() <{value = dense<9> : tensor<ui32>}> : () -> tensor<ui32>
    %96 = "stablehlo.broadcast_in_dim"(%95) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<3x4xui32>
    %97 = "stablehlo.shift_right_logical"(%94, %96) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
    %98 = "stablehlo.constant"() <{value = dense<1065353216> : tensor<ui32>}> : () -> tensor<ui32>
    %99 = "stablehlo.broadcast_in_dim"(%98) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<3x4xui32>
    %100 = "stablehlo.or"(%97, %99) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
    %101 = "stablehlo.bitcast_convert"(%100) : (tensor<3x4xui32>) -> tensor<3x4xf32>
    %102 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %103 = "stablehlo.broadcast_in_dim"(%102) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x4xf32>
    %104 = "stablehlo.subtract"(%101, %103) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
    %105 = "stablehlo.subtract"(%74, %73) : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
    %106 = "stablehlo.broadcast_in_dim"(%105) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xf32>) -> tensor<3x4xf32>
    %107 = "stablehlo.multiply"(%104, %106) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
    %108 = "stablehlo.broadcast_in_dim"(%73) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xf32>) -> tensor<3x4xf32>
    %109 = "stablehlo.add"(%107, %108) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
    %110 = "stablehlo.broadcast_in_dim"(%73) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xf32>) -> tensor<3x4xf32>
    %111 = "stablehlo.maximum"(%110, %109) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
    "func.return"(%111) : (tensor<3x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<ui32>, tensor<ui32>, tensor<3x4xui32>, tensor<3x4xui32>) -> (tensor<3x4xui32>, tensor<3x4xui32>), sym_name = "threefry2x32", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<ui32>, %arg1: tensor<ui32>, %arg2: tensor<3x4xui32>, %arg3: tensor<3x4xui32>):
    %0 = "stablehlo.constant"() <{value = dense<[13, 15, 26, 6]> : tensor<4xui32>}> : () -> tensor<4xui32>
    %1 = "stablehlo.constant"() <{value = dense<[17, 29, 16, 24]> : tensor<4xui32>}> : () -> tensor<4xui32>
    %2 = "stablehlo.xor"(%arg0, %arg1) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %3 = "stablehlo.constant"() <{value = dense<466688986> : tensor<ui32>}> : () -> tensor<ui32>
    %4 = "stablehlo.xor"(%2, %3) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %5 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<3x4xui32>
    %6 = "stablehlo.add"(%arg2, %5) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
    %7 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<3x4xui32>
    %8 = "stablehlo.add"(%arg3, %7) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
    %9 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %10 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %11:9 = "stablehlo.while"(%10, %9, %6, %8, %arg1, %4, %arg0, %0, %1) ({
    ^bb0(%arg13: tensor<i32>, %arg14: tensor<i32>, %arg15: tensor<3x4xui32>, %arg16: tensor<3x4xui32>, %arg17: tensor<ui32>, %arg18: tensor<ui32>, %arg19: tensor<ui32>, %arg20: tensor<4xui32>, %arg21: tensor<4xui32>):
      %69 = "stablehlo.constant"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
      %70 = "stablehlo.compare"(%arg13, %69) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%70) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg4: tensor<i32>, %arg5: tensor<i32>, %arg6: tensor<3x4xui32>, %arg7: tensor<3x4xui32>, %arg8: tensor<ui32>, %arg9: tensor<ui32>, %arg10: tensor<ui32>, %arg11: tensor<4xui32>, %arg12: tensor<4xui32>):
      %12 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %13 = "stablehlo.add"(%arg5, %12) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %14 = "stablehlo.slice"(%arg11) <{limit_indices = array<i64: 1>, start_indices = array<i64: 0>, strides = array<i64: 1>}> : (tensor<4xui32>) -> tensor<1xui32>
      %15 = "stablehlo.reshape"(%14) : (tensor<1xui32>) -> tensor<ui32>
      %16 = "stablehlo.slice"(%arg11) <{limit_indices = array<i64: 2>, start_indices = array<i64: 1>, strides = array<i64: 1>}> : (tensor<4xui32>) -> tensor<1xui32>
      %17 = "stablehlo.reshape"(%16) : (tensor<1xui32>) -> tensor<ui32>
      %18 = "stablehlo.slice"(%arg11) <{limit_indices = array<i64: 3>, start_indices = array<i64: 2>, strides = array<i64: 1>}> : (tensor<4xui32>) -> tensor<1xui32>
      %19 = "stablehlo.reshape"(%18) : (tensor<1xui32>) -> tensor<ui32>
      %20 = "stablehlo.slice"(%arg11) <{limit_indices = array<i64: 4>, start_indices = array<i64: 3>, strides = array<i64: 1>}> : (tensor<4xui32>) -> tensor<1xui32>
      %21 = "stablehlo.reshape"(%20) : (tensor<1xui32>) -> tensor<ui32>
      %22 = "stablehlo.add"(%arg6, %arg7) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %23 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<3x4xui32>
      %24 = "stablehlo.shift_left"(%arg7, %23) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %25 = "stablehlo.constant"() <{value = dense<32> : tensor<ui32>}> : () -> tensor<ui32>
      %26 = "stablehlo.subtract"(%25, %15) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %27 = "stablehlo.broadcast_in_dim"(%26) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<3x4xui32>
      %28 = "stablehlo.shift_right_logical"(%arg7, %27) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %29 = "stablehlo.or"(%24, %28) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %30 = "stablehlo.xor"(%22, %29) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %31 = "stablehlo.add"(%22, %30) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %32 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<3x4xui32>
      %33 = "stablehlo.shift_left"(%30, %32) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %34 = "stablehlo.constant"() <{value = dense<32> : tensor<ui32>}> : () -> tensor<ui32>
      %35 = "stablehlo.subtract"(%34, %17) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<3x4xui32>
      %37 = "stablehlo.shift_right_logical"(%30, %36) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %38 = "stablehlo.or"(%33, %37) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %39 = "stablehlo.xor"(%31, %38) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %40 = "stablehlo.add"(%31, %39) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %41 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<3x4xui32>
      %42 = "stablehlo.shift_left"(%39, %41) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %43 = "stablehlo.constant"() <{value = dense<32> : tensor<ui32>}> : () -> tensor<ui32>
      %44 = "stablehlo.subtract"(%43, %19) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %45 = "stablehlo.broadcast_in_dim"(%44) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<3x4xui32>
      %46 = "stablehlo.shift_right_logical"(%39, %45) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %47 = "stablehlo.or"(%42, %46) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %48 = "stablehlo.xor"(%40, %47) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %49 = "stablehlo.add"(%40, %48) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %50 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<3x4xui32>
      %51 = "stablehlo.shift_left"(%48, %50) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %52 = "stablehlo.constant"() <{value = dense<32> : tensor<ui32>}> : () -> tensor<ui32>
      %53 = "stablehlo.subtract"(%52, %21) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %54 = "stablehlo.broadcast_in_dim"(%53) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<3x4xui32>
      %55 = "stablehlo.shift_right_logical"(%48, %54) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %56 = "stablehlo.or"(%51, %55) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %57 = "stablehlo.xor"(%49, %56) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %58 = "stablehlo.broadcast_in_dim"(%arg8) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<3x4xui32>
      %59 = "stablehlo.add"(%49, %58) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %60 = "stablehlo.broadcast_in_dim"(%arg9) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<3x4xui32>
      %61 = "stablehlo.add"(%57, %60) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %62 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %63 = "stablehlo.add"(%arg5, %62) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %64 = "stablehlo.convert"(%63) : (tensor<i32>) -> tensor<ui32>
      %65 = "stablehlo.broadcast_in_dim"(%64) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<3x4xui32>
      %66 = "stablehlo.add"(%61, %65) : (tensor<3x4xui32>, tensor<3x4xui32>) -> tensor<3x4xui32>
      %67 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %68 = "stablehlo.add"(%arg4, %67) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%68, %13, %59, %66, %arg9, %arg10, %arg8, %arg12, %arg11) : (tensor<i32>, tensor<i32>, tensor<3x4xui32>, tensor<3x4xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> ()
    }) : (tensor<i32>, tensor<i32>, tensor<3x4xui32>, tensor<3x4xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<i32>, tensor<i32>, tensor<3x4xui32>, tensor<3x4xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>)
    "func.return"(%11#2, %11#3) : (tensor<3x4xui32>, tensor<3x4xui32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
