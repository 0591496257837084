//! `#xla_indexing.map<"...">` attributes to and from indexing maps, and XLA's
//! `#xla.indexing_map<"...">` to indexing maps.

use melior::{
    Context, StringRef,
    ir::{Attribute, attribute::AttributeLike},
};
use xla_indexing_core::{IndexingMap, Syntax};

use crate::ffi;

/// Why an `#xla_indexing.map` (or `#xla_indexing.launch`) attribute could not be made or read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AttributeError {
    /// The map text does not parse.
    #[error("invalid indexing map at column {column}: {message}")]
    Parse {
        /// 1-based column in the map text.
        column: usize,
        /// What is wrong there.
        message: String,
    },
    /// The dialect's verifier rejected a map that parses (details went to the context's
    /// diagnostic handlers).
    #[error("MLIR rejected the indexing map `{0}`")]
    Rejected(String),
    /// The attribute is neither an `#xla_indexing.map` nor an `#xla.indexing_map`.
    #[error("not an #xla_indexing.map or #xla.indexing_map attribute: {0}")]
    NotAMap(String),
    /// The dialect's verifier rejected a launch (details went to the context's diagnostic
    /// handlers).
    #[error("MLIR rejected the launch `{0}`")]
    LaunchRejected(String),
    /// The attribute is not an `#xla_indexing.launch`.
    #[error("not an #xla_indexing.launch attribute: {0}")]
    NotALaunch(String),
}

/// Returns the `#xla_indexing.map` attribute of `map` in `context`.
pub fn map_attribute<'c>(
    context: &'c Context,
    map: &IndexingMap,
) -> Result<Attribute<'c>, AttributeError> {
    let text = map.display(Syntax::Mlir).to_string();
    let string = StringRef::new(&text);
    // SAFETY: `context` is a live context in which the dialect is registered or loadable, and
    // `string` borrows `text`, which outlives the call (the attribute copies it).
    let raw = unsafe { ffi::mlirXlaIndexingMapAttrGet(context.to_raw(), string.to_raw()) };
    // SAFETY: `raw` is null or an attribute of `context`.
    unsafe { Attribute::from_option_raw(raw) }.ok_or(AttributeError::Rejected(text))
}

/// Returns XLA's `#xla.indexing_map` attribute of `map` in `context` (canonical, in XLA's
/// spelling).
pub fn xla_map_attribute<'c>(
    context: &'c Context,
    map: &IndexingMap,
) -> Result<Attribute<'c>, AttributeError> {
    let text = map.display(Syntax::Xla).to_string();
    let string = StringRef::new(&text);
    // SAFETY: `context` is a live context in which the `xla` dialect is registered or loadable,
    // and `string` borrows `text`, which outlives the call (the attribute copies it).
    let raw = unsafe { ffi::mlirXlaEmittersMapAttrGet(context.to_raw(), string.to_raw()) };
    // SAFETY: `raw` is null or an attribute of `context`.
    unsafe { Attribute::from_option_raw(raw) }.ok_or(AttributeError::Rejected(text))
}

/// Parses map `text` (any form the core's parser accepts) into an `#xla_indexing.map`
/// attribute holding its canonical text.
pub fn parse_map_attribute<'c>(
    context: &'c Context,
    text: &str,
) -> Result<Attribute<'c>, AttributeError> {
    let map = IndexingMap::parse(text).map_err(|e| AttributeError::Parse {
        column: e.column,
        message: e.message.clone(),
    })?;
    map_attribute(context, &map)
}

/// Returns the indexing map held by an `#xla_indexing.map` or an `#xla.indexing_map` attribute.
pub fn attribute_map(attribute: Attribute) -> Result<IndexingMap, AttributeError> {
    let raw_attribute = attribute.to_raw();
    // SAFETY: `attribute` is a valid attribute.
    let is_map = unsafe {
        ffi::mlirAttributeIsAXlaIndexingMap(raw_attribute)
            || ffi::mlirAttributeIsAXlaEmittersIndexingMap(raw_attribute)
    };
    if !is_map {
        return Err(AttributeError::NotAMap(attribute.to_string()));
    }
    // SAFETY: `attribute` is one of the two map attributes, whose text the function returns;
    // the text is owned by the attribute's context.
    let text = unsafe { ffi::string_of(ffi::mlirXlaIndexingMapAttrGetText(attribute.to_raw())) }
        .ok_or_else(|| AttributeError::NotAMap("its text is not UTF-8".into()))?;
    IndexingMap::parse(text).map_err(|e| AttributeError::Parse {
        column: e.column,
        message: e.message.clone(),
    })
}
