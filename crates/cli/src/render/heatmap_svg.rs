//! The access heatmap as a self-contained SVG (no scripts, no fonts or images to fetch): the
//! header lines, the input grid (times each element is read) and the output grid (input elements
//! each output element reads), blue for coalesced accesses and hatched orange for uncoalesced
//! ones, darker for more; with `--warp`, the lanes of one warp around the colour wheel; every
//! cell has a tooltip.

use std::fmt::Write;

use super::grid::{Cell, Grid};
use super::heatmap::{Heatmap, MAX_CELLS_SVG};

const MARGIN: usize = 16;
const LINE: usize = 16;
/// The advance of a character of the 12px monospace font, rounded up.
const CHAR_WIDTH: usize = 8;
/// Header lines are wrapped at spaces to this many characters.
const HEADER_CHARS: usize = 100;
/// The widest a grid is drawn, in pixels.
const GRID_WIDTH: usize = 640;
const NOT_READ: &str = "#f2f2f2";
/// Light and dark ends of the ramps.
const BLUE: ([u8; 3], [u8; 3]) = ([198, 219, 239], [8, 69, 148]);
const ORANGE: ([u8; 3], [u8; 3]) = ([253, 208, 162], [166, 54, 3]);

/// The SVG of a heatmap.
pub fn to_svg(h: &Heatmap) -> String {
    let p = &h.pattern;
    let (rows, cols) = MAX_CELLS_SVG;
    let input = Grid::new(&p.reads, &p.input_uncoalesced, &p.input.dims, rows, cols);
    let output = Grid::new(&p.fan_in, &p.output_uncoalesced, &p.output.dims, rows, cols);
    let mut header = String::new();
    h.write_header(&mut header);
    let mut body = String::new();
    let mut y = MARGIN;
    let mut width = 0;
    for line in header.lines().flat_map(|l| wrap(l, HEADER_CHARS)) {
        y += LINE;
        let _ = writeln!(
            body,
            "<text x=\"{MARGIN}\" y=\"{y}\" class=\"h\">{}</text>",
            xml(&line)
        );
        width = width.max(MARGIN * 2 + line.len() * CHAR_WIDTH);
    }
    let mut panels: Vec<(Grid, String, Paint)> = vec![
        (
            input,
            format!("input {}: times each element is read", p.input),
            count_paint,
        ),
        (
            output,
            format!(
                "output {}: input elements each output element reads",
                p.output
            ),
            count_paint,
        ),
    ];
    if let Some(lanes) = h.lane_grid(rows, cols) {
        panels.push((lanes, h.lane_title(), lane_paint));
    }
    for (grid, title, paint) in &panels {
        y += LINE * 2;
        let _ = writeln!(
            body,
            "<text x=\"{MARGIN}\" y=\"{y}\" class=\"t\">{}</text>",
            xml(title)
        );
        let (w, h) = draw_grid(grid, *paint, MARGIN, y + 8, &mut body);
        width = width.max(MARGIN * 2 + w);
        y += 8 + h;
    }
    y += LINE * 2;
    width = width.max(draw_legend(MARGIN, y, &mut body) + MARGIN);
    if panels.len() > 2 {
        y += LINE + 4;
        for lane in 0..32u32 {
            let _ = write!(
                body,
                "<rect x=\"{}\" y=\"{}\" width=\"6\" height=\"12\" fill=\"{}\"/>",
                MARGIN + 6 * lane as usize,
                y - 10,
                hue(f64::from(lane) / 32.0)
            );
        }
        let _ = writeln!(
            body,
            "<text x=\"{}\" y=\"{y}\">lanes 0 to 31</text>",
            MARGIN + 6 * 32 + 6
        );
    }
    y += LINE + MARGIN;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xml:space=\"preserve\" width=\"{width}\" height=\"{y}\" viewBox=\"0 0 {width} {y}\">"
    );
    out.push_str(
        "<style>text{font-family:monospace;font-size:12px;fill:#222}.t{font-weight:bold}\
         .l{font-size:10px;fill:#555}</style>\n\
         <defs><pattern id=\"hatch\" width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\">\
         <path d=\"M0,4 L4,0\" stroke=\"#ffffff\" stroke-opacity=\"0.6\" stroke-width=\"1\"/>\
         </pattern></defs>\n",
    );
    let _ = writeln!(
        out,
        "<rect width=\"{width}\" height=\"{y}\" fill=\"#ffffff\"/>"
    );
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

/// Draws a grid with its row labels and column ruler at `(x, y)`; returns its width and height.
fn draw_grid(g: &Grid, paint: Paint, x: usize, y: usize, out: &mut String) -> (usize, usize) {
    let cell = (GRID_WIDTH / g.cols.max(1)).clamp(6, 24);
    let label_width = 8 + 7 * g.row_labels.iter().map(String::len).max().unwrap_or(0);
    let left = x + label_width;
    let top = y + LINE;
    for c in (0..g.cols).step_by(10) {
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" class=\"l\">{}</text>",
            left + c * cell,
            top - 4,
            c * g.col_step
        );
    }
    for (r, label) in g.row_labels.iter().enumerate() {
        let cy = top + r * cell;
        if g.rows <= 16 || r % 5 == 0 {
            let _ = writeln!(
                out,
                "<text x=\"{x}\" y=\"{}\" class=\"l\">{label}</text>",
                cy + cell / 2 + 4
            );
        }
        for c in 0..g.cols {
            let v = g.cell(r, c);
            let (fill, what) = paint(g, v);
            let tip = tooltip(g, r, c, &what);
            let (cx, size) = (left + c * cell, cell - 1);
            let _ = write!(
                out,
                "<rect x=\"{cx}\" y=\"{cy}\" width=\"{size}\" height=\"{size}\" fill=\"{fill}\"><title>{tip}</title></rect>"
            );
            if v.flagged {
                let _ = write!(
                    out,
                    "<rect x=\"{cx}\" y=\"{cy}\" width=\"{size}\" height=\"{size}\" fill=\"url(#hatch)\"/>"
                );
            }
            out.push('\n');
        }
    }
    (label_width + g.cols * cell, LINE + g.rows * cell)
}

/// The fill of a cell and what it means, for its tooltip.
type Paint = fn(&Grid, Cell) -> (String, String);

/// Counts on the blue (coalesced) or orange (uncoalesced) ramp.
fn count_paint(g: &Grid, v: Cell) -> (String, String) {
    match (v.count, v.flagged) {
        (0, _) => (NOT_READ.to_string(), "not read".to_string()),
        (n, true) => (ramp(ORANGE, n, g.max), format!("{n} (uncoalesced)")),
        (n, false) => (ramp(BLUE, n, g.max), format!("{n} (coalesced)")),
    }
}

/// Lanes (a count of `lane + 1`) around the colour wheel.
fn lane_paint(_: &Grid, v: Cell) -> (String, String) {
    match v.count {
        0 => (NOT_READ.to_string(), "not read by the warp".to_string()),
        n => (hue(f64::from(n - 1) / 32.0), format!("lane {}", n - 1)),
    }
}

/// The tooltip of a cell: its elements and what the cell shows.
fn tooltip(g: &Grid, r: usize, c: usize, what: &str) -> String {
    let index = [g.row_labels[r].clone(), g.col_label(c)]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(",");
    let place = if g.row_step == 1 && g.col_step == 1 {
        format!("[{index}]")
    } else {
        format!("{}x{} elements from [{index}]", g.row_step, g.col_step)
    };
    format!("{place}: {what}")
}

/// The legend: the two ramps and the colour of elements not read; returns its right edge.
fn draw_legend(x: usize, y: usize, out: &mut String) -> usize {
    let mut at = x;
    for (name, colours, hatch) in [("coalesced", BLUE, false), ("uncoalesced", ORANGE, true)] {
        for k in 1..=5u32 {
            let _ = write!(
                out,
                "<rect x=\"{at}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/>",
                y - 10,
                ramp(colours, k, 5)
            );
            if hatch {
                let _ = write!(
                    out,
                    "<rect x=\"{at}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"url(#hatch)\"/>",
                    y - 10
                );
            }
            at += 13;
        }
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{y}\">{name} (few to many)</text>",
            at + 4
        );
        at += 24 + CHAR_WIDTH * (name.len() + 14);
    }
    let _ = writeln!(
        out,
        "<rect x=\"{at}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{NOT_READ}\" stroke=\"#cccccc\"/><text x=\"{}\" y=\"{y}\">not read</text>",
        y - 10,
        at + 17
    );
    at + 17 + CHAR_WIDTH * 8
}

/// The colour of `count` out of `max` on a ramp (a count of 1 is already visible).
fn ramp((light, dark): ([u8; 3], [u8; 3]), count: u32, max: u32) -> String {
    let t = 0.25 + 0.75 * f64::from(count.min(max)) / f64::from(max.max(1));
    let mix = |i: usize| {
        (f64::from(light[i]) + (f64::from(dark[i]) - f64::from(light[i])) * t).round() as u8
    };
    format!("#{:02x}{:02x}{:02x}", mix(0), mix(1), mix(2))
}

/// A line cut at spaces into pieces of at most `width` characters (longer words stay whole);
/// pieces after the first are indented.
fn wrap(line: &str, width: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in line.split(' ') {
        if !current.is_empty() && current.len() + 1 + word.len() > width {
            out.push(std::mem::replace(&mut current, "    ".to_string()));
        } else if !current.is_empty() && current != "    " {
            current.push(' ');
        }
        current.push_str(word);
    }
    out.push(current);
    out
}

/// A saturated colour at `turn` (0 to 1) around the colour wheel.
fn hue(turn: f64) -> String {
    let h = (turn.fract() * 6.0).max(0.0);
    let x = 1.0 - (h % 2.0 - 1.0).abs();
    let (r, g, b) = match h as u32 {
        0 => (1.0, x, 0.0),
        1 => (x, 1.0, 0.0),
        2 => (0.0, 1.0, x),
        3 => (0.0, x, 1.0),
        4 => (x, 0.0, 1.0),
        _ => (1.0, 0.0, x),
    };
    let byte = |v: f64| (40.0 + 180.0 * v).round() as u8;
    format!("#{:02x}{:02x}{:02x}", byte(r), byte(g), byte(b))
}

/// Escapes text for XML.
fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_wrap_at_spaces() {
        assert_eq!(wrap("ab cd ef", 5), ["ab cd", "    ef"]);
        assert_eq!(wrap("short", 80), ["short"]);
        assert_eq!(
            wrap("averyveryverylongword x", 5),
            ["averyveryverylongword", "    x"]
        );
    }
}
