//! The map grammar as the C++ dialect sees it: `xla_indexing_map_canonicalize`, called by the
//! `#xla_indexing.map` and `#xla.indexing_map` attributes' parse and verify hooks (see
//! `dialect/include/XlaIndexing/XlaIndexingRust.h`).

use std::{
    ffi::{c_char, c_void},
    slice,
};

use xla_indexing_core::{IndexingMap, Syntax};

use crate::guard::guarded;

/// Mirrors `XlaIndexingMapInfo` of `XlaIndexingRust.h`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MapInfo {
    pub num_dims: u32,
    pub num_range_vars: u32,
    pub num_runtime_vars: u32,
    pub num_results: u32,
    /// Number of constraints of the map's domain.
    pub num_constraints: u32,
    /// 1-based byte column of a parse error, 0 when the error has no position.
    pub error_column: u32,
}

/// Mirrors `XlaIndexingStringCallback` of `XlaIndexingRust.h`.
pub type StringCallback =
    unsafe extern "C" fn(data: *const c_char, length: usize, user_data: *mut c_void);

/// Why a map text was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct TextError {
    /// 1-based byte column in the text, 0 when the error has no position.
    pub column: u32,
    pub message: String,
}

/// Mirrors `XlaIndexingSyntax` of `XlaIndexingRust.h`: the values a C caller may pass.
const SYNTAX_MLIR: u32 = 0;
const SYNTAX_XLA: u32 = 1;

/// Parses `bytes` as a map and returns its canonical text, spelled as `syntax` says, and counts.
pub fn canonicalize(bytes: &[u8], syntax: Syntax) -> Result<(String, MapInfo), TextError> {
    let text = std::str::from_utf8(bytes).map_err(|e| TextError {
        column: saturate(e.valid_up_to() + 1),
        message: "the map text is not valid UTF-8".into(),
    })?;
    let map = IndexingMap::parse(text).map_err(|e| TextError {
        column: saturate(e.offset + 1),
        message: e.message.clone(),
    })?;
    // The text of a known-empty map, `KNOWN EMPTY`, has no variables or results: an attribute
    // that needs them cannot hold the map (it is `KNOWN EMPTY` itself or refused).
    let arity = map.dims().len() + map.num_symbols() + map.results().len();
    if map.is_known_empty() && arity > 0 {
        return Err(TextError {
            column: 0,
            message: "the map is KNOWN EMPTY (its domain has no point), and that text keeps none \
                      of its variables or results"
                .into(),
        });
    }
    let info = MapInfo {
        num_dims: saturate(map.dims().len()),
        num_range_vars: saturate(map.range_vars().len()),
        num_runtime_vars: saturate(map.rt_vars().len()),
        num_results: saturate(map.results().len()),
        num_constraints: saturate(map.constraints().len()),
        error_column: 0,
    };
    Ok((map.display(syntax).to_string(), info))
}

fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Parses the map `text` for the C++ dialects.
///
/// `syntax` is `XlaIndexingSyntax`: 0 spells the canonical text as MLIR does, 1 as XLA does; any
/// other value is an error. On success fills `info`, passes the canonical text to `callback` and
/// returns true; on failure
/// sets `info.error_column`, passes the error message to `callback` and returns false. A panic
/// in the parser becomes an error, never an unwind into C++.
///
/// # Safety
///
/// `text` must point to `length` readable bytes (or `length` must be 0), `info` must point to a
/// writable `MapInfo`, and `callback` must be safe to call with `user_data`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn xla_indexing_map_canonicalize(
    text: *const c_char,
    length: usize,
    syntax: u32,
    info: *mut MapInfo,
    callback: StringCallback,
    user_data: *mut c_void,
) -> bool {
    let bytes: &[u8] = if length == 0 {
        &[]
    } else {
        // SAFETY: the caller guarantees `length` readable bytes at `text`.
        unsafe { slice::from_raw_parts(text.cast::<u8>(), length) }
    };
    let syntax = match syntax {
        SYNTAX_MLIR => Ok(Syntax::Mlir),
        SYNTAX_XLA => Ok(Syntax::Xla),
        other => Err(TextError {
            column: 0,
            message: format!("unknown map syntax {other}"),
        }),
    };
    let outcome = guarded(|| canonicalize(bytes, syntax?)).unwrap_or_else(|panic| {
        Err(TextError {
            column: 0,
            message: format!("internal error in the map parser: {panic}"),
        })
    });
    let (ok, out, result_info) = match outcome {
        Ok((canonical, map_info)) => (true, canonical, map_info),
        Err(e) => (
            false,
            e.message,
            MapInfo {
                error_column: e.column,
                ..MapInfo::default()
            },
        ),
    };
    // SAFETY: the caller guarantees that `info` is valid for writes.
    unsafe { info.write(result_info) };
    // SAFETY: `out` outlives the call, and the caller guarantees `callback` accepts `user_data`.
    unsafe { callback(out.as_ptr().cast::<c_char>(), out.len(), user_data) };
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonicalize_counts_every_kind_of_variable() {
        let (text, info) = canonicalize(
            b"(d0, d1)[s0]{rt0} -> (d0 floordiv 8 + s0, d1 + rt0), \
              domain: d0 in [0, 15], d1 in [0, 9], s0 in [0, 3], rt0 in [0, 5]",
            Syntax::Mlir,
        )
        .unwrap();
        assert_eq!(
            info,
            MapInfo {
                num_dims: 2,
                num_range_vars: 1,
                num_runtime_vars: 1,
                num_results: 2,
                num_constraints: 0,
                error_column: 0
            }
        );
        assert_eq!(canonicalize(text.as_bytes(), Syntax::Mlir).unwrap().0, text);
    }

    #[test]
    fn xla_spelling_is_read_and_printed_and_counts_constraints() {
        let xla = b"(d0, d1) -> ((d0 - 1) / 2), domain: d0 in [1, 47], d1 in [0, 15], \
                    d0 mod 2 in [1, 1]";
        let (text, info) = canonicalize(xla, Syntax::Xla).unwrap();
        assert!(text.contains(" / 2"), "{text}");
        assert!(!text.contains("floordiv"), "{text}");
        assert_eq!(
            (info.num_dims, info.num_results, info.num_constraints),
            (2, 1, 1)
        );
        assert_eq!(canonicalize(text.as_bytes(), Syntax::Xla).unwrap().0, text);
        let (mlir, _) = canonicalize(xla, Syntax::Mlir).unwrap();
        assert!(mlir.contains("floordiv 2"), "{mlir}");
    }

    #[test]
    fn canonicalize_reports_a_byte_column() {
        let e = canonicalize(
            "(d0) -> (d0 + d1), domain: d0 in [0, 9]".as_bytes(),
            Syntax::Mlir,
        )
        .unwrap_err();
        assert!(e.column > 0, "{e:?}");
        assert!(!e.message.is_empty());
    }

    #[test]
    fn known_empty_maps_with_variables_are_refused() {
        let e = canonicalize(b"(d0) -> (d0), domain: d0 in [5, 1]", Syntax::Mlir).unwrap_err();
        assert!(e.message.contains("KNOWN EMPTY"), "{e:?}");
        let (text, info) = canonicalize(b"KNOWN EMPTY", Syntax::Mlir).unwrap();
        assert_eq!((text.as_str(), info), ("KNOWN EMPTY", MapInfo::default()));
    }

    #[test]
    fn canonicalize_rejects_invalid_utf8() {
        let e = canonicalize(b"(d0) -> (\xff)", Syntax::Mlir).unwrap_err();
        assert_eq!(e.column, 10);
    }

    unsafe extern "C" fn collect(data: *const c_char, length: usize, user_data: *mut c_void) {
        // SAFETY: the test passes a `String` as `user_data` and the callee valid bytes.
        let (out, bytes) = unsafe {
            (
                &mut *user_data.cast::<String>(),
                slice::from_raw_parts(data.cast::<u8>(), length),
            )
        };
        *out = String::from_utf8_lossy(bytes).into_owned();
    }

    fn call(text: &[u8]) -> (bool, MapInfo, String) {
        let mut info = MapInfo::default();
        let mut out = String::new();
        // SAFETY: valid text, info and callback; `out` is the `String` `collect` expects.
        let ok = unsafe {
            xla_indexing_map_canonicalize(
                text.as_ptr().cast(),
                text.len(),
                SYNTAX_MLIR,
                &mut info,
                collect,
                (&mut out as *mut String).cast(),
            )
        };
        (ok, info, out)
    }

    #[test]
    fn c_entry_point_reports_text_and_errors() {
        let (ok, info, out) = call(b"(d0) -> (d0 mod 4), domain: d0 in [0, 3]");
        assert!(ok);
        assert_eq!((info.num_dims, info.num_results), (1, 1));
        assert_eq!(out, IndexingMap::parse(&out).unwrap().to_string());

        let (ok, info, out) = call(b"(d0) -> (d0 floordiv s0), domain: d0 in [0, 3]");
        assert!(!ok);
        assert!(info.error_column > 0);
        assert!(!out.is_empty());

        let (ok, info, out) = call(b"");
        assert!(!ok, "{out}");
        assert_eq!(info.num_dims, 0);
    }
}
