//! The `xla-indexing-simplify` pass run through a pass manager from Rust.

use expect_test::expect;
use melior::{
    Context,
    dialect::DialectRegistry,
    ir::{Module, operation::OperationLike},
    pass::PassManager,
    utility::register_all_dialects,
};
use xla_indexing_mlir::dialect;
use xla_indexing_passes::create_simplify_pass;

fn context() -> Context {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    dialect::register(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    context
}

fn simplify(source: &str) -> String {
    let context = context();
    let mut module = Module::parse(&context, source).expect("module parses");
    let pass_manager = PassManager::new(&context);
    pass_manager.add_pass(create_simplify_pass());
    pass_manager.run(&mut module).expect("the pass succeeds");
    assert!(module.as_operation().verify());
    module.as_operation().to_string()
}

#[test]
fn maps_are_simplified_within_their_domain() {
    let out = simplify(
        r#"func.func @f(%a: index, %b: index) -> (index, index) {
  %0:2 = xla_indexing.apply_indexing #xla_indexing.map<"(d0, d1) -> ((d0 * 4 + d1) floordiv 4, (d0 * 4 + d1) mod 4 + d0 * 2), domain: d0 in [0, 9], d1 in [0, 3]">(%a, %b) : index, index
  return %0#0, %0#1 : index, index
}"#,
    );
    // The first result is the operand d0; the op keeps the second, within its domain.
    expect![[r#"
        module {
          func.func @f(%arg0: index, %arg1: index) -> (index, index) {
            %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0, d1) -> (d0 * 2 + d1), domain: d0 in [0, 9], d1 in [0, 3]">(%arg0, %arg1) : index
            return %arg0, %0 : index, index
          }
        }
    "#]].assert_eq(&out);
}

#[test]
fn results_that_are_operands_replace_the_op() {
    let out = simplify(
        r#"func.func @f(%a: index, %b: index) -> (index, index) {
  %0:2 = xla_indexing.apply_indexing #xla_indexing.map<"(d0, d1) -> (d0 + d1 floordiv 16, d1 mod 16), domain: d0 in [0, 6], d1 in [0, 14]">(%a, %b) : index, index
  %1 = affine.apply affine_map<(d0) -> ((d0 floordiv 4) * 4 + d0 mod 4)>(%a)
  return %0#1, %1 : index, index
}"#,
    );
    expect![[r#"
        module {
          func.func @f(%arg0: index, %arg1: index) -> (index, index) {
            return %arg1, %arg0 : index, index
          }
        }
    "#]]
    .assert_eq(&out);
}

#[test]
fn maps_that_cannot_be_simplified_stay() {
    let source = r#"func.func @f(%a: index) -> (index, index) {
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 mod 4), domain: d0 in [0, 9]">(%a) : index
  %1 = affine.apply affine_map<(d0)[s0] -> (d0 * s0)>(%a)[%a]
  return %0, %1 : index, index
}"#;
    let out = simplify(source);
    expect![[r##"
        #map = affine_map<(d0)[s0] -> (d0 * s0)>
        module {
          func.func @f(%arg0: index) -> (index, index) {
            %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 mod 4), domain: d0 in [0, 9]">(%arg0) : index
            %1 = affine.apply #map(%arg0)[%arg0]
            return %0, %1 : index, index
          }
        }
    "##]].assert_eq(&out);
}

#[test]
fn passes_are_made_with_options_and_reject_unknown_ones() {
    use xla_indexing_passes::{PassError, create_pass};
    let context = context();
    let mut module = Module::parse(
        &context,
        r#"func.func @f(%a: index) -> index {
  %0 = xla_indexing.apply_indexing #xla_indexing.map<"(d0) -> (d0 floordiv 4), domain: d0 in [0, 63]">(%a) : index
  return %0 : index
}"#,
    )
    .expect("module parses");
    let pass_manager = PassManager::new(&context);
    pass_manager.add_pass(create_pass("xla-indexing-lower-apply", "prefer-affine=false").unwrap());
    pass_manager.run(&mut module).expect("the pass succeeds");
    let out = module.as_operation().to_string();
    expect![[r#"
        module {
          func.func @f(%arg0: index) -> index {
            %c4_i32 = arith.constant 4 : i32
            %0 = arith.index_castui %arg0 : index to i32
            %1 = arith.divui %0, %c4_i32 : i32
            %2 = arith.index_castui %1 : i32 to index
            return %2 : index
          }
        }
    "#]]
    .assert_eq(&out);

    let bad = create_pass("xla-indexing-lower-apply", "bogus=1").err();
    assert!(matches!(bad, Some(PassError::Options { .. })), "{bad:?}");
    let unknown = create_pass("no-such-pass", "").err();
    assert_eq!(unknown, Some(PassError::Unknown("no-such-pass".into())));
}

#[test]
fn annotate_attaches_the_hlo_maps() {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    dialect::register(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    context.set_allow_unregistered_dialects(true);
    let mut module = Module::parse(
        &context,
        r#"func.func @f(%a: tensor<10x20xf32>) -> tensor<20x10xf32> {
  %0 = "stablehlo.transpose"(%a) <{permutation = array<i64: 1, 0>}> : (tensor<10x20xf32>) -> tensor<20x10xf32>
  return %0 : tensor<20x10xf32>
}"#,
    )
    .expect("module parses");
    let pass_manager = PassManager::new(&context);
    pass_manager.add_pass(xla_indexing_passes::create_annotate_pass(false));
    pass_manager.run(&mut module).expect("the pass succeeds");
    let out = module.as_operation().to_string();
    expect![[r#"
        module {
          func.func @f(%arg0: tensor<10x20xf32>) -> tensor<20x10xf32> {
            %0 = "stablehlo.transpose"(%arg0) <{permutation = array<i64: 1, 0>}> {xla_indexing.operand_maps = [[#xla_indexing.map<"(d0, d1) -> (d1, d0), domain: d0 in [0, 19], d1 in [0, 9]">]]} : (tensor<10x20xf32>) -> tensor<20x10xf32>
            return %0 : tensor<20x10xf32>
          }
        }
    "#]].assert_eq(&out);
}

#[test]
fn constants_of_i1_fold_as_mlir_reads_them() {
    // `true` is -1 read signed: `extsi` gives -1, `slt true, false` holds, `minsi` is `true`.
    let out = simplify(
        r#"func.func @f() -> (i64, i1, i64) {
  %t = arith.constant true
  %f = arith.constant false
  %e = arith.extsi %t : i1 to i64
  %c = arith.cmpi slt, %t, %f : i1
  %m = arith.minsi %t, %f : i1
  %x = arith.extsi %m : i1 to i64
  return %e, %c, %x : i64, i1, i64
}"#,
    );
    expect![[r#"
        module {
          func.func @f() -> (i64, i1, i64) {
            %true = arith.constant true
            %c-1_i64 = arith.constant -1 : i64
            return %c-1_i64, %true, %c-1_i64 : i64, i1, i64
          }
        }
    "#]]
    .assert_eq(&out);
}

#[test]
fn arith_on_i128_constants_is_read_exactly() {
    // The folder leaves types of more than 64 bits alone (it once crashed on them); the sum is
    // read as an expression, whose value fits.
    let out = simplify(
        r#"func.func @f() -> i128 {
  %a = arith.constant 5 : i128
  %b = arith.addi %a, %a : i128
  return %b : i128
}"#,
    );
    expect![[r#"
        module {
          func.func @f() -> i128 {
            %c10_i128 = arith.constant 10 : i128
            return %c10_i128 : i128
          }
        }
    "#]]
    .assert_eq(&out);
}
