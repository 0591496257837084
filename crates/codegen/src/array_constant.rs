//! Array constants of a fused computation (an index table, a lookup of a few values): the
//! elements their literal writes, and where they are read. A thread reads one element as a lane
//! of a vector constant (`arith.constant dense<...>`, `vector.extract` at the element's
//! row-major position), which NVPTX and the CPU check both lower; past [`MAX_ELEMENTS`], as XLA
//! reads larger constants from a global buffer, as a load from a `memref.global` constant of
//! the `gpu.module`.

use xla_indexing_core::Expr;

use super::error::CodegenError;

/// The most elements of an array constant that is lowered as one vector constant.
pub(crate) const MAX_ELEMENTS: usize = 256;

/// The elements of the literal `text` (`{{1}, {3}, {5}}`) of an array of `dims`, as written,
/// in row-major order; an error when they are not the dims' product (an elided literal, `{...}`,
/// among them).
pub(crate) fn elements<'t>(text: &'t str, dims: &[i64]) -> Result<Vec<&'t str>, CodegenError> {
    let count: i64 = dims.iter().product();
    let written = split_elements(text);
    if written.len() as i64 != count {
        return Err(CodegenError::ConstantCount {
            text: text.to_string(),
            written: written.len(),
            count,
        });
    }
    if written.is_empty() {
        return Err(CodegenError::EmptyConstant);
    }
    Ok(written)
}

/// The elements of an array literal as HLO writes it (`{{1, 2}, {3, 4}}`, `{(1, 0), (0, 1)}`),
/// in row-major order: the text between the braces split at the commas and spaces outside
/// parentheses.
fn split_elements(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0, None);
    for (k, ch) in text.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        let separator =
            matches!(ch, '{' | '}') || (depth == 0 && (ch == ',' || ch.is_whitespace()));
        if separator {
            if let Some(s) = start.take() {
                out.push(&text[s..k]);
            }
        } else if start.is_none() {
            start = Some(k);
        }
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

/// The real and imaginary parts of a complex element written `(re, im)`.
pub(crate) fn complex_parts(element: &str) -> Option<(&str, &str)> {
    let (re, im) = element
        .strip_prefix('(')?
        .strip_suffix(')')?
        .split_once(',')?;
    Some((re.trim(), im.trim()))
}

/// The row-major position of the index `results` in an array of `dims`.
pub(crate) fn row_major_position(results: &[Expr], dims: &[i64]) -> Result<Expr, CodegenError> {
    let mut position = Expr::constant(0);
    let mut stride = 1i64;
    for (r, &d) in results.iter().zip(dims).rev() {
        position = position
            .checked_add_scaled(r, stride)
            .map_err(CodegenError::ConstantPosition)?;
        stride = stride.saturating_mul(d);
    }
    Ok(position)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_are_read_in_row_major_order() {
        assert_eq!(
            elements("{{1}, {3}, {5}}", &[3, 1]).unwrap(),
            ["1", "3", "5"]
        );
        assert_eq!(
            elements("{ {1.5, -inf},\n {nan, 2} }", &[2, 2]).unwrap(),
            ["1.5", "-inf", "nan", "2"]
        );
        let complex = elements("{(1, 0), (0.5, -2)}", &[2]).unwrap();
        assert_eq!(complex, ["(1, 0)", "(0.5, -2)"]);
        assert_eq!(complex_parts(complex[1]), Some(("0.5", "-2")));
    }

    #[test]
    fn a_wrong_count_or_an_elided_literal_is_an_error() {
        assert!(
            elements("{1, 2}", &[3])
                .unwrap_err()
                .to_string()
                .contains("writes 2 elements")
        );
        assert_eq!(elements("{}", &[0]), Err(CodegenError::EmptyConstant));
        // XLA's printer elides large literals: no values to read.
        assert_eq!(
            elements("{...}", &[16, 17]).unwrap_err().to_string(),
            "constant `{...}` writes 1 elements where its shape holds 272"
        );
        // Large constants are read like small ones (from a global constant).
        let big = format!("{{{}}}", vec!["1"; 272].join(", "));
        assert_eq!(elements(&big, &[16, 17]).unwrap().len(), 272);
    }

    #[test]
    fn positions_are_row_major() {
        let results = [Expr::dim(0), Expr::dim(1)];
        let p = row_major_position(&results, &[3, 4]).unwrap();
        assert_eq!(p, Expr::dim(0) * 4 + Expr::dim(1));
    }
}
