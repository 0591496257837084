//! A tensor laid out as a 2-D grid of cells for a heatmap: the last dimension across (the last
//! two of a tensor of rank 3 or more when they fit, so that `[n, h, w, c]` shows `h` down and
//! `w * c` across), the others flattened down (row-major); a rank-0 tensor is one cell. Large
//! tensors are binned along dimension boundaries where possible: a cell then stands for a block
//! of elements and shows the largest count in it, flagged when any of them is.

/// One cell: the largest count of its elements and whether any of them is flagged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    pub count: u32,
    pub flagged: bool,
}

/// A binned grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub rows: usize,
    pub cols: usize,
    /// Elements per cell down and across.
    pub row_step: usize,
    pub col_step: usize,
    /// Cells, row by row.
    pub cells: Vec<Cell>,
    /// The index of the first element of each row of cells, over the dimensions laid down.
    pub row_labels: Vec<String>,
    /// The dimensions laid across.
    pub col_dims: Vec<i64>,
    /// The largest count of any cell.
    pub max: u32,
}

impl Grid {
    /// Bins `counts` and `flags` (row-major over `dims`) into at most `max_rows` by `max_cols`
    /// cells.
    pub fn new(
        counts: &[u32],
        flags: &[bool],
        dims: &[i64],
        max_rows: usize,
        max_cols: usize,
    ) -> Grid {
        let across = match dims {
            [] => 0,
            [.., a, b]
                if dims.len() >= 3 && (*a as usize).saturating_mul(*b as usize) <= max_cols =>
            {
                2
            }
            _ => 1,
        };
        let (outer, col_dims) = dims.split_at(dims.len() - across);
        let height = outer.iter().product::<i64>() as usize;
        let width = col_dims.iter().product::<i64>() as usize;
        let inner = outer.last().map_or(height, |d| *d as usize);
        let row_step = aligned_step(height.div_ceil(max_rows.max(1)), inner);
        let col_step = aligned_step(width.div_ceil(max_cols.max(1)), width);
        let rows = height.div_ceil(row_step);
        let cols = width.div_ceil(col_step);
        let mut cells = vec![Cell::default(); rows * cols];
        for (e, (&count, &flag)) in counts.iter().zip(flags).enumerate() {
            let cell = &mut cells[(e / width / row_step) * cols + (e % width) / col_step];
            cell.count = cell.count.max(count);
            cell.flagged |= flag && count > 0;
        }
        let row_labels = (0..rows).map(|r| unflatten(r * row_step, outer)).collect();
        Grid {
            rows,
            cols,
            row_step,
            col_step,
            max: cells.iter().map(|c| c.count).max().unwrap_or(0),
            cells,
            row_labels,
            col_dims: col_dims.to_vec(),
        }
    }

    /// The index, over the dimensions laid across, of the first element of column `col`.
    pub fn col_label(&self, col: usize) -> String {
        unflatten(col * self.col_step, &self.col_dims)
    }

    /// The cell at a row and column.
    pub fn cell(&self, row: usize, col: usize) -> Cell {
        self.cells[row * self.cols + col]
    }
}

/// A bin size of at least `needed` that lines up with a dimension of size `period`: the smallest
/// divisor of `period` that is large enough, else the smallest multiple of it.
fn aligned_step(needed: usize, period: usize) -> usize {
    if needed <= 1 || period == 0 {
        return needed.max(1);
    }
    if needed <= period {
        (needed..=period)
            .find(|s| period.is_multiple_of(*s))
            .unwrap_or(period)
    } else {
        needed.div_ceil(period) * period
    }
}

/// The multi-index of row-major position `flat` over `dims`, as `i,j,...`.
fn unflatten(mut flat: usize, dims: &[i64]) -> String {
    let mut index = vec![0usize; dims.len()];
    for (slot, &d) in index.iter_mut().zip(dims).rev() {
        *slot = flat % d as usize;
        flat /= d as usize;
    }
    index
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_dimensions_fold_across() {
        let n = 16 * 16 * 4;
        let g = Grid::new(&vec![1; n], &vec![false; n], &[1, 16, 16, 4], 48, 64);
        assert_eq!((g.rows, g.cols, g.row_step, g.col_step), (16, 64, 1, 1));
        assert_eq!(g.row_labels[3], "0,3");
        assert_eq!(g.col_label(9), "2,1");
    }

    #[test]
    fn small_tensors_are_not_binned() {
        let g = Grid::new(&[1, 2, 3, 4, 5, 6], &[false; 6], &[2, 3], 10, 10);
        assert_eq!((g.rows, g.cols, g.row_step, g.col_step), (2, 3, 1, 1));
        assert_eq!(g.cell(1, 2).count, 6);
        assert_eq!(g.row_labels, ["0", "1"]);
    }

    #[test]
    fn large_tensors_are_binned_along_dimensions() {
        let counts: Vec<u32> = (0..100).collect();
        let mut flags = vec![false; 100];
        flags[99] = true;
        let g = Grid::new(&counts, &flags, &[2, 5, 10], 5, 4);
        assert_eq!((g.rows, g.cols, g.row_step, g.col_step), (2, 2, 5, 5));
        assert_eq!(
            g.cell(1, 1),
            Cell {
                count: 99,
                flagged: true
            }
        );
        assert_eq!(g.row_labels, ["0,0", "1,0"]);
        assert_eq!(aligned_step(6, 16), 8);
        assert_eq!(aligned_step(20, 16), 32);
        assert_eq!(aligned_step(3, 7), 7);
        let scalar = Grid::new(&[7], &[false], &[], 5, 5);
        assert_eq!((scalar.rows, scalar.cols, scalar.max), (1, 1, 7));
    }
}
