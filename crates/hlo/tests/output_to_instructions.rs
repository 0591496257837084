//! The maps from a fused computation's result to every instruction it reaches
//! (`Composer::computation_output_to_instructions`): the root's is the identity, the
//! parameters' are the output-to-input maps, and through every intermediate the elements it
//! reads are elements the result reads (checked by enumeration on the corpus's fusions).

use std::collections::BTreeSet;

use xla_indexing_core::IndexingMap;
use xla_indexing_hlo::fusion::{Composer, MapSet};
use xla_indexing_hlo::parse_module;
use xla_indexing_testkit::grid::box_points;

/// The points each access of `set` reads at output element `o`; `None` when one has runtime
/// variables or too many range points.
fn image(set: &MapSet, o: &[i64]) -> Option<BTreeSet<Vec<i64>>> {
    let mut out = BTreeSet::new();
    for a in &set.accesses {
        let ranges = box_points(
            a.map
                .range_vars()
                .iter()
                .map(|v| (v.bounds.lo, v.bounds.hi)),
        );
        if !a.runtime.is_empty() || ranges.len() > 1 << 12 {
            return None;
        }
        for syms in ranges {
            if a.map.contains(o, &syms) {
                out.insert(a.map.evaluate(o, &syms).expect("defined in the domain"));
            }
        }
    }
    Some(out)
}

#[test]
fn maps_to_every_instruction_agree_with_the_maps_to_the_parameters() {
    let dir = format!("{}/tests/data", env!("CARGO_MANIFEST_DIR"));
    let (mut intermediates, mut checked) = (0, 0);
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "hlo") {
            continue;
        }
        let module = parse_module(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let mut composer = Composer::new(&module);
        for (c, comp) in module.computations.iter().enumerate() {
            if !comp.name.contains("fused") {
                continue;
            }
            let Ok(all) = composer.computation_output_to_instructions(c, 0) else {
                continue;
            };
            let params = composer.computation_output_to_input(c, 0).unwrap();
            for p in &params {
                let i = comp.parameter(p.parameter).unwrap();
                let found = all.iter().find(|m| m.instruction == i && m.leaf == p.leaf);
                let reached = found.map(|m| &m.maps);
                if !p.maps.accesses.is_empty() {
                    assert_eq!(reached, Some(&p.maps), "{} {}", path.display(), comp.name);
                }
            }
            let root = all.iter().find(|m| m.instruction == comp.root).unwrap();
            let identity =
                IndexingMap::identity(&comp.instructions[comp.root].shape.leaves()[0].dims);
            assert_eq!(root.maps.accesses.len(), 1);
            assert_eq!(root.maps.accesses[0].map.to_string(), identity.to_string());
            for m in &all {
                if m.instruction == comp.root
                    || comp.instructions[m.instruction].parameter_number.is_some()
                {
                    continue;
                }
                intermediates += 1;
                // Through the intermediate: its elements' own reads, at each output element.
                let to_params = composer
                    .instruction_to_parameters(c, m.instruction, m.leaf)
                    .unwrap();
                let Some(first) = m.maps.accesses.first() else {
                    continue;
                };
                let outputs =
                    box_points(first.map.dims().iter().map(|v| (v.bounds.lo, v.bounds.hi)));
                if outputs.len() > 512 {
                    continue;
                }
                for o in &outputs {
                    let Some(mid) = image(&m.maps, o) else {
                        break;
                    };
                    for (p, q) in to_params.iter().zip(&params) {
                        let Some(whole) = image(&q.maps, o) else {
                            continue;
                        };
                        for e in &mid {
                            if let Some(through) = image(&p.maps, e) {
                                assert!(
                                    through.is_subset(&whole),
                                    "{} {}: through {} at {o:?}",
                                    path.display(),
                                    comp.name,
                                    comp.instructions[m.instruction].name
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(
        intermediates > 100 && checked > 1000,
        "{intermediates} {checked}"
    );
}
