//! File formats: the Moving AI benchmark's and our baked worlds (`.vxn`).

#[cfg(feature = "gltf")]
pub(crate) mod glb_view;
pub(crate) mod movingai;
pub(crate) mod vxn;
