//! Shapes for [`crate::interp`]'s vectors (XLA's tiled code) and tiles (ours): shaped types,
//! row-major positions, and the shape ops of the tiled emitter's kernels (transpose, broadcast,
//! iota) on elements of any kind.

/// A shaped type's dimensions and element type: `vector<8xi32>`, `tensor<2x4xf32>`,
/// `tensor<i32>`, `memref<3x7xf32>` (without a layout or encoding); `None` for others.
pub fn shaped(ty: &str) -> Option<(Vec<i64>, &str)> {
    let ty = ty.trim();
    let inner = ["vector<", "tensor<", "memref<"]
        .iter()
        .find_map(|p| ty.strip_prefix(p))?
        .strip_suffix('>')?;
    if inner.contains(',') || inner.contains('<') {
        return None;
    }
    let (dims, element) = crate::ir::split_shaped(inner);
    let dims = dims
        .iter()
        .map(|d| d.parse().ok())
        .collect::<Option<Vec<i64>>>()?;
    Some((dims, element))
}

/// The shape of an LLVM array of vectors, `!llvm.array<4 x array<1 x vector<8xf32>>>`, as
/// one vector's (`[4, 1, 8]`).
pub fn aggregate(ty: &str) -> Option<Vec<i64>> {
    let mut shape = Vec::new();
    let mut rest = ty.trim().strip_prefix("!llvm.")?;
    while let Some(inner) = rest.strip_prefix("array<") {
        let (n, element) = inner.split_once(" x ")?;
        shape.push(n.parse().ok()?);
        rest = element.strip_suffix('>')?;
    }
    shape.extend(shaped(rest)?.0);
    Some(shape)
}

/// `ty` with every shaped type replaced by its element type (`vector<8xi32> to vector<8xi64>`
/// gives `i32 to i64`).
pub fn element_types(ty: &str) -> String {
    ty.split(' ')
        .map(|word| {
            let core = word.trim_end_matches(',');
            match shaped(core) {
                Some((_, element)) => format!("{element}{}", &word[core.len()..]),
                None => word.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The number of elements of `shape`.
pub fn count(shape: &[i64]) -> usize {
    shape.iter().product::<i64>().max(0) as usize
}

/// The row-major position of the element at `index` of `shape`.
pub fn flat(index: &[i64], shape: &[i64]) -> i64 {
    index.iter().zip(shape).fold(0, |at, (i, n)| at * n + i)
}

/// The index of the element at row-major position `at` of `shape`.
pub fn unflat(mut at: i64, shape: &[i64]) -> Vec<i64> {
    let mut index = vec![0; shape.len()];
    for (i, n) in index.iter_mut().zip(shape).rev() {
        *i = at % n;
        at /= n;
    }
    index
}

/// `elems` of `shape` transposed by `permutation` (result dimension k is operand dimension
/// `permutation[k]`): the result's shape and elements.
pub fn transpose<T: Clone>(
    shape: &[i64],
    elems: &[T],
    permutation: &[usize],
) -> (Vec<i64>, Vec<T>) {
    let out: Vec<i64> = permutation.iter().map(|&p| shape[p]).collect();
    let values = (0..count(&out) as i64)
        .map(|at| {
            let index = unflat(at, &out);
            let mut source = vec![0; shape.len()];
            for (k, &p) in permutation.iter().enumerate() {
                source[p] = index[k];
            }
            elems[flat(&source, shape) as usize].clone()
        })
        .collect();
    (out, values)
}

/// `elems` of `shape` broadcast to `out` with operand dimension k as result dimension
/// `dims[k]` (a dimension of size 1 is repeated).
pub fn broadcast<T: Clone>(shape: &[i64], elems: &[T], dims: &[usize], out: &[i64]) -> Vec<T> {
    (0..count(out) as i64)
        .map(|at| {
            let index = unflat(at, out);
            let source: Vec<i64> = dims
                .iter()
                .zip(shape)
                .map(|(&d, &n)| if n == 1 { 0 } else { index[d] })
                .collect();
            elems[flat(&source, shape) as usize].clone()
        })
        .collect()
}

/// The values of an iota along dimension `dim` of `shape`.
pub fn iota(shape: &[i64], dim: usize) -> Vec<i64> {
    (0..count(shape) as i64)
        .map(|at| unflat(at, shape)[dim])
        .collect()
}

/// The items of a `dense<...>` payload in `text`, flattened (`dense<[[1, 2], [3, 4]]>` gives
/// 1, 2, 3, 4; a splat `dense<0.0>` gives one item).
pub fn dense_items(text: &str) -> Option<Vec<&str>> {
    let start = text.find("dense<")? + "dense<".len();
    let end = crate::ir::matching(text, start - 1)?;
    Some(
        text[start..end]
            .split([',', '[', ']'])
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .collect(),
    )
}

/// The values of the attribute `name = array<i64: a, b>` (or `array<i64>`, none) in `text`.
pub fn array_attr(text: &str, name: &str) -> Option<Vec<i64>> {
    let rest = text.split(&format!("{name} = array<i64")).nth(1)?;
    let body = &rest[..rest.find('>')?];
    body.trim_start_matches(':')
        .split(',')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(|v| v.parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shaped_types() {
        assert_eq!(shaped("vector<8xi32>"), Some((vec![8], "i32")));
        assert_eq!(shaped("tensor<i32>"), Some((vec![], "i32")));
        assert_eq!(shaped("memref<3x7xf32>"), Some((vec![3, 7], "f32")));
        assert_eq!(shaped("memref<3x7xf32, strided<[7, 1]>>"), None);
        assert_eq!(
            element_types("vector<8xi32> to vector<8xi64>"),
            "i32 to i64"
        );
        assert_eq!(element_types("i1, vector<4xf32>"), "i1, f32");
        assert_eq!(
            aggregate("!llvm.array<4 x array<1 x vector<8xf32>>>"),
            Some(vec![4, 1, 8])
        );
        assert_eq!(aggregate("!llvm.struct<(ptr, ptr)>"), None);
    }

    #[test]
    fn shape_ops() {
        // [[0, 1, 2], [3, 4, 5]] transposed.
        let (shape, t) = transpose(&[2, 3], &[0, 1, 2, 3, 4, 5], &[1, 0]);
        assert_eq!((shape, t), (vec![3, 2], vec![0, 3, 1, 4, 2, 5]));
        assert_eq!(
            broadcast(&[2], &[7, 8], &[0], &[2, 3]),
            vec![7, 7, 7, 8, 8, 8]
        );
        assert_eq!(broadcast(&[], &[5], &[], &[3]), vec![5, 5, 5]);
        assert_eq!(broadcast(&[1], &[5], &[1], &[2, 2]), vec![5, 5, 5, 5]);
        assert_eq!(iota(&[2, 3], 1), vec![0, 1, 2, 0, 1, 2]);
        assert_eq!(
            unflat(flat(&[1, 2, 3], &[2, 3, 4]), &[2, 3, 4]),
            vec![1, 2, 3]
        );
    }

    #[test]
    fn attributes() {
        assert_eq!(
            dense_items("arith.constant dense<[true, false]> : vector<2xi1>"),
            Some(vec!["true", "false"])
        );
        assert_eq!(
            dense_items("dense<0.000000e+00> : vector<4xf32>"),
            Some(vec!["0.000000e+00"])
        );
        let op = "\"stablehlo.transpose\"(%4) <{permutation = array<i64: 4, 3, 2, 1, 0>}> : x";
        assert_eq!(array_attr(op, "permutation"), Some(vec![4, 3, 2, 1, 0]));
        let op = "<{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8xi32>";
        assert_eq!(array_attr(op, "broadcast_dimensions"), Some(vec![]));
    }
}
