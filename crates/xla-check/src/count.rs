//! What the bench counts in a kernel's IR, from its text.
//!
//! * **Divisions and remainders**: the ops `arith.divsi`, `divui`, `remsi`, `remui`,
//!   `floordivsi`, `ceildivsi`, `ceildivui` and LLVM's `llvm.sdiv`, `udiv`, `srem`, `urem`, on
//!   integers or `index` (scalars or vectors of them), one each; plus, in every map still
//!   applied (`affine.apply`, `affine.min`, `affine.max`, `xla.apply_indexing`,
//!   `xla_indexing.apply_indexing`), one per `floordiv`, `ceildiv` and `mod` (and `/`, `%` in
//!   XLA's spelling) of its results: what `lower-affine` would turn into one op each.
//! * **Index ops**: integer arithmetic, in `arith` and `llvm`: add, subtract, multiply, the
//!   divisions and remainders above, min and max, shifts, bitwise ops on integers wider than
//!   `i1` (on `i1` they are predicate logic), comparisons of integers and selects of integers;
//!   plus one per operator (`+`, `-`, `*`, `floordiv`, `ceildiv`, `mod`, `min`, `max`) of every
//!   map still applied, and two per `scf.for` (the compare and the increment it becomes in
//!   `cf`, where XLA's last stage has them). Constants, casts and address arithmetic folded
//!   into `llvm.getelementptr` are not counted.
//! * After LLVM (`count_llvm`): the instructions `udiv`, `sdiv`, `urem` and `srem` of LLVM IR
//!   text.

use std::collections::HashMap;

/// The `arith` and `llvm` ops that divide or take a remainder.
const DIVISIONS: &[&str] = &[
    "arith.divsi",
    "arith.divui",
    "arith.remsi",
    "arith.remui",
    "arith.floordivsi",
    "arith.ceildivsi",
    "arith.ceildivui",
    "llvm.sdiv",
    "llvm.udiv",
    "llvm.srem",
    "llvm.urem",
];

/// The other integer ops counted as index ops (with [`DIVISIONS`]).
const INTEGER_OPS: &[&str] = &[
    "arith.addi",
    "arith.subi",
    "arith.muli",
    "arith.minsi",
    "arith.maxsi",
    "arith.minui",
    "arith.maxui",
    "arith.andi",
    "arith.ori",
    "arith.xori",
    "arith.shli",
    "arith.shrui",
    "arith.shrsi",
    "arith.cmpi",
    "arith.select",
    "llvm.add",
    "llvm.sub",
    "llvm.mul",
    "llvm.and",
    "llvm.or",
    "llvm.xor",
    "llvm.shl",
    "llvm.lshr",
    "llvm.ashr",
    "llvm.icmp",
    "llvm.select",
];

/// The ops that apply a map.
const MAP_OPS: &[&str] = &[
    "affine.apply",
    "affine.min",
    "affine.max",
    "xla.apply_indexing",
    "xla_indexing.apply_indexing",
];

/// What one kernel's IR holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Integer divisions and remainders.
    pub divisions: usize,
    /// Integer (index) ops, divisions and remainders included.
    pub index_ops: usize,
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, other: Counts) {
        self.divisions += other.divisions;
        self.index_ops += other.index_ops;
    }
}

/// Counts the divisions, remainders and index ops of the MLIR `text` (see the module's doc).
pub fn count_mlir(text: &str) -> Counts {
    let aliases = map_aliases(text);
    let mut counts = Counts::default();
    for line in text.lines() {
        let Some(name) = op_name(line) else { continue };
        if name == "scf.for" {
            counts.index_ops += 2;
            continue;
        }
        if MAP_OPS.contains(&name) {
            let map = map_text(line, &aliases);
            let ops = map_operators(map);
            counts.divisions += ops.divisions;
            counts.index_ops += ops.index_ops;
            continue;
        }
        let division = DIVISIONS.contains(&name);
        if !division && !INTEGER_OPS.contains(&name) {
            continue;
        }
        let Some(ty) = line.rsplit(" : ").next().and_then(last_type) else {
            continue;
        };
        let Some(width) = integer_width(ty) else {
            continue;
        };
        if width == 1 && !name.contains("cmp") {
            // Predicate logic and selects of predicates.
            continue;
        }
        counts.index_ops += 1;
        counts.divisions += usize::from(division);
    }
    counts
}

/// The op's name on a line of printed MLIR (`%x = arith.addi ...` or `llvm.store ...`).
fn op_name(line: &str) -> Option<&str> {
    let line = line.trim_start();
    let rest = if line.starts_with('%') {
        line.split_once(" = ")?.1
    } else {
        line
    };
    let name = rest.split([' ', '(', '<']).next()?;
    name.contains('.').then_some(name)
}

/// The last type of a trailing type list (`i1, i64` gives `i64`; `index to i32` gives `i32`).
fn last_type(types: &str) -> Option<&str> {
    let types = types.trim();
    let last = types
        .rsplit([',', ' '])
        .find(|t| !t.is_empty() && *t != "to")?;
    Some(last)
}

/// The bit width of an integer or `index` type (or a vector of them); `None` for any other.
fn integer_width(ty: &str) -> Option<u32> {
    let ty = ty.trim();
    let element = match ty.strip_prefix("vector<") {
        Some(rest) => crate::ir::split_shaped(rest.trim_end_matches('>')).1,
        None => ty,
    };
    if element == "index" {
        return Some(64);
    }
    element.strip_prefix('i')?.parse().ok()
}

/// The `#name = affine_map<...>` aliases of `text`, by name.
fn map_aliases(text: &str) -> HashMap<&str, &str> {
    text.lines()
        .filter_map(|line| {
            let (name, value) = line.trim().split_once(" = ")?;
            (name.starts_with('#') && value.starts_with("affine_map<")).then_some((name, value))
        })
        .collect()
}

/// The text of the map a map op applies: inline (`affine_map<...>`,
/// `#xla.indexing_map<"...">`, `#xla_indexing.map<"...">`) or through an alias.
fn map_text<'a>(line: &'a str, aliases: &HashMap<&'a str, &'a str>) -> &'a str {
    for start in ["affine_map<", "indexing_map<\"", "map<\""] {
        if let Some(at) = line.find(start) {
            return &line[at + start.len()..];
        }
    }
    let alias = line
        .split_whitespace()
        .find(|word| word.starts_with('#'))
        .map(|word| word.split('(').next().unwrap_or(word));
    alias.and_then(|a| aliases.get(a).copied()).unwrap_or("")
}

/// The operators of a map's results: what follows `->` up to the domain or the end of the map.
fn map_operators(map: &str) -> Counts {
    let results = map.split_once("->").map_or("", |(_, r)| r);
    let results = results
        .split(", domain:")
        .next()
        .unwrap_or(results)
        .split(['"', '>'])
        .next()
        .unwrap_or(results);
    let mut counts = Counts::default();
    for word in results.split(|c: char| !(c.is_alphanumeric() || "+-*/%".contains(c))) {
        let (division, operator) = match word {
            "floordiv" | "ceildiv" | "mod" | "/" | "%" => (true, true),
            "+" | "*" | "min" | "max" => (false, true),
            // A minus between operands (a leading one negates a constant or a product).
            "-" => (false, true),
            _ => {
                let operators = word.chars().filter(|c| "+*".contains(*c)).count();
                counts.index_ops += operators;
                (false, false)
            }
        };
        counts.divisions += usize::from(division);
        counts.index_ops += usize::from(operator);
    }
    counts
}

/// Counts `udiv`, `sdiv`, `urem` and `srem` instructions (scalar or vector) in LLVM IR text.
pub fn count_llvm(text: &str) -> usize {
    text.lines()
        .filter(|line| {
            let line = line.trim_start();
            line.starts_with('%')
                && line.split_once(" = ").is_some_and(|(_, rest)| {
                    let op = rest.split_whitespace().next().unwrap_or("");
                    matches!(op, "udiv" | "sdiv" | "urem" | "srem")
                })
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// XLA's last MLIR stage of a pad with interior padding (trimmed from a real dump).
    const XLA_PAD: &str = "
    %1 = arith.cmpi slt, %0, %c12 : index
    cf.cond_br %1, ^bb2, ^bb10
  ^bb2:  // pred: ^bb1
    %2 = arith.addi %0, %c1 overflow<nsw> : index
    %3 = arith.remui %2, %c2 : index
    %4 = arith.cmpi eq, %3, %c0 : index
    %7 = arith.andi %5, %6 : i1
    %12 = arith.divui %2, %c2 : index
    %16 = arith.index_castui %15 : index to i64
    %17 = llvm.getelementptr inbounds %arg0[0, %16] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<35 x f32>
    %18 = llvm.load %17 invariant : !llvm.ptr -> f32
    %24 = arith.addf %23, %17 : f32
    %27 = llvm.mul %22, %4 : i64
    %30 = llvm.urem %22, %4 : i64
";

    #[test]
    fn divisions_and_index_ops_of_arith_and_llvm() {
        assert_eq!(
            count_mlir(XLA_PAD),
            Counts {
                divisions: 3,
                // cmpi, addi, remui, cmpi, divui, llvm.mul, llvm.urem; not the i1 andi, the
                // cast, the float add.
                index_ops: 7,
            }
        );
    }

    #[test]
    fn maps_still_applied_count_their_operators() {
        let text = "#map = affine_map<(d0) -> (d0 floordiv 3 + d0 mod 3)>
    %0 = affine.apply #map(%a)
    %1 = xla.apply_indexing #xla.indexing_map<\"(d0, d1) -> ((d0 - 1) / 2, d1 * 4), domain: d0 in [1, 9], d1 in [0, 6]\">(%a, %b)
    %2 = arith.select %c, %x, %y : i1
    %3 = arith.select %c, %x, %y : index
    %4 = scf.for %i = %c0 to %c8 step %c1 iter_args(%t = %u) -> (tensor<8xf32>) {
";
        assert_eq!(
            count_mlir(text),
            Counts {
                // floordiv, mod; /.
                divisions: 3,
                // floordiv, +, mod; -, /, *; the index select; the loop's compare and increment.
                index_ops: 9,
            }
        );
    }

    #[test]
    fn vectors_of_integers_count_and_floats_do_not() {
        let text = "
    %0 = arith.remui %a, %b : vector<4xindex>
    %1 = arith.addf %x, %y : vector<4xf32>
    %2 = llvm.icmp \"slt\" %a, %b : i64
";
        assert_eq!(
            count_mlir(text),
            Counts {
                divisions: 1,
                index_ops: 2
            }
        );
    }

    #[test]
    fn llvm_ir_divisions() {
        let ll = "  %5 = udiv i64 %4, 3\n  %6 = urem exact i64 %4, 3\n  %7 = add i64 %5, 1\n  %8 = sdiv <4 x i32> %a, %b\n  ; udiv in a comment\n";
        assert_eq!(count_llvm(ll), 3);
    }
}
