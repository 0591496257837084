//! Shapes and layouts (the shapes-and-layout seed): linear index <-> multi-index, padding,
//! the physical map, and bitcasts that follow the layouts.

mod common;

use common::{assert_maps, instruction_report, maps_of};
use xla_indexing_hlo::Direction;
use xla_indexing_hlo::layout::Layout;

/// The seed's [2 x 3] array `a b c / d e f`, element (i, j) named by its letter.
fn letter(index: &[i64]) -> char {
    (b'a' + (index[0] * 3 + index[1]) as u8) as char
}

fn memory(layout: &Layout, dims: &[i64]) -> String {
    let size = layout.buffer_size(dims).unwrap();
    (0..size)
        .map(|l| {
            layout
                .multi_index(dims, l)
                .unwrap()
                .map_or('0', |i| letter(&i))
        })
        .collect()
}

#[test]
fn seed_minor_to_major_orders() {
    let dims = [2, 3];
    assert_eq!(memory(&Layout::new(vec![0, 1]), &dims), "adbecf");
    assert_eq!(memory(&Layout::new(vec![1, 0]), &dims), "abcdef");
    assert_eq!(Layout::default_for_rank(2).minor_to_major, [1, 0]);
}

#[test]
fn seed_padded_dimensions() {
    // padded_dimensions [3, 5], column major: a d 0 b e 0 c f 0 0 0 0 0 0 0.
    let mut layout = Layout::new(vec![0, 1]);
    layout.padded_dims = Some(vec![3, 5]);
    assert_eq!(memory(&layout, &[2, 3]), "ad0be0cf0000000");
    // The same buffer as a row-major [3 x 5] array "a b c 0 0 / d e f 0 0 / 0 0 0 0 0" read
    // column by column.
    assert_eq!(layout.linear_index(&[2, 3], &[1, 2]).unwrap(), 7);
}

#[test]
fn linear_and_multi_index_round_trip() {
    for m2m in [vec![2, 1, 0], vec![0, 1, 2], vec![1, 2, 0]] {
        let layout = Layout::new(m2m);
        let dims = [2, 3, 4];
        for l in 0..24 {
            let idx = layout.multi_index(&dims, l).unwrap().unwrap();
            assert_eq!(layout.linear_index(&dims, &idx).unwrap(), l);
        }
        let map = layout.physical_map(&dims).unwrap();
        for (d, s) in map.domain_points(1000).unwrap() {
            assert_eq!(
                map.evaluate(&d, &s).unwrap()[0],
                layout.linear_index(&dims, &d).unwrap()
            );
        }
    }
    let layout = Layout::new(vec![1, 0]);
    assert!(layout.linear_index(&[2, 3], &[2, 0]).is_err());
    assert!(layout.multi_index(&[2, 3], 6).is_err());
    assert!(Layout::new(vec![0, 0]).validate(&[2, 2]).is_err());
    let mut tiled = Layout::new(vec![1, 0]);
    tiled.tiles.push(vec![8, 128]);
    assert!(tiled.linear_index(&[8, 128], &[0, 0]).is_err());
}

#[test]
fn physical_map_text() {
    let map = Layout::new(vec![0, 1]).physical_map(&[2, 3]).unwrap();
    assert_eq!(
        map.to_string(),
        "(d0, d1) -> (d0 + d1 * 2), domain: d0 in [0, 1], d1 in [0, 2]"
    );
}

#[test]
fn bitcast_of_column_major_data_is_a_transpose_plus_reshape() {
    let snippet = "p = f32[4,6]{0,1} parameter(0)\nb = f32[24]{0} bitcast(p)";
    let report = instruction_report(snippet, "b", Direction::OutputToInput);
    assert_maps(
        maps_of(&report, 0, 0),
        &["(d0) -> (d0 mod 4, d0 floordiv 4), domain: d0 in [0, 23]"],
    );
    // Without layouts it is the plain reshape.
    let snippet = "p = f32[4,6] parameter(0)\nb = f32[24] bitcast(p)";
    let report = instruction_report(snippet, "b", Direction::OutputToInput);
    assert_maps(
        maps_of(&report, 0, 0),
        &["(d0) -> (d0 floordiv 6, d0 mod 6), domain: d0 in [0, 23]"],
    );
    // A layout-only transpose: same physical order, swapped logical dimensions.
    let snippet = "p = f32[4,6]{0,1} parameter(0)\nb = f32[6,4]{1,0} bitcast(p)";
    let report = instruction_report(snippet, "b", Direction::OutputToInput);
    assert_maps(
        maps_of(&report, 0, 0),
        &["(d0, d1) -> (d1, d0), domain: d0 in [0, 5], d1 in [0, 3]"],
    );
}
