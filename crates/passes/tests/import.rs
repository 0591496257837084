//! `import_module` on every bundled example (and a convolution and gather): the text reads back
//! in MLIR, nothing is left out, the annotate pass annotates every imported op (none is skipped
//! as unknown or unreadable), and each op's maps are those the HLO analysis gives the
//! instruction at the op's location. The imported texts are compared whole with
//! `snapshots/import_examples.mlir` (`UPDATE_EXPECT=1` rewrites it).

use std::{collections::BTreeSet, fs, path::Path};

use expect_test::expect_file;
use melior::{
    ir::{
        Module,
        operation::{OperationLike, WalkOrder, WalkResult},
    },
    pass::PassManager,
};
use xla_indexing_core::IndexingMap;
use xla_indexing_hlo::{Options, analyze_module, parse_module};
use xla_indexing_passes::{
    annotate::operand_maps,
    create_annotate_pass,
    opt::{OptOptions, check_parses, full_context},
};
use xla_indexing_translate::import::import_module;

fn examples() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let extra = root.join("test/cli/Inputs/conv_gather.hlo");
    let mut out: Vec<(String, String)> = fs::read_dir(root.join("examples/hlo"))
        .expect("examples/hlo")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "hlo"))
        .map(|p| {
            (
                p.display().to_string(),
                fs::read_to_string(&p).expect("read"),
            )
        })
        .collect();
    out.push((
        extra.display().to_string(),
        fs::read_to_string(&extra).expect("read"),
    ));
    out.sort();
    out
}

/// The maps the HLO analysis gives each operand of instruction `name` of `computation`.
fn hlo_maps(
    module: &xla_indexing_hlo::Module,
    computation: &str,
    name: &str,
) -> Vec<Vec<IndexingMap>> {
    let options = Options {
        computation: Some(computation.into()),
        instruction: Some(name.into()),
        ..Options::default()
    };
    let report = analyze_module(module, &options).expect("analysis");
    let mut maps: Vec<Vec<IndexingMap>> = Vec::new();
    for computation in &report.computations {
        for output in &computation.outputs {
            for operand in &output.operands {
                if maps.len() <= operand.operand {
                    maps.resize(operand.operand + 1, Vec::new());
                }
                for access in &operand.maps.accesses {
                    if !maps[operand.operand].contains(&access.map) {
                        maps[operand.operand].push(access.map.clone());
                    }
                }
            }
        }
    }
    maps
}

/// `(dimensions, runtime variables, results)` triples.
type Reads = BTreeSet<(Vec<i64>, Vec<i64>, Vec<i64>)>;

/// What a map reads, as a set of points: for each point of its dimensions and runtime variables,
/// the results over every value of its range variables. Equal sets mean equal maps, whatever
/// their form (the analysis may keep a range variable in `[0, 0]` or write `0`).
fn reads(map: &IndexingMap) -> Reads {
    let vars: Vec<_> = map
        .dims()
        .iter()
        .chain(map.range_vars())
        .chain(map.rt_vars())
        .map(|v| (v.bounds.lo, v.bounds.hi))
        .collect();
    let mut points = BTreeSet::new();
    let mut point: Vec<i64> = vars.iter().map(|v| v.0).collect();
    if vars.iter().any(|(lo, hi)| lo > hi) {
        return points;
    }
    let (nd, nr) = (map.dims().len(), map.range_vars().len());
    loop {
        let (dims, syms) = point.split_at(nd);
        if map.contains(dims, syms) {
            let results = map.evaluate(dims, syms).expect("no overflow");
            points.insert((dims.to_vec(), syms[nr..].to_vec(), results));
        }
        // The next point, odometer style.
        let mut k = 0;
        loop {
            if k == point.len() {
                return points;
            }
            if point[k] < vars[k].1 {
                point[k] += 1;
                break;
            }
            point[k] = vars[k].0;
            k += 1;
        }
    }
}

/// Every operand's maps as the union of what they read.
fn all_reads(maps: &[Vec<IndexingMap>]) -> Vec<Reads> {
    maps.iter()
        .map(|operand| operand.iter().flat_map(reads).collect())
        .collect()
}

/// `(line, column)` of a location printed as `loc("file":line:column)`.
fn line_column(location: &str) -> Option<(usize, usize)> {
    let inner = location.strip_suffix(')')?;
    let mut parts = inner.rsplitn(3, ':');
    let column = parts.next()?.parse().ok()?;
    let line = parts.next()?.parse().ok()?;
    Some((line, column))
}

#[test]
fn examples_import_without_warnings_and_read_back() {
    let options = OptOptions {
        allow_unregistered_dialect: true,
    };
    for (name, text) in examples() {
        let module = parse_module(&text).expect("example parses");
        let imported = import_module(&module, &name).expect("the module is consistent");
        assert!(
            imported.warnings.is_empty(),
            "{name}: {:?}",
            imported.warnings
        );
        check_parses(&imported.text, options)
            .unwrap_or_else(|e| panic!("{name}: {e:?}\n{}", imported.text));
    }
}

#[test]
fn imported_texts_are_the_snapshot() {
    let root = format!(
        "{}/",
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .display()
    );
    let mut all = String::new();
    for (path, text) in examples() {
        // Named from the repository root, so that the locations do not depend on the checkout.
        let name = path.strip_prefix(&root).unwrap_or(&path);
        let module = parse_module(&text).expect("example parses");
        let imported = import_module(&module, name).expect("the module is consistent");
        all.push_str(&format!("// ----- {name}\n{}\n", imported.text));
    }
    expect_file!["snapshots/import_examples.mlir"].assert_eq(&all);
}

#[test]
fn every_imported_op_has_the_maps_of_its_instruction() {
    for (name, text) in examples() {
        let hlo = parse_module(&text).expect("example parses");
        let imported = import_module(&hlo, &name).expect("the module is consistent");
        let context = full_context();
        context.set_allow_unregistered_dialects(true);
        let mut module = Module::parse(&context, &imported.text).expect("imported text parses");
        let manager = PassManager::new(&context);
        manager.add_pass(create_annotate_pass(false));
        manager.run(&mut module).expect("annotate succeeds");
        let (mut missing, mut differing, mut checked) = (Vec::new(), Vec::new(), 0);
        module.as_operation().walk(WalkOrder::PreOrder, |op| {
            let op_name = op
                .name()
                .as_string_ref()
                .as_str()
                .unwrap_or_default()
                .to_string();
            let parent = xla_indexing_mlir::ir::parent_op(&op);
            let in_region_of_stablehlo = parent.is_some_and(|p| {
                p.name()
                    .as_string_ref()
                    .as_str()
                    .is_ok_and(|n| n.starts_with("stablehlo."))
            });
            if op_name.starts_with("stablehlo.") && !in_region_of_stablehlo {
                checked += 1;
                if op.attribute("xla_indexing.operand_maps").is_err() {
                    missing.push(op_name.clone());
                }
                let (line, column) =
                    line_column(&op.location().to_string()).expect("a file location");
                let (computation, instruction) = hlo
                    .computations
                    .iter()
                    .flat_map(|c| c.instructions.iter().map(move |i| (c, i)))
                    .find(|(_, i)| i.pos.line == line && i.pos.column == column)
                    .expect("the op's location is an instruction");
                let annotated = operand_maps(&op).unwrap_or_default();
                if all_reads(&annotated)
                    != all_reads(&hlo_maps(&hlo, &computation.name, &instruction.name))
                {
                    differing.push(instruction.name.clone());
                }
            }
            WalkResult::Advance
        });
        assert!(checked > 0, "{name}: no StableHLO-like op");
        assert!(missing.is_empty(), "{name}: not annotated: {missing:?}");
        assert!(
            differing.is_empty(),
            "{name}: maps unlike the HLO analysis's: {differing:?}"
        );
    }
}
