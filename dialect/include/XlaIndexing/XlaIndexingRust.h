/*===- XlaIndexingRust.h - the Rust functions the dialect calls ---*- C -*-===*\
|*                                                                            *|
|* Implemented in Rust by crates/mlir (xla-indexing-mlir), which every         *|
|* artifact that links this dialect also links. There is one map grammar in   *|
|* the project, the Rust one: the attribute's hooks parse and print through   *|
|* these functions.                                                           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef XLA_INDEXING_RUST_H
#define XLA_INDEXING_RUST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the dialect needs to know about a parsed map. */
typedef struct {
  uint32_t numDims;
  uint32_t numRangeVars;
  uint32_t numRuntimeVars;
  uint32_t numResults;
  uint32_t numConstraints;
  /* 1-based byte column of a parse error in the text, 0 when it has none. */
  uint32_t errorColumn;
} XlaIndexingMapInfo;

/* How a canonical map text is spelled: MLIR's (`floordiv`, positive
 * divisors), which #xla_indexing.map stores, or XLA's 2026 spelling (`/` for
 * floordiv), which #xla.indexing_map stores. */
typedef enum {
  XlaIndexingSyntaxMlir = 0,
  XlaIndexingSyntaxXla = 1,
} XlaIndexingSyntax;

/* Receives a string that is only valid during the call. */
typedef void (*XlaIndexingStringCallback)(const char *data, size_t length, void *userData);

/* Parses the map `text` (`length` bytes, not NUL-terminated, any encoding).
 * On success fills `info`, passes the canonical single-line text (spelled as
 * `syntax` says) to
 * `callback` and returns true. On failure sets `info->errorColumn`, passes
 * the error message to `callback` and returns false. Never unwinds. */
bool xla_indexing_map_canonicalize(const char *text, size_t length, XlaIndexingSyntax syntax,
                                   XlaIndexingMapInfo *info, XlaIndexingStringCallback callback,
                                   void *userData);

#ifdef __cplusplus
}
#endif

#endif /* XLA_INDEXING_RUST_H */
