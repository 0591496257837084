//! Random functions of index arithmetic, with their values.
//!
//! A program is one `func.func @f` whose arguments (`index` or `i32`) carry small `xla.range`
//! domains and whose body is a random chain of ops: `arith` arithmetic (wrapping, as MLIR's
//! does, or with `nsw` or `nuw`, undefined where it would wrap signed or unsigned), divisions
//! and remainders of every kind by constants, comparisons and selects, `min`/`max`, casts,
//! selects of `true` and `false` read back by `extui`, arithmetic and `min`/`max` of booleans
//! (where true is -1) read back by `extsi` or `extui`, `affine.apply`/`min`/`max`/`if` over
//! random quasi-affine maps,
//! `xla_indexing.apply_indexing` (sometimes with a domain that excludes some points, where its
//! results are undefined) and `scf.if` with yields. Operands favour the latest values (chains)
//! and otherwise any earlier one (values with several uses). The generator computes every value
//! at every point of the domain itself, so the expected results are known without MLIR.

use std::fmt::Write as _;

use xla_indexing_core::{
    Expr, IndexingMap, Interval, Var,
    interval::{as_unsigned, wrap_signed},
    print::DefaultNames,
};

use crate::rng::{ExprShape, SplitMix64};

/// A generated function and its values.
#[derive(Clone, Debug)]
pub struct Program {
    /// The module's text.
    pub text: String,
    /// The function's name.
    pub function: String,
    /// Every point of the arguments' domains.
    pub points: Vec<Vec<i64>>,
    /// At each point, each result's value (`None` where it is undefined).
    pub expected: Vec<Vec<Option<i64>>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Index,
    I32,
    I1,
}

impl Ty {
    fn width(self) -> u32 {
        match self {
            Ty::Index => 64,
            Ty::I32 => 32,
            Ty::I1 => 1,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Ty::Index => "index",
            Ty::I32 => "i32",
            Ty::I1 => "i1",
        }
    }
}

/// One SSA value: its name, type, and value at each point.
struct Val {
    name: String,
    ty: Ty,
    at: Vec<Option<i128>>,
    /// Whether affine ops accept it as a symbol (a constant, or a value defined at the top of
    /// the function).
    top_level: bool,
}

/// The value of `e` at `dims` as affine maps compute it: undefined where a value on the way
/// overflows 64 bits.
fn exact(e: &Expr, dims: &[i64]) -> Option<i128> {
    e.eval(dims, &[]).map(i128::from)
}

/// What the random maps are made of.
const SHAPE: ExprShape = ExprShape {
    constants: (-20, 40),
    coefficients: &[1, 1, 1, 2, 3, -1, -2, 4, 8, 16],
    divisors: &[2, 3, 4, 5, 8, 16],
    leaf_odds: 3,
    constant_odds: 5,
    sum_terms: (2, 3),
    weights: [3, 2, 2, 1, 1, 0, 0, 0, 0],
};

struct Generator {
    rng: SplitMix64,
    points: Vec<Vec<i64>>,
    vals: Vec<Val>,
    /// Indices of the values visible where ops are being emitted.
    visible: Vec<usize>,
    lines: Vec<String>,
    depth: usize,
}

/// A random program from `seed`.
pub fn random_program(seed: u64) -> Program {
    let mut rng = SplitMix64::new(seed);
    let num_args = rng.range(1, 3) as usize;
    let args: Vec<(Ty, i64, i64)> = (0..num_args)
        .map(|_| {
            let ty = if rng.chance(1, 3) { Ty::I32 } else { Ty::Index };
            let lo = match rng.range(0, 5) {
                0..=2 => 0,
                3 => rng.range(-9, -1),
                4 => rng.range(1, 30),
                // Near either end of i32, where arithmetic wraps (or, with `nsw`, is poison).
                _ if ty == Ty::I32 => *rng.pick(&[(1 << 31) - 12, -(1 << 31)]),
                _ => rng.range(0, 100),
            };
            (ty, lo, lo + rng.range(0, 11))
        })
        .collect();
    let mut points: Vec<Vec<i64>> = vec![Vec::new()];
    for (_, lo, hi) in &args {
        points = points
            .into_iter()
            .flat_map(|p| {
                (*lo..=*hi).map(move |x| {
                    let mut q = p.clone();
                    q.push(x);
                    q
                })
            })
            .collect();
    }
    let mut generator = Generator {
        rng,
        points,
        vals: Vec::new(),
        visible: Vec::new(),
        lines: Vec::new(),
        depth: 1,
    };
    let mut signature = Vec::new();
    for (i, (ty, lo, hi)) in args.iter().enumerate() {
        let name = format!("%a{i}");
        signature.push(format!(
            "{name}: {t} {{xla.range = [{lo} : {t}, {hi} : {t}]}}",
            t = ty.name()
        ));
        let at = generator
            .points
            .iter()
            .map(|p| Some(i128::from(p[i])))
            .collect();
        generator.add(name, *ty, at);
    }
    let ops = generator.rng.range(4, 16);
    for _ in 0..ops {
        generator.op();
    }
    generator.finish(&signature)
}

impl Generator {
    fn add(&mut self, name: String, ty: Ty, at: Vec<Option<i128>>) -> usize {
        let at = at
            .into_iter()
            .map(|v| v.map(|v| wrap_signed(v, ty.width())))
            .collect();
        self.vals.push(Val {
            name,
            ty,
            at,
            top_level: self.depth == 1,
        });
        self.visible.push(self.vals.len() - 1);
        self.vals.len() - 1
    }

    fn fresh(&self) -> String {
        format!("%v{}", self.vals.len())
    }

    fn emit(&mut self, line: String) {
        self.lines
            .push(format!("{}{line}", "  ".repeat(self.depth)));
    }

    /// A visible value of type `ty` (a constant if there is none): half the time the latest.
    fn operand(&mut self, ty: Ty) -> usize {
        let candidates: Vec<usize> = self
            .visible
            .iter()
            .copied()
            .filter(|&i| self.vals[i].ty == ty)
            .collect();
        match candidates.last() {
            None => {
                let c = self.rng.range(0, 9);
                self.constant(ty, c)
            }
            Some(&last) if self.rng.chance(1, 2) => last,
            Some(_) => *self.rng.pick(&candidates),
        }
    }

    /// A visible `index` value that affine ops accept (defined at the top of the function).
    fn affine_operand(&mut self) -> usize {
        let candidates: Vec<usize> = self
            .visible
            .iter()
            .copied()
            .filter(|&i| self.vals[i].ty == Ty::Index && self.vals[i].top_level)
            .collect();
        match candidates.last() {
            Some(&last) if self.rng.chance(1, 2) => last,
            Some(_) => *self.rng.pick(&candidates),
            None => {
                let c = self.rng.range(0, 9);
                self.constant(Ty::Index, c)
            }
        }
    }

    fn constant(&mut self, ty: Ty, c: i64) -> usize {
        let name = self.fresh();
        self.emit(format!("{name} = arith.constant {c} : {}", ty.name()));
        let at = vec![Some(i128::from(c)); self.points.len()];
        let i = self.add(name, ty, at);
        self.vals[i].top_level = true;
        i
    }

    /// `f` at every point of the values `operands`; undefined where one of them is.
    fn pointwise(
        &self,
        operands: &[usize],
        f: impl Fn(&[i128]) -> Option<i128>,
    ) -> Vec<Option<i128>> {
        (0..self.points.len())
            .map(|p| {
                let args: Option<Vec<i128>> =
                    operands.iter().map(|&i| self.vals[i].at[p]).collect();
                f(&args?)
            })
            .collect()
    }

    fn int_type(&mut self) -> Ty {
        if self.rng.chance(1, 4) {
            Ty::I32
        } else {
            Ty::Index
        }
    }

    fn op(&mut self) {
        match self.rng.range(0, 99) {
            0..=15 => self.add_sub(),
            16..=23 => self.mul(),
            24..=39 => self.division(),
            40..=42 => self.compare_select(),
            43..=45 => self.boolean_select(),
            46..=51 => self.min_max(),
            52..=55 => self.cast(),
            56..=69 => self.affine_apply(),
            70..=73 => self.affine_min_max(),
            74..=83 => self.apply_indexing(),
            84..=91 if self.depth < 3 => self.scf_if(),
            92..=95 if self.depth == 1 => self.affine_if(),
            96..=97 => self.boolean_arithmetic(),
            _ => {
                let ty = self.int_type();
                let c = *self.rng.pick(&[0, 1, 2, 3, 4, 7, 8, 16, 32, -1, -3]);
                self.constant(ty, c);
            }
        }
    }

    fn add_sub(&mut self) {
        let ty = self.int_type();
        let (a, b) = (self.operand(ty), self.operand(ty));
        if self.rng.chance(1, 2) {
            self.wrapping("subi", a, b, ty, i128::checked_sub);
        } else {
            self.wrapping("addi", a, b, ty, i128::checked_add);
        }
    }

    /// Emits `arith.<op>` (`addi`, `subi` or `muli`) of `a` and `b`, exactly `f` (`None` where
    /// it overflows `i128`): half the time without flags, wrapping; a third of the time with
    /// `nsw`, whose value is then undefined (poison) where the result leaves the type's signed
    /// range; otherwise with `nuw`, undefined where `f` of the operands read unsigned leaves the
    /// unsigned range. Its index.
    fn wrapping(
        &mut self,
        op: &str,
        a: usize,
        b: usize,
        ty: Ty,
        f: fn(i128, i128) -> Option<i128>,
    ) -> usize {
        let width = ty.width();
        match self.rng.range(0, 5) {
            0 | 1 => self.binary_with(op, " overflow<nsw>", a, b, ty, move |x, y| {
                f(x, y).filter(|&exact| wrap_signed(exact, width) == exact)
            }),
            2 => self.binary_with(op, " overflow<nuw>", a, b, ty, move |x, y| {
                let unsigned = f(as_unsigned(x, width), as_unsigned(y, width))?;
                (as_unsigned(unsigned, width) == unsigned)
                    .then(|| f(x, y))
                    .flatten()
            }),
            _ => self.binary(op, a, b, ty, f),
        }
    }

    /// Emits `arith.<op>` of `a` and `b`, of type `ty`, whose value at each point is `f` of
    /// theirs; its index.
    fn binary(
        &mut self,
        op: &str,
        a: usize,
        b: usize,
        ty: Ty,
        f: impl Fn(i128, i128) -> Option<i128>,
    ) -> usize {
        self.binary_with(op, "", a, b, ty, f)
    }

    /// [`Generator::binary`] with `attributes` after the operands (` overflow<nsw>`).
    fn binary_with(
        &mut self,
        op: &str,
        attributes: &str,
        a: usize,
        b: usize,
        ty: Ty,
        f: impl Fn(i128, i128) -> Option<i128>,
    ) -> usize {
        let name = self.fresh();
        let line = format!(
            "{name} = arith.{op} {}, {}{attributes} : {}",
            self.vals[a].name,
            self.vals[b].name,
            ty.name()
        );
        self.emit(line);
        let at = self.pointwise(&[a, b], |v| f(v[0], v[1]));
        self.add(name, ty, at)
    }

    fn mul(&mut self) {
        let ty = self.int_type();
        let a = self.operand(ty);
        let k = *self.rng.pick(&[2, 3, 4, 8, 16, 20, -1, -2, 45]);
        let kc = self.constant(ty, k);
        self.wrapping("muli", a, kc, ty, i128::checked_mul);
    }

    fn division(&mut self) {
        const OPS: [&str; 6] = [
            "divui",
            "remui",
            "divsi",
            "remsi",
            "floordivsi",
            "ceildivsi",
        ];
        let ty = self.int_type();
        let op = *self.rng.pick(&OPS);
        let a = self.operand(ty);
        let k: i64 = if op.ends_with("ui") || self.rng.chance(3, 4) {
            *self.rng.pick(&[2, 3, 4, 5, 6, 8, 9, 16, 20, 32, 45])
        } else {
            *self.rng.pick(&[-2, -3, -4, -8])
        };
        let kc = self.constant(ty, k);
        let w = ty.width();
        self.binary(op, a, kc, ty, |x, k| {
            let (ux, uk) = (as_unsigned(x, w), as_unsigned(k, w));
            Some(match op {
                "divui" => ux / uk,
                "remui" => ux % uk,
                "divsi" => x / k,
                "remsi" => x % k,
                "floordivsi" => x / k - i128::from(x % k != 0 && (x < 0) != (k < 0)),
                _ => x / k + i128::from(x % k != 0 && (x < 0) == (k < 0)),
            })
        });
    }

    /// A comparison of two values of `ty`: its index.
    fn compare(&mut self, ty: Ty) -> usize {
        const PREDICATES: [&str; 10] = [
            "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
        ];
        let (a, b) = (self.operand(ty), self.operand(ty));
        let p = self.rng.range(0, 9) as usize;
        let name = self.fresh();
        let line = format!(
            "{name} = arith.cmpi {}, {}, {} : {}",
            PREDICATES[p],
            self.vals[a].name,
            self.vals[b].name,
            ty.name()
        );
        self.emit(line);
        let w = ty.width();
        let at = self.pointwise(&[a, b], |v| {
            let (x, y) = (v[0], v[1]);
            let (ux, uy) = (as_unsigned(x, w), as_unsigned(y, w));
            let holds = [
                x == y,
                x != y,
                x < y,
                x <= y,
                x > y,
                x >= y,
                ux < uy,
                ux <= uy,
                ux > uy,
                ux >= uy,
            ][p];
            Some(i128::from(holds))
        });
        self.add(name, Ty::I1, at)
    }

    fn compare_select(&mut self) {
        let ty = self.int_type();
        let c = self.compare(ty);
        let (a, b) = (self.operand(ty), self.operand(ty));
        self.select(c, a, b, ty);
    }

    /// Emits `arith.select` of `c` between `a` and `b` (of type `ty`); its index. Only the
    /// operand selected must be defined.
    fn select(&mut self, c: usize, a: usize, b: usize, ty: Ty) -> usize {
        let name = self.fresh();
        let line = format!(
            "{name} = arith.select {}, {}, {} : {}",
            self.vals[c].name,
            self.vals[a].name,
            self.vals[b].name,
            ty.name()
        );
        self.emit(line);
        let at = (0..self.points.len())
            .map(|p| {
                let chosen = if self.vals[c].at[p]? != 0 { a } else { b };
                self.vals[chosen].at[p]
            })
            .collect();
        self.add(name, ty, at)
    }

    /// A select between `true` and `false` on a comparison (so its condition or the negation),
    /// read back as an integer by `extui`.
    fn boolean_select(&mut self) {
        let ty = self.int_type();
        let c = self.compare(ty);
        let (t, f) = (self.boolean(true), self.boolean(false));
        let (a, b) = if self.rng.chance(1, 2) {
            (t, f)
        } else {
            (f, t)
        };
        let selected = self.select(c, a, b, Ty::I1);
        let name = self.fresh();
        let line = format!(
            "{name} = arith.extui {} : i1 to i32",
            self.vals[selected].name
        );
        self.emit(line);
        let at = self.pointwise(&[selected], |v| Some(i128::from(v[0] != 0)));
        self.add(name, Ty::I32, at);
    }

    /// Two booleans (comparisons, or `true` or `false`) combined by `arith` arithmetic or
    /// `min`/`max` on `i1`, where true is -1 signed and 1 unsigned (`addi` is `xor`, `minsi`
    /// is `or`), read back as an integer by `extsi` (true is -1) or `extui`.
    fn boolean_arithmetic(&mut self) {
        let operand = |this: &mut Self| {
            if this.rng.chance(1, 4) {
                let value = this.rng.chance(1, 2);
                this.boolean(value)
            } else {
                let ty = this.int_type();
                this.compare(ty)
            }
        };
        let (a, b) = (operand(self), operand(self));
        let op = *self
            .rng
            .pick(&["addi", "subi", "muli", "minsi", "maxsi", "minui", "maxui"]);
        let combined = self.binary(op, a, b, Ty::I1, |x, y| {
            Some(match op {
                "addi" | "subi" => x ^ y,
                "muli" | "maxsi" | "minui" => x & y,
                _ => x | y,
            })
        });
        let signed = self.rng.chance(1, 2);
        let name = self.fresh();
        let line = format!(
            "{name} = arith.{} {} : i1 to i32",
            if signed { "extsi" } else { "extui" },
            self.vals[combined].name
        );
        self.emit(line);
        // Booleans are held as MLIR computes them: true is -1.
        let at = self.pointwise(&[combined], |v| {
            Some(if signed { v[0] } else { i128::from(v[0] != 0) })
        });
        self.add(name, Ty::I32, at);
    }

    /// `arith.constant true` or `false`; its index.
    fn boolean(&mut self, value: bool) -> usize {
        let name = self.fresh();
        self.emit(format!("{name} = arith.constant {value}"));
        let at = vec![Some(i128::from(value)); self.points.len()];
        self.add(name, Ty::I1, at)
    }

    fn min_max(&mut self) {
        let ty = self.int_type();
        let (a, b) = (self.operand(ty), self.operand(ty));
        let op = *self.rng.pick(&["minsi", "maxsi", "minui", "maxui"]);
        let w = ty.width();
        self.binary(op, a, b, ty, |x, y| {
            let x_first = match op {
                "minsi" => x <= y,
                "maxsi" => x >= y,
                "minui" => as_unsigned(x, w) <= as_unsigned(y, w),
                _ => as_unsigned(x, w) >= as_unsigned(y, w),
            };
            Some(if x_first { x } else { y })
        });
    }

    fn cast(&mut self) {
        let (from, to) = if self.rng.chance(1, 2) {
            (Ty::I32, Ty::Index)
        } else {
            (Ty::Index, Ty::I32)
        };
        let a = self.operand(from);
        let zero_extend = self.rng.chance(1, 3);
        let op = if zero_extend {
            "index_castui"
        } else {
            "index_cast"
        };
        let name = self.fresh();
        let line = format!(
            "{name} = arith.{op} {} : {} to {}",
            self.vals[a].name,
            from.name(),
            to.name()
        );
        self.emit(line);
        let at = self.pointwise(&[a], |v| {
            Some(if zero_extend && to.width() > from.width() {
                as_unsigned(v[0], from.width())
            } else {
                v[0]
            })
        });
        self.add(name, to, at);
    }

    /// 1 to 3 `index` operands and random expressions over them.
    fn affine_operands(&mut self, results: usize) -> (Vec<usize>, Vec<Expr>) {
        let n = self.rng.range(1, 3) as usize;
        let operands: Vec<usize> = (0..n).map(|_| self.affine_operand()).collect();
        let exprs = (0..results)
            .map(|_| SHAPE.expr(&mut self.rng, 2, n as u32, 0))
            .collect();
        (operands, exprs)
    }

    fn map_text(num_dims: usize, exprs: &[Expr]) -> String {
        let dims: Vec<String> = (0..num_dims).map(|i| format!("d{i}")).collect();
        let results: Vec<String> = exprs
            .iter()
            .map(|e| e.display(&DefaultNames).to_string())
            .collect();
        format!(
            "affine_map<({}) -> ({})>",
            dims.join(", "),
            results.join(", ")
        )
    }

    fn names(&self, operands: &[usize]) -> String {
        operands
            .iter()
            .map(|&i| self.vals[i].name.clone())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The value of `e` at each point, its dimensions being `operands`.
    fn eval(&self, e: &Expr, operands: &[usize]) -> Vec<Option<i128>> {
        self.pointwise(operands, |v| {
            let dims: Vec<i64> = v
                .iter()
                .map(|&x| i64::try_from(x).ok())
                .collect::<Option<_>>()?;
            exact(e, &dims)
        })
    }

    fn affine_apply(&mut self) {
        let (operands, exprs) = self.affine_operands(1);
        let name = self.fresh();
        let line = format!(
            "{name} = affine.apply {}({})",
            Self::map_text(operands.len(), &exprs),
            self.names(&operands)
        );
        self.emit(line);
        let at = self.eval(&exprs[0], &operands);
        self.add(name, Ty::Index, at);
    }

    fn affine_min_max(&mut self) {
        let results = self.rng.range(2, 3) as usize;
        let (operands, exprs) = self.affine_operands(results);
        let is_min = self.rng.chance(1, 2);
        let name = self.fresh();
        let line = format!(
            "{name} = affine.{} {}({})",
            if is_min { "min" } else { "max" },
            Self::map_text(operands.len(), &exprs),
            self.names(&operands)
        );
        self.emit(line);
        let each: Vec<Vec<Option<i128>>> = exprs.iter().map(|e| self.eval(e, &operands)).collect();
        let at = (0..self.points.len())
            .map(|p| {
                let values: Option<Vec<i128>> = each.iter().map(|v| v[p]).collect();
                let values = values?;
                if is_min {
                    values.into_iter().min()
                } else {
                    values.into_iter().max()
                }
            })
            .collect();
        self.add(name, Ty::Index, at);
    }

    fn apply_indexing(&mut self) {
        let n = self.rng.range(1, 2) as usize;
        let operands: Vec<usize> = (0..n).map(|_| self.operand(Ty::Index)).collect();
        let results = self.rng.range(1, 2) as usize;
        let exprs: Vec<Expr> = (0..results)
            .map(|_| SHAPE.expr(&mut self.rng, 2, n as u32, 0))
            .collect();
        // Each dimension's domain: the values its operand takes, sometimes less.
        let mut dims = Vec::new();
        for &i in &operands {
            let defined: Vec<i128> = self.vals[i].at.iter().flatten().copied().collect();
            let (lo, hi) = match (defined.iter().min(), defined.iter().max()) {
                (Some(&lo), Some(&hi)) => (lo as i64, hi as i64),
                _ => (0, 0),
            };
            let lo = if lo < hi && self.rng.chance(1, 5) {
                lo + 1
            } else {
                lo
            };
            dims.push(Var::new(Interval::new(lo, hi)));
        }
        let mut map = IndexingMap::new(exprs.clone(), dims, Vec::new(), Vec::new());
        if self.rng.chance(1, 4) {
            let k = *self.rng.pick(&[2, 3]);
            if let Ok(c) = Expr::dim(0).modulo(k) {
                map.add_constraint(c, Interval::point(0));
            }
        }
        if map.is_known_empty() {
            return;
        }
        let first = self.vals.len();
        let names: Vec<String> = (0..results).map(|r| format!("%v{}", first + r)).collect();
        let lhs = if results == 1 {
            names[0].clone()
        } else {
            format!("%v{first}:{results}")
        };
        let types = vec!["index"; results].join(", ");
        let line = format!(
            "{lhs} = xla_indexing.apply_indexing #xla_indexing.map<\"{map}\">({}) : {types}",
            self.names(&operands)
        );
        self.emit(line);
        for (r, e) in exprs.iter().enumerate() {
            let at = self.pointwise(&operands, |v| {
                let dims: Vec<i64> = v
                    .iter()
                    .map(|&x| i64::try_from(x).ok())
                    .collect::<Option<_>>()?;
                if !map.contains(&dims, &[]) {
                    return None;
                }
                exact(e, &dims)
            });
            let name = if results == 1 {
                names[0].clone()
            } else {
                format!("%v{first}#{r}")
            };
            self.add(name, Ty::Index, at);
        }
    }

    /// Emits a branch body: a few ops, then a yield of a value of `ty`; its value at each point.
    fn branch(&mut self, ty: Ty, yield_op: &str) -> Vec<Option<i128>> {
        self.depth += 1;
        let visible = self.visible.len();
        for _ in 0..self.rng.range(0, 3) {
            self.op();
        }
        let y = self.operand(ty);
        let line = format!("{yield_op} {} : {}", self.vals[y].name, ty.name());
        self.emit(line);
        let at = self.vals[y].at.clone();
        self.visible.truncate(visible);
        self.depth -= 1;
        at
    }

    /// The value of an `if` that yields `then` where `taken` and `otherwise` elsewhere.
    fn merge(
        taken: &[Option<i128>],
        then: &[Option<i128>],
        otherwise: &[Option<i128>],
    ) -> Vec<Option<i128>> {
        (0..taken.len())
            .map(|p| match taken[p]? {
                0 => otherwise[p],
                _ => then[p],
            })
            .collect()
    }

    fn scf_if(&mut self) {
        let cmp_ty = self.int_type();
        let c = self.compare(cmp_ty);
        let ty = self.int_type();
        let name = self.fresh();
        // The name is taken now, so that the branches' values come after it.
        self.vals.push(Val {
            name: name.clone(),
            ty,
            at: Vec::new(),
            top_level: self.depth == 1,
        });
        let index = self.vals.len() - 1;
        let line = format!(
            "{name} = scf.if {} -> ({}) {{",
            self.vals[c].name,
            ty.name()
        );
        self.emit(line);
        let then = self.branch(ty, "scf.yield");
        self.emit("} else {".into());
        let otherwise = self.branch(ty, "scf.yield");
        self.emit("}".into());
        let at = Self::merge(&self.vals[c].at, &then, &otherwise);
        self.vals[index].at = at
            .into_iter()
            .map(|v| v.map(|v| wrap_signed(v, ty.width())))
            .collect();
        self.visible.push(index);
    }

    fn affine_if(&mut self) {
        let n = self.rng.range(1, 2) as usize;
        let operands: Vec<usize> = (0..n).map(|_| self.affine_operand()).collect();
        let constraints: Vec<(Expr, bool)> = (0..self.rng.range(1, 2))
            .map(|_| {
                (
                    SHAPE.expr(&mut self.rng, 2, n as u32, 0),
                    self.rng.chance(1, 4),
                )
            })
            .collect();
        let taken = self.pointwise(&operands, |v| {
            let dims: Vec<i64> = v
                .iter()
                .map(|&x| i64::try_from(x).ok())
                .collect::<Option<_>>()?;
            let mut holds = true;
            for (e, is_eq) in &constraints {
                let x = exact(e, &dims)?;
                holds &= if *is_eq { x == 0 } else { x >= 0 };
            }
            Some(i128::from(holds))
        });
        let dims: Vec<String> = (0..n).map(|i| format!("d{i}")).collect();
        let set: Vec<String> = constraints
            .iter()
            .map(|(e, is_eq)| {
                format!(
                    "{} {} 0",
                    e.display(&DefaultNames),
                    if *is_eq { "==" } else { ">=" }
                )
            })
            .collect();
        let name = self.fresh();
        self.vals.push(Val {
            name: name.clone(),
            ty: Ty::Index,
            at: Vec::new(),
            top_level: true,
        });
        let index = self.vals.len() - 1;
        let line = format!(
            "{name} = affine.if affine_set<({}) : ({})>({}) -> index {{",
            dims.join(", "),
            set.join(", "),
            self.names(&operands)
        );
        self.emit(line);
        let then = self.branch(Ty::Index, "affine.yield");
        self.emit("} else {".into());
        let otherwise = self.branch(Ty::Index, "affine.yield");
        self.emit("}".into());
        self.vals[index].at = Self::merge(&taken, &then, &otherwise);
        self.visible.push(index);
    }

    /// The module, returning the last value and about a third of the others.
    fn finish(mut self, signature: &[String]) -> Program {
        let candidates: Vec<usize> = self
            .visible
            .iter()
            .copied()
            .filter(|&i| self.vals[i].ty != Ty::I1)
            .collect();
        let mut returned: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|_| self.rng.chance(1, 3))
            .collect();
        if let Some(&last) = candidates.last()
            && !returned.contains(&last)
        {
            returned.push(last);
        }
        let types: Vec<&str> = returned.iter().map(|&i| self.vals[i].ty.name()).collect();
        let mut text = String::new();
        let _ = writeln!(
            text,
            "func.func @f({}) -> ({}) {{",
            signature.join(", "),
            types.join(", ")
        );
        for line in &self.lines {
            let _ = writeln!(text, "{line}");
        }
        let _ = writeln!(
            text,
            "  return {} : {}\n}}",
            self.names(&returned),
            types.join(", ")
        );
        let expected = (0..self.points.len())
            .map(|p| {
                returned
                    .iter()
                    .map(|&i| self.vals[i].at[p].and_then(|v| i64::try_from(v).ok()))
                    .collect()
            })
            .collect();
        Program {
            text,
            function: "f".into(),
            points: self.points,
            expected,
        }
    }
}
