//! Shapes: element type, dimension sizes and layout of an array, or a tuple of shapes.
//!
//! A tuple is addressed through its *leaves*, the arrays met in a depth-first walk; a leaf index
//! names one array of a (possibly nested) tuple, and an array shape has the single leaf 0.

use std::fmt;

use crate::layout::Layout;

/// The shape of one array: `f32[10,20]{1,0}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayShape {
    /// The element type as written: `f32`, `bf16`, `pred`, `s32`, `token`, ...
    pub element: String,
    /// Dimension sizes, major dimension numbering as written (dimension 0 first).
    pub dims: Vec<i64>,
    /// Per dimension, whether it is dynamic (`<=N` or `?`); `dims` then holds the bound.
    pub dynamic: Vec<bool>,
    /// The layout when one was written.
    pub layout: Option<Layout>,
}

/// An array or a tuple of shapes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// An array.
    Array(ArrayShape),
    /// A tuple of shapes (possibly nested, possibly empty).
    Tuple(Vec<Shape>),
}

impl ArrayShape {
    /// A dense array with the default layout left implicit.
    pub fn new(element: impl Into<String>, dims: Vec<i64>) -> ArrayShape {
        let dynamic = vec![false; dims.len()];
        ArrayShape {
            element: element.into(),
            dims,
            dynamic,
            layout: None,
        }
    }

    /// The number of dimensions.
    pub fn rank(&self) -> usize {
        self.dims.len()
    }

    /// Whether some dimension is dynamic.
    pub fn is_dynamic(&self) -> bool {
        self.dynamic.iter().any(|&d| d)
    }

    /// The number of elements, `None` when it does not fit in an `i64`.
    pub fn element_count(&self) -> Option<i64> {
        self.dims
            .iter()
            .try_fold(1i64, |acc, &d| acc.checked_mul(d))
    }

    /// The written layout, or the default (major-to-minor) one.
    pub fn layout_or_default(&self) -> Layout {
        self.layout
            .clone()
            .unwrap_or_else(|| Layout::default_for_rank(self.rank()))
    }

    /// Whether the layout is the default one: major to minor in dimension order, untiled.
    pub fn has_default_layout(&self) -> bool {
        let layout = self.layout_or_default();
        layout.tiles.is_empty()
            && layout
                .major_to_minor()
                .iter()
                .enumerate()
                .all(|(i, &d)| i == d)
    }
}

impl Shape {
    /// The arrays of the shape in depth-first order (the shape itself for an array).
    pub fn leaves(&self) -> Vec<&ArrayShape> {
        let mut out = Vec::new();
        self.collect_leaves(&mut out);
        out
    }

    fn collect_leaves<'a>(&'a self, out: &mut Vec<&'a ArrayShape>) {
        match self {
            Shape::Array(a) => out.push(a),
            Shape::Tuple(elements) => elements.iter().for_each(|e| e.collect_leaves(out)),
        }
    }

    /// The number of leaves.
    pub fn leaf_count(&self) -> usize {
        match self {
            Shape::Array(_) => 1,
            Shape::Tuple(elements) => elements.iter().map(Shape::leaf_count).sum(),
        }
    }

    /// The array when the shape is one.
    pub fn as_array(&self) -> Option<&ArrayShape> {
        match self {
            Shape::Array(a) => Some(a),
            Shape::Tuple(_) => None,
        }
    }

    /// The leaf range `[start, end)` of tuple element `i`, when the shape is a tuple with one.
    pub fn element_leaves(&self, i: usize) -> Option<std::ops::Range<usize>> {
        let Shape::Tuple(elements) = self else {
            return None;
        };
        let start: usize = elements.get(..i)?.iter().map(Shape::leaf_count).sum();
        Some(start..start + elements.get(i)?.leaf_count())
    }
}

impl fmt::Display for ArrayShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[", self.element)?;
        for (i, (d, dynamic)) in self.dims.iter().zip(&self.dynamic).enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            if *dynamic {
                f.write_str("<=")?;
            }
            write!(f, "{d}")?;
        }
        f.write_str("]")?;
        if let Some(layout) = &self.layout {
            write!(f, "{layout}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Array(a) => write!(f, "{a}"),
            Shape::Tuple(elements) => {
                f.write_str("(")?;
                for (i, e) in elements.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{e}")?;
                }
                f.write_str(")")
            }
        }
    }
}
