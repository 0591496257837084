//! Parsers for shapes, layouts and attribute values.

use crate::attrs::{
    AttrValue, COMPUTATION_KEYS, ConvDimLabels, ConvDims, INT_KEYS, INT_LIST_KEYS, PadDim,
    SliceDim, WindowDim,
};
use crate::error::HloError;
use crate::layout::Layout;
use crate::parser::cursor::Cursor;
use crate::shape::{ArrayShape, Shape};

type R<T> = Result<T, HloError>;

/// Whether the cursor is at the start of a shape: `(` or an element type followed by `[`.
pub fn at_shape(c: &Cursor<'_>) -> bool {
    let rest = c.rest();
    if rest.starts_with('(') {
        return true;
    }
    let word = rest
        .find(|ch: char| !ch.is_ascii_alphanumeric())
        .unwrap_or(rest.len());
    word > 0 && rest.as_bytes()[0].is_ascii_lowercase() && rest[word..].starts_with('[')
}

/// The deepest tuples may nest in a shape.
pub const MAX_TUPLE_NESTING: usize = 64;

/// A shape: `f32[10,20]{1,0}`, `f32[]`, `(f32[10], (s32[], pred[]))`, `f32[<=4]`.
pub fn shape(c: &mut Cursor<'_>) -> R<Shape> {
    nested_shape(c, 0)
}

fn nested_shape(c: &mut Cursor<'_>, depth: usize) -> R<Shape> {
    if c.eat('(') {
        if depth >= MAX_TUPLE_NESTING {
            return Err(c.error_at(
                c.offset() - 1,
                format!("tuples nest deeper than {MAX_TUPLE_NESTING} levels"),
            ));
        }
        let mut elements = Vec::new();
        c.skip_trivia()?;
        if !c.eat(')') {
            loop {
                c.skip_trivia()?;
                elements.push(nested_shape(c, depth + 1)?);
                c.skip_trivia()?;
                if c.eat(')') {
                    break;
                }
                c.expect(',')?;
            }
        }
        return Ok(Shape::Tuple(elements));
    }
    let start = c.offset();
    let rest = c.rest();
    let len = rest
        .find(|ch: char| !ch.is_ascii_alphanumeric())
        .unwrap_or(rest.len());
    if len == 0 {
        return Err(c.expected("a shape"));
    }
    let element = rest[..len].to_string();
    c.eat_str(&rest[..len]);
    if !c.eat('[') {
        return Err(c.error_at(start, format!("expected a shape, found '{element}'")));
    }
    let (mut dims, mut dynamic) = (Vec::new(), Vec::new());
    c.skip_blanks();
    if !c.eat(']') {
        loop {
            c.skip_blanks();
            let at = c.offset();
            let is_dynamic = c.eat_str("<=");
            let size = if !is_dynamic && c.eat('?') {
                return Err(c.error_at(at, "unbounded dynamic dimensions ('?') are not supported"));
            } else {
                c.int()?
            };
            if size < 0 {
                return Err(c.error_at(at, format!("dimension size {size} is negative")));
            }
            dims.push(size);
            dynamic.push(is_dynamic);
            c.skip_blanks();
            if c.eat(']') {
                break;
            }
            c.expect(',')?;
        }
    }
    let layout = if c.peek() == Some('{') || spaced_layout_follows(c.rest()) {
        c.skip_blanks();
        let at = c.offset();
        let l = layout(c)?;
        l.validate(&dims)
            .map_err(|e| c.error_at(at, e.to_string()))?;
        Some(l)
    } else {
        None
    };
    Ok(Shape::Array(ArrayShape {
        element,
        dims,
        dynamic,
        layout,
    }))
}

/// Whether `rest` starts with blanks and then a layout, as XLA also reads it
/// (`f32[3,6] {1,0}`): a brace whose content starts with a dimension, `:` or `}` (a computation's
/// body also follows a shape after a blank, but its brace ends the line).
fn spaced_layout_follows(rest: &str) -> bool {
    let after_blanks = rest.trim_start_matches([' ', '\t']);
    after_blanks.len() < rest.len()
        && after_blanks.strip_prefix('{').is_some_and(|inside| {
            inside
                .trim_start_matches([' ', '\t'])
                .starts_with(|ch: char| ch.is_ascii_digit() || ch == ':' || ch == '}')
        })
}

/// A layout: `{1,0}`, `{1,0:T(8,128)(2,1)S(1)}`, `{0:E(32)}`.
pub fn layout(c: &mut Cursor<'_>) -> R<Layout> {
    c.expect('{')?;
    let mut minor_to_major = Vec::new();
    c.skip_blanks();
    while c.peek().is_some_and(|ch| ch.is_ascii_digit()) {
        let at = c.offset();
        let d = c.int()?;
        minor_to_major.push(usize::try_from(d).map_err(|_| c.error_at(at, "bad layout"))?);
        c.skip_blanks();
        if !c.eat(',') {
            break;
        }
        c.skip_blanks();
    }
    let mut l = Layout::new(minor_to_major);
    if c.eat(':') {
        while let Some(tag) = c.peek().filter(|ch| ch.is_ascii_alphabetic() || *ch == '#') {
            let at = c.offset();
            c.eat(tag);
            match tag {
                'T' => {
                    while c.peek() == Some('(') {
                        l.tiles.push(tile(c)?);
                    }
                }
                'S' => {
                    c.expect('(')?;
                    l.memory_space = Some(c.int()?);
                    c.expect(')')?;
                }
                _ => {
                    c.balanced('(', ')')?;
                    l.other.push(c.rest_since(at).to_string());
                }
            }
        }
    }
    c.skip_blanks();
    c.expect('}')?;
    Ok(l)
}

/// One tile `(8,128)`; `*` (a combined dimension) is written as -1.
fn tile(c: &mut Cursor<'_>) -> R<Vec<i64>> {
    c.expect('(')?;
    let mut sizes = Vec::new();
    loop {
        sizes.push(if c.eat('*') { -1 } else { c.int()? });
        if c.eat(')') {
            return Ok(sizes);
        }
        c.expect(',')?;
    }
}

/// `{1, 2, 3}` or `{}`.
pub fn int_list(c: &mut Cursor<'_>) -> R<Vec<i64>> {
    c.expect('{')?;
    let mut out = Vec::new();
    c.skip_trivia()?;
    if c.eat('}') {
        return Ok(out);
    }
    loop {
        c.skip_trivia()?;
        out.push(c.int()?);
        c.skip_trivia()?;
        if c.eat('}') {
            return Ok(out);
        }
        c.expect(',')?;
    }
}

/// `{[5:10:1], [3:20:7], [0:50]}`.
fn slice(c: &mut Cursor<'_>) -> R<Vec<SliceDim>> {
    c.expect('{')?;
    let mut out = Vec::new();
    c.skip_trivia()?;
    if c.eat('}') {
        return Ok(out);
    }
    loop {
        c.skip_trivia()?;
        c.expect('[')?;
        let start = c.int()?;
        c.expect(':')?;
        let limit = c.int()?;
        let stride = if c.eat(':') { c.int()? } else { 1 };
        c.expect(']')?;
        out.push(SliceDim {
            start,
            limit,
            stride,
        });
        c.skip_trivia()?;
        if c.eat('}') {
            return Ok(out);
        }
        c.expect(',')?;
    }
}

/// `1_4_1x4_8_0`: per dimension `low_high[_interior]`, dimensions joined by `x`.
fn padding(c: &mut Cursor<'_>) -> R<Vec<PadDim>> {
    let mut out = Vec::new();
    loop {
        let low = c.int()?;
        c.expect('_')?;
        let high = c.int()?;
        let interior = if c.eat('_') { c.int()? } else { 0 };
        out.push(PadDim {
            low,
            high,
            interior,
        });
        if !c.eat('x') {
            return Ok(out);
        }
    }
}

/// `3x3` (or a single number).
fn x_list(c: &mut Cursor<'_>) -> R<Vec<i64>> {
    let mut out = vec![c.int()?];
    while c.eat('x') {
        out.push(c.int()?);
    }
    Ok(out)
}

/// `{size=3x3 stride=2x2 pad=1_1x1_1 lhs_dilate=1x1 rhs_dilate=1x1 rhs_reversal=0x0}`.
fn window(c: &mut Cursor<'_>) -> R<Vec<WindowDim>> {
    c.expect('{')?;
    let mut dims: Vec<WindowDim> = Vec::new();
    let mut rank: Option<usize> = None;
    loop {
        c.skip_trivia()?;
        if c.eat('}') {
            return Ok(dims);
        }
        let at = c.offset();
        let key = c.name()?;
        c.expect('=')?;
        let values: Vec<(i64, i64)> = if key == "pad" {
            padding(c)?
                .into_iter()
                .map(|p| {
                    if p.interior != 0 {
                        Err(c.error_at(at, "window padding has no interior part"))
                    } else {
                        Ok((p.low, p.high))
                    }
                })
                .collect::<R<_>>()?
        } else {
            x_list(c)?.into_iter().map(|v| (v, 0)).collect()
        };
        let n = *rank.get_or_insert(values.len());
        if values.len() != n {
            return Err(c.error_at(
                at,
                format!("window {key} has {} dimensions, expected {n}", values.len()),
            ));
        }
        if dims.is_empty() {
            dims = vec![WindowDim::default(); n];
        }
        for (d, (v, hi)) in dims.iter_mut().zip(values) {
            match key {
                "size" => d.size = v,
                "stride" => d.stride = v,
                "pad" => (d.pad_low, d.pad_high) = (v, hi),
                "lhs_dilate" => d.lhs_dilate = v,
                "rhs_dilate" => d.rhs_dilate = v,
                "rhs_reversal" => d.reversal = v != 0,
                _ => return Err(c.error_at(at, format!("unknown window field '{key}'"))),
            }
        }
    }
}

/// `b01f_01io->b01f`.
fn dim_labels(c: &mut Cursor<'_>) -> R<ConvDimLabels> {
    let at = c.offset();
    let text = c.bare_value()?;
    let bad = |m: &str| c.error_at(at, format!("bad dim_labels '{text}': {m}"));
    let (operands, output) = text.split_once("->").ok_or_else(|| bad("missing '->'"))?;
    let (input, kernel) = operands.split_once('_').ok_or_else(|| bad("missing '_'"))?;
    let roles = |s: &str, first: char, second: char| -> Option<ConvDims> {
        let spatial_count = s.chars().filter(char::is_ascii_digit).count();
        let mut dims = ConvDims {
            spatial: vec![usize::MAX; spatial_count],
            ..ConvDims::default()
        };
        let (mut seen_first, mut seen_second) = (false, false);
        for (i, ch) in s.chars().enumerate() {
            match ch {
                _ if ch == first && !seen_first => (dims.batch, seen_first) = (i, true),
                _ if ch == second && !seen_second => (dims.feature, seen_second) = (i, true),
                _ => {
                    let k = ch.to_digit(10)? as usize;
                    let slot = dims.spatial.get_mut(k)?;
                    if *slot != usize::MAX {
                        return None;
                    }
                    *slot = i;
                }
            }
        }
        (seen_first && seen_second).then_some(dims)
    };
    let labels = ConvDimLabels {
        input: roles(input, 'b', 'f').ok_or_else(|| bad("input needs b, f and spatial digits"))?,
        kernel: roles(kernel, 'i', 'o')
            .ok_or_else(|| bad("kernel needs i, o and spatial digits"))?,
        output: roles(output, 'b', 'f')
            .ok_or_else(|| bad("output needs b, f and spatial digits"))?,
    };
    let n = labels.input.spatial.len();
    if labels.kernel.spatial.len() != n || labels.output.spatial.len() != n {
        return Err(bad(
            "operands and output have different numbers of spatial dimensions",
        ));
    }
    Ok(labels)
}

/// `%name` or `{%a, %b}`.
fn computations(c: &mut Cursor<'_>) -> R<Vec<String>> {
    if !c.eat('{') {
        return Ok(vec![c.name()?.to_string()]);
    }
    let mut out = Vec::new();
    loop {
        c.skip_trivia()?;
        if c.eat('}') {
            return Ok(out);
        }
        out.push(c.name()?.to_string());
        c.skip_trivia()?;
        c.eat(',');
    }
}

/// The value of attribute `key`, typed for the keys the analysis reads.
pub fn attr_value(c: &mut Cursor<'_>, key: &str) -> R<AttrValue> {
    Ok(match key {
        _ if INT_LIST_KEYS.contains(&key) => AttrValue::Ints(int_list(c)?),
        _ if INT_KEYS.contains(&key) => AttrValue::Int(c.int()?),
        _ if COMPUTATION_KEYS.contains(&key) => AttrValue::Computations(computations(c)?),
        "slice" => AttrValue::Slice(slice(c)?),
        "padding" => AttrValue::Padding(padding(c)?),
        "window" => AttrValue::Window(window(c)?),
        "dim_labels" => AttrValue::DimLabels(dim_labels(c)?),
        "backend_config" => {
            let text = raw_value(c)?;
            match serde_json::from_str(text) {
                Ok(json) => AttrValue::Json(json),
                Err(_) => AttrValue::Raw(text.to_string()),
            }
        }
        _ => AttrValue::Raw(raw_value(c)?.to_string()),
    })
}

/// A value kept as written: `{...}` with balanced braces, a string, the iota form of replica
/// groups (`[2,4]<=[8]`, `[2,4]<=[4,2]T(1,0)`), or a bare word.
pub fn raw_value<'a>(c: &mut Cursor<'a>) -> R<&'a str> {
    match c.peek() {
        Some('{') => c.balanced('{', '}'),
        Some('[') => {
            let start = c.offset();
            c.balanced('[', ']')?;
            if c.eat_str("<=") {
                c.balanced('[', ']')?;
                if c.peek() == Some('T') && c.peek2() == Some('(') {
                    c.eat('T');
                    c.balanced('(', ')')?;
                }
            }
            Ok(c.rest_since(start))
        }
        Some('"') => {
            let start = c.offset();
            c.string()?;
            Ok(c.rest_since(start))
        }
        _ => c.bare_value(),
    }
}
