//! Readers for benchmark file formats.

pub(crate) mod movingai;
