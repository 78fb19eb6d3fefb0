//! File formats: the Moving AI benchmark's and our baked worlds (`.vxn`).

pub(crate) mod movingai;
pub(crate) mod vxn;
