//! The `.glb` debug view: loaded back by our own glTF reader, its triangles cover exactly the
//! unit faces between blocked and free voxels (and between water and air), each wound toward
//! the free (or air) side, and a shared level's view loads.

mod common;

use common::levels::{LEVELS, levels_dir};
use common::rng;
use glam::{IVec3, UVec3, Vec3};
use rand::RngExt;
use voxnav::{LevelConfig, LevelMesh, TriangleMesh, Voxel, VoxelWorld, build_level};

/// Unit faces between `below` and `above` along each axis: (blocked/free, water/air).
fn naive_faces(world: &VoxelWorld) -> (u64, u64) {
    let d = world.dims().as_ivec3();
    let (mut solid, mut water) = (0, 0);
    for a in 0..3 {
        for z in -1..d.z {
            for y in -1..d.y {
                for x in -1..d.x {
                    let p = IVec3::new(x, y, z);
                    let mut q = p;
                    q[a] += 1;
                    if !(world.contains(p) || world.contains(q)) {
                        continue;
                    }
                    let (b, c) = (world.get(p), world.get(q));
                    solid += u64::from(b.is_solid() != c.is_solid());
                    water += u64::from(matches!((b, c), (Voxel::Water, Voxel::Air) | (Voxel::Air, Voxel::Water)));
                }
            }
        }
    }
    (solid, water)
}

/// Checks every triangle of `mesh` lies on a voxel face whose back is `back` and front is
/// `front` (in voxel units), and returns the triangles' total area in voxel faces.
fn check_side(
    world: &VoxelWorld,
    mesh: &TriangleMesh,
    back: impl Fn(Voxel) -> bool,
    front: impl Fn(Voxel) -> bool,
) -> f64 {
    let (o, s) = (world.origin(), world.voxel_size());
    let mut area = 0.0;
    for t in &mesh.triangles {
        let p = t.map(|i| ((mesh.positions[i as usize] - o) / s).as_dvec3());
        let n = (p[1] - p[0]).cross(p[2] - p[0]);
        area += n.length() / 2.0;
        let axis = n.abs().max_position();
        assert!(n.length() > 0.0 && (n[axis].abs() - n.length()).abs() < 1e-6, "axis-aligned: {p:?}");
        let centre = (p[0] + p[1] + p[2]) / 3.0;
        // Sample the unit face under the centroid and its two voxels.
        let mut q = centre.floor();
        q[axis] = centre[axis].round();
        let mut behind = q;
        behind[axis] -= if n[axis] > 0.0 { 1.0 } else { 0.0 };
        let mut ahead = q;
        ahead[axis] -= if n[axis] > 0.0 { 0.0 } else { 1.0 };
        let (b, f) = (world.get(behind.as_ivec3()), world.get(ahead.as_ivec3()));
        assert!(back(b) && front(f), "triangle {p:?}: behind {b:?}, ahead {f:?}");
    }
    area
}

#[test]
fn the_view_covers_exactly_the_boundary_faces() {
    let mut rng = rng(0x61B);
    for case in 0..30 {
        let dims = UVec3::new(rng.random_range(1..20), rng.random_range(1..20), rng.random_range(1..20));
        let mut world = VoxelWorld::new(Vec3::new(-3.0, 1.0, 2.0), 0.5, dims).unwrap();
        for _ in 0..rng.random_range(0..12) {
            let d = dims.as_ivec3();
            let min = IVec3::new(rng.random_range(0..d.x), rng.random_range(0..d.y), rng.random_range(0..d.z));
            let max =
                (min + IVec3::new(rng.random_range(0..6), rng.random_range(0..6), rng.random_range(0..6))).min(d - 1);
            world.fill_voxels(min, max, if rng.random_bool(0.6) { Voxel::Solid } else { Voxel::Water }).unwrap();
        }
        let path = [world.voxel_center(IVec3::ZERO), world.voxel_center(dims.as_ivec3() - 1)];
        let mut glb = Vec::new();
        let stats = world.write_glb_view(&mut glb, &[&path]).unwrap();
        let mesh = LevelMesh::from_glb_bytes(&glb, "water").unwrap();
        assert_eq!(mesh.solid.triangles.len(), 2 * stats.solid_quads, "case {case}");
        assert_eq!(mesh.water.triangles.len(), 2 * stats.water_quads, "case {case}");
        let solid_area = check_side(&world, &mesh.solid, |v| v.is_solid(), |v| !v.is_solid());
        let water_area = check_side(&world, &mesh.water, |v| v == Voxel::Water, |v| v == Voxel::Air);
        let (solid, water) = naive_faces(&world);
        assert!((solid_area - solid as f64).abs() < 1e-3, "case {case}: {solid_area} vs {solid}");
        assert!((water_area - water as f64).abs() < 1e-3, "case {case}: {water_area} vs {water}");
        // Greedy: fewer rectangles than unit faces once there is anything to merge.
        assert!(stats.solid_quads as u64 <= solid);
    }
}

#[test]
fn a_shared_level_view_loads_back() {
    let Some(dir) = levels_dir() else {
        common::missing_data("the shared levels are missing");
        return;
    };
    let level = LEVELS[1]; // oa_dm7: small, with water
    let mesh = LevelMesh::load(dir.join(format!("{}.glb", level.name)), "water").unwrap();
    let config = LevelConfig { voxel_size: level.voxel, seeds: vec![level.seed], ..Default::default() };
    let world = build_level(&mesh, &config).unwrap().world;
    let mut glb = Vec::new();
    let stats = world.write_glb_view(&mut glb, &[&[level.start, level.goal]]).unwrap();
    let back = LevelMesh::from_glb_bytes(&glb, "water").unwrap();
    assert_eq!(back.solid.triangles.len(), 2 * stats.solid_quads);
    assert!(stats.water_quads > 0);
    let (solid, _) = naive_faces(&world);
    eprintln!(
        "view {} solid_quads={} water_quads={} unit_faces={solid} bytes={}",
        level.name,
        stats.solid_quads,
        stats.water_quads,
        glb.len()
    );
    assert!((stats.solid_quads as u64) * 4 < solid, "greedy meshing merges faces");
}
