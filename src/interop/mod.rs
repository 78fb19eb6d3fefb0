//! Conversions to other math libraries, each behind its own feature.

#[cfg(feature = "nalgebra")]
mod nalgebra;
