//! MLIR text under construction: one region's lines with their indentation, fresh SSA names,
//! and scalar values with their types.

use std::fmt::Write as _;

/// A scalar SSA value and its MLIR type (`%v3`, `f32`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scalar {
    pub name: String,
    pub ty: String,
}

impl Scalar {
    pub fn new(name: impl Into<String>, ty: impl Into<String>) -> Scalar {
        Scalar {
            name: name.into(),
            ty: ty.into(),
        }
    }
}

/// The text of a function body being written.
#[derive(Debug, Default)]
pub struct Body {
    text: String,
    depth: usize,
    /// The depth of the first line.
    base: usize,
    next: usize,
}

/// The depth past which lines are not indented further, so that the text of deeply nested
/// regions stays linear in its size.
const MAX_INDENT: usize = 32;

impl Body {
    /// A body whose first line is indented by `depth` levels.
    pub fn at_depth(depth: usize) -> Body {
        Body {
            depth,
            base: depth,
            ..Body::default()
        }
    }

    /// How many regions the current line is nested in.
    pub fn regions(&self) -> usize {
        self.depth.saturating_sub(self.base)
    }

    /// A fresh SSA name starting with `hint` (`%hint12`).
    pub fn fresh(&mut self, hint: &str) -> String {
        self.next += 1;
        format!("%{hint}{}", self.next)
    }

    /// Appends one line at the current depth (at most [`MAX_INDENT`]).
    pub fn line(&mut self, line: impl AsRef<str>) {
        let w = 2 * self.depth.min(MAX_INDENT);
        let _ = writeln!(self.text, "{:w$}{}", "", line.as_ref());
    }

    /// Appends a line that opens a region (`... {`) and indents what follows.
    pub fn open(&mut self, line: impl AsRef<str>) {
        self.line(line);
        self.depth += 1;
    }

    /// Closes the innermost region with `line` (`}` or `} else {`); `reopen` keeps the depth for
    /// a following region.
    pub fn close(&mut self, line: &str, reopen: bool) {
        self.depth = self.depth.saturating_sub(1);
        self.line(line);
        if reopen {
            self.depth += 1;
        }
    }

    /// `%name = <op>` for an op with one result of type `ty`.
    pub fn op(&mut self, hint: &str, ty: &str, op: impl AsRef<str>) -> Scalar {
        let name = self.fresh(hint);
        self.line(format!("{name} = {}", op.as_ref()));
        Scalar::new(name, ty)
    }

    /// An `arith.constant` of type `ty` written as `literal`; of a complex type, a
    /// `complex.constant` (`literal` is then `[re : f32, im : f32]`).
    pub fn constant(&mut self, literal: &str, ty: &str) -> Scalar {
        if ty.starts_with("complex<") {
            return self.op("c", ty, format!("complex.constant {literal} : {ty}"));
        }
        // `true` and `false` carry their type: MLIR rejects `arith.constant true : i1`.
        if matches!(literal, "true" | "false") {
            return self.op("c", ty, format!("arith.constant {literal}"));
        }
        self.op("c", ty, format!("arith.constant {literal} : {ty}"))
    }

    /// An `index` constant.
    pub fn index(&mut self, value: i64) -> Scalar {
        self.constant(&value.to_string(), "index")
    }

    /// `lo <= value <= hi` for an `index` value, as an `i1`.
    pub fn within(&mut self, value: &str, (lo, hi): (i64, i64)) -> String {
        let lo = self.index(lo).name;
        let hi = self.index(hi).name;
        let above = self
            .op(
                "above",
                "i1",
                format!("arith.cmpi sge, {value}, {lo} : index"),
            )
            .name;
        let below = self
            .op(
                "below",
                "i1",
                format!("arith.cmpi sle, {value}, {hi} : index"),
            )
            .name;
        self.op("fits", "i1", format!("arith.andi {above}, {below} : i1"))
            .name
    }

    /// The conjunction of the `i1` values `conditions` (`None` when there are none).
    pub fn all(&mut self, conditions: Vec<String>) -> Option<String> {
        conditions.into_iter().reduce(|a, b| {
            self.op("fits", "i1", format!("arith.andi {a}, {b} : i1"))
                .name
        })
    }

    pub fn into_text(self) -> String {
        self.text
    }
}
