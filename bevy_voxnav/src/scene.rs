//! The navigation world from the game's own meshes: the `Mesh3d` entities under a
//! [`NavMeshSource`] (a spawned glTF scene, say), gathered in world space once their meshes are
//! loaded and voxelised off the main thread.

use bevy_asset::Assets;
use bevy_ecs::name::Name;
use bevy_ecs::prelude::*;
use bevy_math::Vec3;
use bevy_mesh::{Indices, Mesh, Mesh3d, PrimitiveTopology, VertexAttributeValues};
use bevy_transform::components::GlobalTransform;
use voxnav::{LevelConfig, LevelMesh, TriangleMesh, matches_pattern};

use crate::world::NavBuild;

/// Marks the level: every `Mesh3d` entity that is this entity or one of its descendants is
/// part of the navigation world (put it on a glTF scene's root, or on each collision mesh).
/// Meshes whose entity or an ancestor up to the marked one has a [`Name`] matching the
/// build's water pattern are water volumes; the rest are solid.
#[derive(Component, Debug, Clone, Copy, Default)]
pub struct NavMeshSource;

/// A request to build the [`NavWorld`](crate::NavWorld) from the meshes under
/// [`NavMeshSource`]s. Insert it as a resource; the plugin waits until at least one marked mesh
/// exists and every marked mesh is loaded (a scene spawns its meshes in one go), gathers their
/// triangles in world space (`GlobalTransform`) and starts a [`NavBuild`] from them, then
/// removes this request. It runs in `PostUpdate`, after transform propagation (Bevy's
/// `TransformPlugin`), so a scene spawned this frame is gathered where it stands. Needs `AssetPlugin` with `Mesh` assets (Bevy's `MeshPlugin`, or
/// `init_asset::<Mesh>()`).
#[derive(Resource, Debug, Clone)]
pub struct NavSceneBuild {
    /// Voxel size, seeds and the rest of voxnav's level settings.
    pub config: LevelConfig,
    /// Names (of the mesh entity or an ancestor) that mark water: `*` wildcards,
    /// case-insensitive; without a wildcard it is looked for anywhere in the name.
    pub water_pattern: String,
}

impl NavSceneBuild {
    /// Voxels of `voxel_size` world units, `seeds` points in the level's open air, meshes
    /// named like `water_pattern` as water.
    #[must_use]
    pub fn new(voxel_size: f32, seeds: Vec<Vec3>, water_pattern: &str) -> Self {
        Self {
            config: LevelConfig { voxel_size, seeds, ..Default::default() },
            water_pattern: water_pattern.to_owned(),
        }
    }
}

/// Starts the build once the marked meshes are all there.
pub(crate) fn gather_meshes(
    mut commands: Commands,
    request: Option<Res<NavSceneBuild>>,
    meshes: Option<Res<Assets<Mesh>>>,
    sources: Query<Entity, With<NavMeshSource>>,
    children: Query<&bevy_ecs::hierarchy::Children>,
    nodes: Query<(Option<&Mesh3d>, Option<&GlobalTransform>, Option<&Name>)>,
) {
    let (Some(request), Some(meshes)) = (request, meshes) else { return };
    let mut level = LevelMesh::default();
    let mut found = 0usize;
    // Depth first from each source, carrying whether a name on the way marked water.
    let mut stack: Vec<(Entity, bool)> = sources.iter().map(|e| (e, false)).collect();
    while let Some((entity, water_above)) = stack.pop() {
        let Ok((mesh, transform, name)) = nodes.get(entity) else { continue };
        let water = water_above || name.is_some_and(|n| matches_pattern(n.as_str(), &request.water_pattern));
        if let Some(handle) = mesh {
            let Some(mesh) = meshes.get(&handle.0) else { return }; // not loaded yet: next frame
            let affine = transform.copied().unwrap_or_default().affine();
            append_mesh(if water { &mut level.water } else { &mut level.solid }, mesh, |p| affine.transform_point3(p));
            found += 1;
        }
        if let Ok(kids) = children.get(entity) {
            stack.extend(kids.iter().map(|c| (c, water)));
        }
    }
    if found == 0 {
        return;
    }
    commands.insert_resource(NavBuild::from_mesh(level, request.config.clone()));
    commands.remove_resource::<NavSceneBuild>();
}

/// Appends the triangles of `mesh` (a triangle list or strip with `f32x3` positions; other
/// meshes add nothing) with its positions mapped by `to_world`.
pub(crate) fn append_mesh(target: &mut TriangleMesh, mesh: &Mesh, to_world: impl Fn(Vec3) -> Vec3) {
    let Some(VertexAttributeValues::Float32x3(positions)) = mesh.attribute(Mesh::ATTRIBUTE_POSITION) else {
        return;
    };
    let index: Vec<u32> = match mesh.indices() {
        Some(Indices::U16(i)) => i.iter().map(|&i| u32::from(i)).collect(),
        Some(Indices::U32(i)) => i.clone(),
        None => (0..u32::try_from(positions.len()).unwrap_or(u32::MAX)).collect(),
    };
    let triangles: Vec<[u32; 3]> = match mesh.primitive_topology() {
        PrimitiveTopology::TriangleList => index.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect(),
        PrimitiveTopology::TriangleStrip => index
            .windows(3)
            .enumerate()
            .map(|(i, t)| if i % 2 == 0 { [t[0], t[1], t[2]] } else { [t[1], t[0], t[2]] })
            .collect(),
        _ => return,
    };
    // Indices out of range are left for voxnav's mesh validation to report.
    target.append(positions.iter().map(|&p| to_world(Vec3::from_array(p))), &triangles);
}
