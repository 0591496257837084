//! Layouts: how an array's elements are ordered in memory.
//!
//! `minor_to_major` lists the dimensions from the fastest-varying to the slowest. Optional padded
//! dimension sizes (the shapes-and-layout page's `padded_dimensions`) make each dimension occupy
//! more slots in memory than it has elements. Tiles (`:T(8,128)`) and a memory space (`S(1)`) are
//! kept as written; linearization is defined for untiled layouts only.

use std::fmt;

use xla_indexing_core::{ArithError, Expr, IndexingMap, Var};

/// The layout of an array shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Dimensions from minor (fastest varying) to major.
    pub minor_to_major: Vec<usize>,
    /// Padded size of each dimension (by dimension number), if the layout pads.
    pub padded_dims: Option<Vec<i64>>,
    /// Tiles as written after `T`, outermost tile first.
    pub tiles: Vec<Vec<i64>>,
    /// The memory space (`S(n)`), if written.
    pub memory_space: Option<i64>,
    /// Other suffix items (`E(32)`, `L(...)`, ...) as written.
    pub other: Vec<String>,
}

/// Why an index could not be converted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// `minor_to_major` (the layout as printed) is not a permutation of `0..rank` (the rank).
    #[error("layout {0} is not a permutation of the dimensions of a rank-{1} shape")]
    NotAPermutation(String, usize),
    /// The padded sizes (first) have another rank than the dimension sizes (second) or are smaller.
    #[error("padded dimension sizes {0:?} do not cover the dimension sizes {1:?}")]
    BadPadding(Vec<i64>, Vec<i64>),
    /// The layout has tiles, which are not linearized.
    #[error("tiled layouts are not linearized")]
    Tiled,
    /// A multi-index (first) outside the dimension sizes (second).
    #[error("index {0:?} is outside the shape {1:?}")]
    OutOfBounds(Vec<i64>, Vec<i64>),
    /// A linear position (first) outside a buffer of that many elements (second).
    #[error("linear index {0} is outside a buffer of {1} elements")]
    LinearOutOfBounds(i64, i64),
    /// Stride or position arithmetic overflowed.
    #[error(transparent)]
    Arith(#[from] ArithError),
}

impl Layout {
    /// The plain layout `{minor_to_major}`.
    pub fn new(minor_to_major: Vec<usize>) -> Layout {
        Layout {
            minor_to_major,
            padded_dims: None,
            tiles: Vec::new(),
            memory_space: None,
            other: Vec::new(),
        }
    }

    /// The default layout, dimension 0 most major: `{rank-1, ..., 1, 0}`.
    pub fn default_for_rank(rank: usize) -> Layout {
        Layout::new((0..rank).rev().collect())
    }

    /// Dimensions from major to minor.
    pub fn major_to_minor(&self) -> Vec<usize> {
        self.minor_to_major.iter().rev().copied().collect()
    }

    /// Checks that the layout fits a shape of the given dimension sizes.
    pub fn validate(&self, dims: &[i64]) -> Result<(), LayoutError> {
        let rank = dims.len();
        let mut seen = vec![false; rank];
        for &d in &self.minor_to_major {
            if d >= rank || std::mem::replace(&mut seen[d], true) {
                return Err(LayoutError::NotAPermutation(self.to_string(), rank));
            }
        }
        if self.minor_to_major.len() != rank {
            return Err(LayoutError::NotAPermutation(self.to_string(), rank));
        }
        if let Some(p) = &self.padded_dims
            && (p.len() != rank || p.iter().zip(dims).any(|(p, d)| p < d))
        {
            return Err(LayoutError::BadPadding(p.clone(), dims.to_vec()));
        }
        Ok(())
    }

    /// The stride of each dimension (by dimension number) in the linear buffer.
    pub fn strides(&self, dims: &[i64]) -> Result<Vec<i64>, LayoutError> {
        self.validate(dims)?;
        if !self.tiles.is_empty() {
            return Err(LayoutError::Tiled);
        }
        let sizes = self.padded_dims.as_deref().unwrap_or(dims);
        let mut strides = vec![0i64; dims.len()];
        let mut stride = 1i64;
        for &d in &self.minor_to_major {
            strides[d] = stride;
            stride = stride.checked_mul(sizes[d]).ok_or(ArithError::Overflow)?;
        }
        Ok(strides)
    }

    /// The number of elements of the linear buffer, padding included.
    pub fn buffer_size(&self, dims: &[i64]) -> Result<i64, LayoutError> {
        self.validate(dims)?;
        let sizes = self.padded_dims.as_deref().unwrap_or(dims);
        Ok(sizes
            .iter()
            .try_fold(1i64, |acc, &s| acc.checked_mul(s))
            .ok_or(ArithError::Overflow)?)
    }

    /// The position of a multi-index in the linear buffer.
    pub fn linear_index(&self, dims: &[i64], index: &[i64]) -> Result<i64, LayoutError> {
        let strides = self.strides(dims)?;
        if index.len() != dims.len() || index.iter().zip(dims).any(|(i, d)| *i < 0 || i >= d) {
            return Err(LayoutError::OutOfBounds(index.to_vec(), dims.to_vec()));
        }
        let mut linear = 0i64;
        for (i, s) in index.iter().zip(&strides) {
            linear = i
                .checked_mul(*s)
                .and_then(|t| linear.checked_add(t))
                .ok_or(ArithError::Overflow)?;
        }
        Ok(linear)
    }

    /// The multi-index stored at a position of the linear buffer; `None` for a padding slot.
    pub fn multi_index(&self, dims: &[i64], linear: i64) -> Result<Option<Vec<i64>>, LayoutError> {
        let size = self.buffer_size(dims)?;
        if linear < 0 || linear >= size {
            return Err(LayoutError::LinearOutOfBounds(linear, size));
        }
        let sizes = self.padded_dims.as_deref().unwrap_or(dims);
        let mut index = vec![0i64; dims.len()];
        let mut rest = linear;
        for &d in &self.minor_to_major {
            index[d] = rest % sizes[d];
            rest /= sizes[d];
        }
        Ok(index.iter().zip(dims).all(|(i, d)| i < d).then_some(index))
    }

    /// The physical indexing map of an array: from its multi-index to its position in the linear
    /// buffer, `(d0, ..., dn) -> (Σ di * stride_i)` over the array's dimensions.
    pub fn physical_map(&self, dims: &[i64]) -> Result<IndexingMap, LayoutError> {
        let strides = self.strides(dims)?;
        let mut linear = Expr::zero();
        for (i, s) in strides.iter().enumerate() {
            linear = linear.checked_add(&Expr::dim(i as u32).checked_scale(*s)?)?;
        }
        Ok(IndexingMap::new(
            vec![linear],
            Var::from_sizes(dims),
            Vec::new(),
            Vec::new(),
        ))
    }

    /// The map from a logical index of an array to its physical index: its dimensions in
    /// storage order, major to minor (`(d0, d1) -> (d1, d0)` for layout `{0,1}`).
    pub fn logical_to_physical(&self, dims: &[i64]) -> IndexingMap {
        let results = self
            .major_to_minor()
            .iter()
            .map(|&d| Expr::dim(d as u32))
            .collect();
        IndexingMap::from_tensor_sizes(results, dims, &[])
    }

    /// The inverse of [`Layout::logical_to_physical`]: from a physical index of an array to its
    /// logical index.
    pub fn physical_to_logical(&self, dims: &[i64]) -> IndexingMap {
        let mut results = vec![Expr::zero(); dims.len()];
        for (p, &d) in self.major_to_minor().iter().enumerate() {
            results[d] = Expr::dim(p as u32);
        }
        IndexingMap::from_tensor_sizes(results, &self.physical_dims(dims), &[])
    }

    /// The dimension sizes in storage order, major to minor.
    pub fn physical_dims(&self, dims: &[i64]) -> Vec<i64> {
        self.major_to_minor().iter().map(|&d| dims[d]).collect()
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
        let m2m: Vec<i64> = self.minor_to_major.iter().map(|&d| d as i64).collect();
        write!(f, "{{{}", list(&m2m))?;
        let has_suffix =
            !self.tiles.is_empty() || self.memory_space.is_some() || !self.other.is_empty();
        if has_suffix {
            f.write_str(":")?;
        }
        if !self.tiles.is_empty() {
            f.write_str("T")?;
            for t in &self.tiles {
                write!(f, "({})", list(t))?;
            }
        }
        for o in &self.other {
            f.write_str(o)?;
        }
        if let Some(s) = self.memory_space {
            write!(f, "S({s})")?;
        }
        f.write_str("}")
    }
}
