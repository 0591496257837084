//! XLA's own expectations for the indexing of HLO (`indexing_analysis_test.cc` of openxla/xla),
//! transcribed as data in `tests/data/xla_indexing_cases.txt` and checked against our analysis.
//!
//! A case holds an HLO module (`hlo`), the instruction XLA analyses (`instr`, by default the
//! entry's root) and XLA's maps: `o2i OUTPUT OPERAND MAP` (output to input) and
//! `i2o INPUT RESULT MAP` (input to output); several lines with the same pair are one set of
//! maps, and `KNOWN EMPTY` is no map. Our maps for every pair are compared with XLA's as
//! relations: at every point of the dims (all of them in a small box, a deterministic sample
//! in a large one), the union of the indices the maps reach over their symbols (range and
//! runtime variables) is the same. Every pair must be on both sides, and ours may be no costlier
//! (the costs of a pair's maps added up, [`xla_indexing_core::Cost`]).
//!
//! `rt OUTPUT OPERAND NAME...` names the instructions XLA's runtime variables of a pair's map come
//! from: ours from the same instructions must have the same bounds. `o2i-none OUTPUT`: XLA gives
//! the output no operand. `unknown o2i|i2o FROM TO`: XLA has no indexing for the pair, and ours
//! must say that its maps are incomplete. `physical` asks for maps between physical indices (XLA's
//! `use_physical_layout`). A case where XLA's expectation is wrong (`xla-wrong REASON`) or where
//! we differ on purpose (`differs REASON`) must differ from XLA's; with `brute`, ours is checked
//! element by element against the brute-force reference of `common/reference.rs`. A case that waits for a feature
//! in progress (`needs FEATURE`) must still fail.

mod common;
#[path = "../../core/tests/support/mod.rs"]
mod support;

use std::collections::{BTreeMap, BTreeSet};
use xla_indexing_hlo::Opcode;

use common::reference::{Index, all_indices, computation_tags, deps};
use support::cases::{COSTLIER, Case, Outcome, Pass, Verdict, parse_cases, run_all};
use support::compare::{Coverage, Graph, Side, outer_vars, same_relation};
use support::reference::{RefMap, parse_map as ref_map};
use xla_indexing_core::{Cost, IndexingMap};
use xla_indexing_hlo::fusion::MapSet;
use xla_indexing_hlo::{Direction, Module, Options, analyze_module, parse_module};

const CASES: &str = include_str!("data/xla_indexing_cases.txt");

#[test]
fn xla_indexing_cases() {
    let cases = parse_cases(CASES).unwrap_or_else(|e| panic!("xla_indexing_cases.txt: {e}"));
    let summary = run_all("xla_indexing_cases.txt", &cases, run);
    assert!(
        std::env::var("XLA_CASE").is_ok() || summary.cases >= 79,
        "the case file lost cases"
    );
}

/// A pair of a map set: (output, operand) out to in, (input, result) in to out.
type Pair = (usize, usize);

fn run(case: &Case) -> Outcome {
    let result = check(case);
    let documented = case.get("differs").is_some() || case.get("xla-wrong").is_some();
    result
        .map(|p| {
            if documented {
                Pass::new(Verdict::Difference, p.note)
            } else {
                p
            }
        })
        .into()
}

/// XLA's maps of one direction, by pair (`KNOWN EMPTY` gives the pair no map).
fn expected(case: &Case, key: &str) -> Result<BTreeMap<Pair, Vec<RefMap>>, String> {
    let mut out: BTreeMap<Pair, Vec<RefMap>> = BTreeMap::new();
    for line in case.all(key) {
        let mut words = line.splitn(3, char::is_whitespace);
        let mut num = || -> Result<usize, String> {
            let w = words.next().unwrap_or("");
            w.parse()
                .map_err(|_| format!("`{key} FROM TO MAP`: bad index `{w}`"))
        };
        let pair = (num()?, num()?);
        let text = words.next().unwrap_or("").trim();
        let map = ref_map(text).map_err(|e| format!("the reference cannot read `{text}`: {e}"))?;
        let maps = out.entry(pair).or_default();
        if !map.known_empty {
            maps.push(map);
        }
    }
    Ok(out)
}

/// Our maps of one direction, by pair, for the analysed instruction.
fn ours(
    module: &Module,
    case: &Case,
    direction: Direction,
) -> Result<BTreeMap<Pair, MapSet>, String> {
    let instr = instruction(module, case)?;
    let options = Options {
        instruction: Some(instr.1),
        computation: Some(instr.0),
        direction,
        physical: case.get("physical").is_some(),
        ..Options::default()
    };
    let report = analyze_module(module, &options).map_err(|e| format!("we cannot analyse: {e}"))?;
    let mut out = BTreeMap::new();
    for o in &report.computations[0].outputs {
        for op in &o.operands {
            let pair = (o.output, op.operand);
            if out.insert(pair, op.maps.clone()).is_some() {
                return Err(format!(
                    "pair {pair:?} has several leaves; the runner compares arrays"
                ));
            }
        }
    }
    Ok(out)
}

/// The computation and name of the analysed instruction: `instr`, or the entry's root.
fn instruction(module: &Module, case: &Case) -> Result<(String, String), String> {
    let entry = &module.computations[module.entry];
    match case.get("instr") {
        Some(name) => {
            let found = module.find_instruction(name);
            let [(c, _)] = found.as_slice() else {
                return Err(format!("`instr {name}` names {} instructions", found.len()));
            };
            Ok((module.computations[*c].name.clone(), name.to_string()))
        }
        None => Ok((
            entry.name.clone(),
            entry.instructions[entry.root].name.clone(),
        )),
    }
}

/// The total cost of a set of maps.
fn cost<'a>(maps: impl IntoIterator<Item = &'a IndexingMap>) -> Cost {
    maps.into_iter()
        .map(IndexingMap::cost)
        .fold(Cost::default(), |a, b| a + b)
}

/// Our maps of a pair, those that are not known empty.
fn live(set: &MapSet) -> Vec<&IndexingMap> {
    set.accesses
        .iter()
        .map(|a| &a.map)
        .filter(|m| !m.is_known_empty())
        .collect()
}

/// Whether our maps of a pair describe XLA's relation, and the costs.
fn compare_pair(set: &MapSet, theirs: &[RefMap]) -> Result<(Coverage, Cost, Cost), String> {
    if let Some(why) = &set.undefined {
        return Err(format!("our maps are incomplete: {why}"));
    }
    let our_maps = live(set);
    let a = Side {
        label: "ours",
        maps: our_maps
            .iter()
            .map(|m| (*m as &dyn Graph, outer_vars(*m, false)))
            .collect(),
    };
    let b = Side {
        label: "XLA's",
        maps: theirs
            .iter()
            .map(|m| (m as &dyn Graph, outer_vars(m, false)))
            .collect(),
    };
    let coverage = same_relation(&a, &b)?;
    let their_cost = theirs
        .iter()
        .map(|t| {
            IndexingMap::parse(&t.text)
                .map(|m| m.cost())
                .map_err(|e| format!("we cannot read XLA's map to cost it: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .fold(Cost::default(), |x, y| x + y);
    Ok((coverage, cost(our_maps), their_cost))
}

/// The maps of every pair of both directions the case lists, ours and XLA's.
struct Sides {
    ours: BTreeMap<(&'static str, Pair), MapSet>,
    theirs: BTreeMap<(&'static str, Pair), Vec<RefMap>>,
    /// How many outputs have no operand, and pairs have no indexing, as XLA's.
    none: usize,
    /// The pairs without indexing (`unknown`).
    unknown: BTreeSet<(&'static str, Pair)>,
}

fn sides(module: &Module, case: &Case) -> Result<Sides, String> {
    let mut s = Sides {
        ours: BTreeMap::new(),
        theirs: BTreeMap::new(),
        none: 0,
        unknown: BTreeSet::new(),
    };
    for (key, direction) in [
        ("o2i", Direction::OutputToInput),
        ("i2o", Direction::InputToOutput),
    ] {
        let theirs = expected(case, key)?;
        if theirs.is_empty() {
            continue;
        }
        for (pair, set) in ours(module, case, direction)? {
            s.ours.insert((key, pair), set);
        }
        for (pair, maps) in theirs {
            s.theirs.insert((key, pair), maps);
        }
    }
    // `o2i-none OUTPUT`: XLA gives the output no operand at all (a constant, an iota).
    for v in case.all("o2i-none") {
        let output: usize = v
            .trim()
            .parse()
            .map_err(|_| format!("bad `o2i-none {v}`"))?;
        let found: Vec<Pair> = ours(module, case, Direction::OutputToInput)?
            .into_keys()
            .filter(|(o, _)| *o == output)
            .collect();
        if !found.is_empty() {
            return Err(format!(
                "XLA gives output {output} no operand, we give {found:?}"
            ));
        }
        s.none += 1;
    }
    // `unknown o2i|i2o FROM TO`: XLA has no indexing for the pair; ours must say its maps are
    // incomplete (or fail to analyse the instruction, as for an op without maps).
    for v in case.all("unknown") {
        let words: Vec<&str> = v.split_whitespace().collect();
        let [dir, from, to] = words[..] else {
            return Err(format!(
                "expected `unknown o2i|i2o FROM TO`, found `unknown {v}`"
            ));
        };
        let (key, direction) = match dir {
            "o2i" => ("o2i", Direction::OutputToInput),
            "i2o" => ("i2o", Direction::InputToOutput),
            _ => return Err(format!("bad direction in `unknown {v}`")),
        };
        let pair: Pair = (
            from.parse().map_err(|_| format!("bad `unknown {v}`"))?,
            to.parse().map_err(|_| format!("bad `unknown {v}`"))?,
        );
        match ours(module, case, direction) {
            Err(_) => {}
            Ok(sets) => match sets.get(&pair) {
                Some(set) if set.undefined.is_some() => {}
                other => {
                    return Err(format!(
                        "XLA has no indexing for {key} {pair:?}, we give {:?}",
                        other
                            .map(|set| live(set).iter().map(|m| m.to_string()).collect::<Vec<_>>())
                    ));
                }
            },
        }
        s.none += 1;
        s.unknown.insert((key, pair));
    }
    if s.theirs.is_empty() && s.none == 0 {
        return Err("the case lists no `o2i`, `o2i-none` or `i2o` maps".into());
    }
    Ok(s)
}

/// `rt OUTPUT OPERAND NAME...`: the instructions XLA's runtime variables of the pair's one map
/// come from, in order. Each must be a runtime variable of ours with the same bounds.
fn check_runtime_vars(case: &Case, s: &Sides) -> Result<usize, String> {
    let mut checked = 0;
    for line in case.all("rt") {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [output, operand, names @ ..] = &words[..] else {
            return Err(format!(
                "expected `rt OUTPUT OPERAND NAME...`, found `rt {line}`"
            ));
        };
        let pair: Pair = (
            output.parse().map_err(|_| format!("bad `rt {line}`"))?,
            operand.parse().map_err(|_| format!("bad `rt {line}`"))?,
        );
        let (Some(set), Some([theirs])) = (
            s.ours.get(&("o2i", pair)),
            s.theirs.get(&("o2i", pair)).map(Vec::as_slice),
        ) else {
            return Err(format!(
                "`rt {line}`: the pair needs one map of XLA's and maps of ours"
            ));
        };
        let [access] = &set.accesses[..] else {
            return Err(format!("`rt {line}`: we give {} maps", set.accesses.len()));
        };
        if names.len() != theirs.num_rt {
            return Err(format!(
                "`rt {line}`: XLA's map has {} runtime variables",
                theirs.num_rt
            ));
        }
        let first_rt = access.map.dims().len() + access.map.range_vars().len();
        let our_bounds: Vec<_> = access
            .map
            .all_vars()
            .skip(first_rt)
            .map(|v| v.bounds)
            .collect();
        for (k, name) in names.iter().enumerate() {
            let name = name.trim_start_matches('%');
            let want = theirs.bounds[theirs.num_dims + theirs.num_range + k];
            let i = access
                .runtime
                .iter()
                .position(|r| r.instruction.trim_start_matches('%') == name)
                .ok_or_else(|| format!("{pair:?}: we have no runtime variable from {name}"))?;
            if our_bounds[i] != want {
                return Err(format!(
                    "{pair:?}: the runtime variable from {name} is in {} for us, in {want} for XLA",
                    our_bounds[i]
                ));
            }
            checked += 1;
        }
    }
    Ok(checked)
}

fn check(case: &Case) -> Result<Pass, String> {
    let text = case.require("hlo")?;
    let module = parse_module(text).map_err(|e| format!("we cannot read the HLO: {e}"))?;
    let s = sides(&module, case)?;
    if let Some(why) = case.get("differs").or(case.get("xla-wrong")) {
        return check_difference(&module, case, &s, why);
    }
    check_runtime_vars(case, &s)?;
    let (mut ours_total, mut theirs_total) = (Cost::default(), Cost::default());
    let mut coverage = Coverage::All(0);
    let no_maps = MapSet::default();
    let keys: BTreeSet<_> = s
        .theirs
        .keys()
        .chain(
            s.ours
                .keys()
                .filter(|(d, (from, _))| s.theirs.keys().any(|(e, (f, _))| e == d && f == from)),
        )
        .collect();
    for key in keys.into_iter().filter(|k| !s.unknown.contains(*k)) {
        let (d, pair) = key;
        let set = s.ours.get(key).unwrap_or(&no_maps);
        let theirs = s.theirs.get(key).map_or(&[][..], Vec::as_slice);
        let (c, o, t) = compare_pair(set, theirs)
            .map_err(|e| format!("{d} {pair:?}: {e}\n{}", show_pair(set, theirs)))?;
        coverage = coverage.min(c);
        ours_total = ours_total + o;
        theirs_total = theirs_total + t;
    }
    let Some(verdict) = Verdict::by_cost(ours_total, theirs_total) else {
        return Err(format!(
            "{COSTLIER}: {ours_total:?} against {theirs_total:?}\n{}",
            show_all(&s)
        ));
    };
    Ok(Pass::new(
        verdict,
        format!(
            "{} pairs equivalent to XLA's, {} outputs without operands or pairs without indexing as XLA's, cost {ours_total:?} against {theirs_total:?} ({coverage})",
            s.theirs.len(),
            s.none
        ),
    ))
}

fn show_pair(set: &MapSet, theirs: &[RefMap]) -> String {
    let mut out = String::new();
    for m in live(set) {
        out.push_str(&format!("  ours: {m}\n"));
    }
    for t in theirs {
        out.push_str(&format!(
            "  XLA:  {}\n",
            t.text.split_whitespace().collect::<Vec<_>>().join(" ")
        ));
    }
    out
}

fn show_all(s: &Sides) -> String {
    let no_maps = MapSet::default();
    s.theirs
        .iter()
        .map(|((d, pair), theirs)| {
            format!(
                "{d} {pair:?}:\n{}",
                show_pair(s.ours.get(&(*d, *pair)).unwrap_or(&no_maps), theirs)
            )
        })
        .collect()
}

/// A documented difference: ours must differ from XLA's on some pair, and every output-to-input
/// pair of ours must give exactly the operand elements the brute-force reference reads, at every
/// output element.
fn check_difference(module: &Module, case: &Case, s: &Sides, why: &str) -> Result<Pass, String> {
    let no_maps = MapSet::default();
    // The runtime variables first: they are cheap to compare, the relations may not be.
    let differs = check_runtime_vars(case, s).is_err()
        || s.theirs.iter().any(|(key, theirs)| {
            compare_pair(s.ours.get(key).unwrap_or(&no_maps), theirs).is_err()
        });
    if !differs {
        return Err(format!(
            "the case says we differ ({why}), but ours equals XLA's"
        ));
    }
    if case.get("brute").is_none() {
        let maps: Vec<String> = s
            .theirs
            .keys()
            .filter_map(|key| s.ours.get(key))
            .flat_map(|set| live(set).into_iter().map(|m| m.to_string()))
            .collect();
        return Ok(Pass::new(
            Verdict::Difference,
            format!(
                "differs from XLA's as documented: {why}; ours: {}",
                maps.join("; ")
            ),
        ));
    }
    let checked = brute_force(module, case)?;
    Ok(Pass::new(
        Verdict::Difference,
        format!("differs from XLA's; ours exact at all {checked} output elements: {why}"),
    ))
}

/// Checks our output-to-input maps of the analysed instruction (a fusion: its computation)
/// against the brute-force reference at every output element; returns how many were checked.
fn brute_force(module: &Module, case: &Case) -> Result<usize, String> {
    let (cname, iname) = instruction(module, case)?;
    let ci = module.computation(&cname).ok_or("no computation")?;
    let comp = &module.computations[ci];
    let instr = comp
        .instructions
        .iter()
        .find(|i| i.name == iname)
        .ok_or("no instruction")?;
    let ours = ours(module, case, Direction::OutputToInput)?;
    let out_dims = instr.shape.leaves()[0].dims.clone();
    // The reference: per output element, the (operand, index) elements it reads.
    let truth: BTreeMap<Index, BTreeSet<(usize, Index)>> = if instr.opcode == Opcode::Fusion {
        let called = instr.called("calls");
        let fused = called
            .first()
            .and_then(|n| module.computation(n))
            .ok_or("a fusion without its computation")?;
        let tags = computation_tags(module, fused);
        tags[&0]
            .iter()
            .map(|(idx, t)| {
                (
                    idx.clone(),
                    t.iter().map(|(p, _, i)| (*p, i.clone())).collect(),
                )
            })
            .collect()
    } else {
        all_indices(&out_dims)
            .into_iter()
            .map(|idx| {
                let d = deps(module, comp, instr, 0, &idx);
                (idx, d.into_iter().map(|(j, _, i)| (j, i)).collect())
            })
            .collect()
    };
    for (idx, want) in &truth {
        let mut got = BTreeSet::new();
        for ((output, operand), set) in &ours {
            if *output != 0 {
                continue;
            }
            if let Some(why) = &set.undefined {
                return Err(format!(
                    "our maps to operand {operand} are incomplete: {why}"
                ));
            }
            for m in live(set) {
                for v in image(m, idx)? {
                    got.insert((*operand, v));
                }
            }
        }
        if &got != want {
            let extra: Vec<_> = got.difference(want).take(3).collect();
            let missing: Vec<_> = want.difference(&got).take(3).collect();
            return Err(format!(
                "at output {idx:?} ours reads {extra:?} that the reference does not, misses {missing:?}"
            ));
        }
    }
    Ok(truth.len())
}

/// The indices a map reaches at one point of its dims, over all its symbols.
fn image(m: &IndexingMap, dims: &[i64]) -> Result<BTreeSet<Vec<i64>>, String> {
    let syms: Vec<_> = m
        .all_vars()
        .skip(m.dims().len())
        .map(|v| v.bounds)
        .collect();
    let mut out = BTreeSet::new();
    let coverage = support::compare::for_points(&syms, 1 << 22, 0, |s| {
        if m.contains(dims, s)
            && let Some(v) = m.evaluate(dims, s)
        {
            out.insert(v);
        }
        Ok(())
    })?;
    match coverage {
        Coverage::All(_) => Ok(out),
        Coverage::Sample(_) => Err(format!("too many symbol values to enumerate in {m}")),
    }
}
