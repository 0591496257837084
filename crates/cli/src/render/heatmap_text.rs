//! The access heatmap as text for terminals and FileCheck: one character per cell, `.` for an
//! element never read, digits `1`-`9` (`+` above 9) for coalesced accesses and letters `a`-`i`
//! (`#` above 9) for uncoalesced ones; rows labelled by their leading indices, columns by a
//! ruler every ten cells. With `--warp`, a third grid gives the lane (base 32) of the warp that
//! reads each input element in the kernel's first step.

use std::fmt::Write;

use super::grid::Grid;
use super::heatmap::{Heatmap, MAX_CELLS_TEXT};

/// The text of a heatmap.
pub fn to_text(h: &Heatmap) -> String {
    let mut out = String::new();
    h.write_header(&mut out);
    let p = &h.pattern;
    let (rows, cols) = MAX_CELLS_TEXT;
    let input = Grid::new(&p.reads, &p.input_uncoalesced, &p.input.dims, rows, cols);
    let _ = writeln!(
        out,
        "\ninput {}: times each element is read{}",
        p.input,
        binned(&input)
    );
    write_grid(&input, count_glyph, &mut out);
    let output = Grid::new(&p.fan_in, &p.output_uncoalesced, &p.output.dims, rows, cols);
    let _ = writeln!(
        out,
        "\noutput {}: input elements each output element reads{}",
        p.output,
        binned(&output)
    );
    write_grid(&output, count_glyph, &mut out);
    out.push_str(
        "\nlegend: . not read; 1-9 times (+ more), coalesced; a-i times (# more), uncoalesced\n",
    );
    if let Some(lanes) = h.lane_grid(rows, cols) {
        let _ = writeln!(out, "\n{}{}", h.lane_title(), binned(&lanes));
        write_grid(&lanes, lane_glyph, &mut out);
        out.push_str("\nlegend: . not read by the warp; lanes 0-9 then a-v (10-31)\n");
    }
    out
}

fn binned(g: &Grid) -> String {
    if g.row_step == 1 && g.col_step == 1 {
        String::new()
    } else {
        format!(
            " (each cell: {}x{} elements, their largest count)",
            g.row_step, g.col_step
        )
    }
}

fn write_grid(g: &Grid, glyph: fn(&Grid, usize, usize) -> char, out: &mut String) {
    let width = g.row_labels.iter().map(String::len).max().unwrap_or(0);
    let mut ruler = " ".repeat(width + 2);
    for c in (0..g.cols).step_by(10) {
        let label = (c * g.col_step).to_string();
        let pad = 10usize.saturating_sub(label.len()).max(1);
        ruler.push_str(&label);
        ruler.push_str(&" ".repeat(pad));
    }
    let _ = writeln!(out, "{}", ruler.trim_end());
    for (r, label) in g.row_labels.iter().enumerate() {
        let line: String = (0..g.cols).map(|c| glyph(g, r, c)).collect();
        let _ = writeln!(out, "{label:>width$}  {line}");
    }
}

/// A lane, in base 32; `.` for no lane.
fn lane_glyph(g: &Grid, row: usize, col: usize) -> char {
    match g.cell(row, col).count {
        0 => '.',
        n => char::from_digit(n - 1, 32).unwrap_or('?'),
    }
}

/// A count: `.`, digits (coalesced) or letters (uncoalesced), `+`/`#` above 9.
fn count_glyph(g: &Grid, row: usize, col: usize) -> char {
    let cell = g.cell(row, col);
    match (cell.count, cell.flagged) {
        (0, _) => '.',
        (n @ 1..=9, false) => char::from(b'0' + n as u8),
        (n @ 1..=9, true) => char::from(b'a' + n as u8 - 1),
        (_, false) => '+',
        (_, true) => '#',
    }
}
