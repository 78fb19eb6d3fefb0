//! Load stage, the entry points: [`LevelMesh::load`] reads a file and picks the loader by its
//! extension (`load_gltf`, `load_obj`, each behind its feature); `LevelMesh::from_glb_bytes`
//! and `LevelMesh::from_obj_bytes` load from memory.

use std::path::Path;

use super::mesh::LevelMesh;
use crate::error::MeshError;

impl LevelMesh {
    /// Loads a level by its extension: `.glb` or `.gltf` (its `.bin` buffers beside it; feature
    /// `gltf`), or `.obj` (feature `obj`). Meshes whose name matches `water` (see
    /// [`matches_pattern`](crate::matches_pattern)) are water volumes; an empty pattern means no water.
    ///
    /// # Errors
    /// [`MeshError::Io`] if a file cannot be read, [`MeshError::UnknownFormat`] for another
    /// extension, else as [`from_glb_bytes`](Self::from_glb_bytes) /
    /// [`from_obj_bytes`](Self::from_obj_bytes).
    pub fn load(path: impl AsRef<Path>, water: &str) -> Result<Self, MeshError> {
        let path = path.as_ref();
        let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        match ext.as_deref() {
            #[cfg(feature = "gltf")]
            Some("glb" | "gltf") => {
                let bytes = read_file(path)?;
                let dir = path.parent().unwrap_or(Path::new("."));
                super::load_gltf::load(&bytes, Some(dir), water)
            }
            #[cfg(feature = "obj")]
            Some("obj") => super::load_obj::load(&read_file(path)?, water),
            _ => {
                let _ = water; // no loader compiled in may use it
                Err(MeshError::UnknownFormat(path.to_path_buf()))
            }
        }
    }

    /// Loads a binary glTF (`.glb`) or a self-contained `.gltf` from memory (external buffer
    /// files are not read: see [`load`](Self::load)).
    ///
    /// # Errors
    /// [`MeshError::Gltf`] for a malformed file, [`MeshError::BadAccessor`] for data that does
    /// not fit its buffer, [`MeshError::Unsupported`] for sparse, quantised or external data,
    /// [`MeshError::NonFinite`], [`MeshError::IndexOutOfRange`], [`MeshError::TooLarge`].
    #[cfg(feature = "gltf")]
    pub fn from_glb_bytes(bytes: &[u8], water: &str) -> Result<Self, MeshError> {
        super::load_gltf::load(bytes, None, water)
    }

    /// Loads a Wavefront OBJ from memory (faces are triangulated as fans; materials are not
    /// read, so water is chosen by object or group name).
    ///
    /// # Errors
    /// [`MeshError::Obj`] for a malformed file, [`MeshError::NonFinite`],
    /// [`MeshError::IndexOutOfRange`], [`MeshError::TooLarge`].
    #[cfg(feature = "obj")]
    pub fn from_obj_bytes(bytes: &[u8], water: &str) -> Result<Self, MeshError> {
        super::load_obj::load(bytes, water)
    }
}

/// The bytes of a file, or [`MeshError::Io`].
#[cfg(any(feature = "gltf", feature = "obj"))]
fn read_file(path: &Path) -> Result<Vec<u8>, MeshError> {
    std::fs::read(path).map_err(|source| MeshError::Io { path: path.to_path_buf(), source })
}
