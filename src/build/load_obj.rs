//! Load stage: Wavefront OBJ (with `tobj`) into a [`LevelMesh`].

use glam::Vec3;

use super::mesh::{LevelMesh, matches_pattern};
use crate::error::MeshError;

/// Parses `bytes` as OBJ; objects or groups whose name matches `water` go to the water mesh.
pub(crate) fn load(bytes: &[u8], water: &str) -> Result<LevelMesh, MeshError> {
    let options =
        tobj::LoadOptions { triangulate: true, ignore_points: true, ignore_lines: true, ..Default::default() };
    let mut reader = bytes;
    // Materials are not read: a missing or unreadable .mtl must not fail the geometry.
    let (models, _) = tobj::load_obj_buf(&mut reader, &options, |_| Err(tobj::LoadError::OpenFileFailed))
        .map_err(|e| MeshError::Obj(e.to_string()))?;
    let mut level = LevelMesh::default();
    for model in &models {
        let mesh = &model.mesh;
        if mesh.indices.len() % 3 != 0 {
            return Err(MeshError::Obj("a face was not triangulated".into()));
        }
        let total = level.triangle_count() + mesh.indices.len() / 3;
        if total > LevelMesh::MAX_TRIANGLES {
            return Err(MeshError::TooLarge("more triangles than LevelMesh::MAX_TRIANGLES"));
        }
        let vertices = mesh.positions.len() / 3;
        if let Some(&index) = mesh.indices.iter().find(|&&i| i as usize >= vertices) {
            return Err(MeshError::IndexOutOfRange { index: u64::from(index), vertices });
        }
        let triangles: Vec<[u32; 3]> = mesh.indices.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect();
        let target = if matches_pattern(&model.name, water) { &mut level.water } else { &mut level.solid };
        target.append(mesh.positions.chunks_exact(3).map(|p| Vec3::new(p[0], p[1], p[2])), &triangles);
    }
    level.solid.validate()?;
    level.water.validate()?;
    Ok(level)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_objects_quads_and_rejects_bad_indices() {
        let obj = b"o box\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\ng water\nv 0 0 1\nf 1 2 5\n";
        let level = load(obj, "water").unwrap();
        assert_eq!(level.solid.triangles.len(), 2);
        assert_eq!(level.water.triangles.len(), 1);
        assert!(load(b"v 0 0 0\nf 1 2 3\n", "").is_err());
        assert!(matches!(load(b"v 0 nan 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\n", ""), Err(MeshError::NonFinite { .. })));
    }
}
