//! What a `SyntaxError` says, and where: the line and column of the offending token.

use xla_indexing_stablehlo_text::{MAX_REGION_DEPTH, SyntaxError, to_generic};

fn error(text: &str) -> SyntaxError {
    to_generic(text).expect_err("this text must be refused")
}

#[test]
fn a_missing_operand_is_located() {
    let text = "func.func @f(%a: tensor<f32>) -> tensor<f32> {\n  %0 = stablehlo.add %a, : tensor<f32>\n  return %0 : tensor<f32>\n}\n";
    let e = error(text);
    assert_eq!((e.line, e.column), (2, 26), "{e}");
    assert_eq!(
        e.to_string(),
        "2:26: expected an operand or a keyword in stablehlo.add, found ':'"
    );
    let e = error("%0 = stablehlo.negate : tensor<f32>\n");
    assert_eq!(
        e.to_string(),
        "1:6: stablehlo.negate takes 1 operand, found 0"
    );
}

#[test]
fn a_type_list_that_does_not_fit_is_refused() {
    let e = error("%0 = stablehlo.select %p, %a, %b : tensor<f32>\n");
    assert_eq!((e.line, e.column), (1, 36));
    assert_eq!(
        e.message,
        "stablehlo.select expects two types (predicate, value) or a function type after ':'"
    );
    let e = error("stablehlo.return %a, %b : tensor<f32>\n");
    assert_eq!(
        e.message,
        "stablehlo.return expects 2 types (one per operand) or a function type after ':'"
    );
}

#[test]
fn an_unsupported_op_names_itself() {
    let e = error("  %0 = stablehlo.all_gather %a, dim = 0 : (tensor<2xf32>) -> tensor<4xf32>\n");
    assert_eq!((e.line, e.column), (1, 8));
    assert!(
        e.message
            .starts_with("stablehlo.all_gather in pretty form is not supported"),
        "{e}"
    );
}

#[test]
fn an_unclosed_region_points_at_the_end() {
    let text =
        "%0 = stablehlo.while(%i = %a) : tensor<i32>\ncond {\n  stablehlo.return %c : tensor<i1>\n";
    let e = error(text);
    assert_eq!(e.line, 4, "{e}");
    assert!(e.message.starts_with("unclosed region"), "{e}");
}

#[test]
fn unknown_keywords_and_bad_formats_are_refused() {
    let e = error(
        "%0 = stablehlo.transpose %a, perm = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>\n",
    );
    assert_eq!(e.message, "unexpected 'perm' in stablehlo.transpose");
    assert_eq!(e.column, 30);
    let e = error("%0 = stablehlo.reduce_precision %a, format = f5m10 : tensor<4xf32>\n");
    assert_eq!(
        e.message,
        "expected a format eXmY in stablehlo.reduce_precision, found 'f5m10'"
    );
    let e = error("%0 = stablehlo.iota dim = 99999999999999999999 : tensor<4xi32>\n");
    assert_eq!(e.message, "integer out of range in stablehlo.iota");
}

#[test]
fn columns_count_characters() {
    // "é" is two bytes and one column.
    let e = error("%0 = stablehlo.custom_call @\"é\"(%a) : tensor<f32>\n");
    assert_eq!((e.line, e.column), (1, 39), "{e}");
    assert_eq!(
        e.message,
        "stablehlo.custom_call expects a function type (T, ...) -> R after ':'"
    );
}

#[test]
fn attribute_names_and_quoted_ops_are_not_pretty_ops() {
    for text in [
        "module attributes {stablehlo.mesh = 1 : i32} {\n}\n",
        "%0 = \"stablehlo.add\"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n",
        "%0 = \"foo.bar\"() {a = #stablehlo.gather<offset_dims = [0]>, b = \"stablehlo.add %x\"} : () -> ()\n",
        "// stablehlo.add in a comment\n",
    ] {
        assert_eq!(to_generic(text).unwrap(), text);
    }
}

/// `depth` while loops, each in the body of the one before.
fn nested_whiles(depth: usize) -> String {
    let open = "stablehlo.while(%i = %a) : tensor<i32>\ncond {\nstablehlo.return %p : tensor<i1>\n} do {\n";
    format!(
        "{}stablehlo.return %i : tensor<i32>\n{}",
        open.repeat(depth),
        "}\n".repeat(depth)
    )
}

/// Nesting is read on the test thread's stack up to the limit, and refused past it.
#[test]
fn deep_nesting_is_read_up_to_the_limit() {
    let text = to_generic(&nested_whiles(MAX_REGION_DEPTH)).unwrap();
    assert_eq!(
        text.matches("\"stablehlo.while\"").count(),
        MAX_REGION_DEPTH
    );
    let e = error(&nested_whiles(MAX_REGION_DEPTH + 1));
    assert_eq!(
        e.message,
        format!("regions of pretty operations nested more than {MAX_REGION_DEPTH} deep")
    );
}

/// A type that runs over lines is refused: the generic form repeats an elementwise op's type,
/// which would add lines.
#[test]
fn a_type_ends_on_its_line() {
    let e = error("%0 = stablehlo.negate %a : tensor<4x\nf32>\n");
    assert_eq!((e.line, e.column), (1, 28));
    assert_eq!(
        e.message,
        "a type that does not end on its line in stablehlo.negate"
    );
}
