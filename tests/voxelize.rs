//! Conservative voxelisation against the exact triangle/box oracle on small synthetic cases:
//! triangles exactly on voxel faces, edges and corners, slivers, degenerate triangles, and
//! seeded random triangles. Also interiors (hollow solids are filled, the outside of a closed
//! box is sealed from a seed) and water shells.

mod common;

use common::rng;
use common::tri_box::overlaps;
use glam::{DVec3, IVec3, Vec3};
use rand::RngExt;
use voxnav::prelude::*;
use voxnav::{BuildError, LevelConfig, LevelMesh, TriangleMesh, build_level};

/// A mesh of the given triangles (world coordinates).
fn mesh(tris: &[[Vec3; 3]]) -> TriangleMesh {
    let mut m = TriangleMesh::default();
    for t in tris {
        m.append(t.iter().copied(), &[[0, 1, 2]]);
    }
    m
}

/// Builds the surface only, on a fixed grid (origin 0, voxel 1, 12^3; a point triangle at
/// 9.5 pins its far corner), and compares with the oracle: returns (rasterised, exact), both
/// without the pin's voxel (9, 9, 9) (keep other triangles off it).
fn compare(tris: &[[Vec3; 3]]) -> (u64, u64) {
    compare_mesh(mesh(tris))
}

/// [`compare`] for a mesh (shared vertices allowed).
fn compare_mesh(solid: TriangleMesh) -> (u64, u64) {
    let tris: Vec<[Vec3; 3]> = solid.triangles.iter().map(|t| t.map(|i| solid.positions[i as usize])).collect();
    let (level, built) = pinned(solid);
    let world = &built.world;
    assert_eq!(world.dims(), glam::UVec3::splat(12));
    let mut exact = 0;
    for z in 0..12 {
        for y in 0..12 {
            for x in 0..12 {
                let v = IVec3::new(x, y, z);
                let touched = level.solid.triangles.iter().any(|t| {
                    let p = t.map(|i| level.solid.positions[i as usize].as_dvec3());
                    overlaps(p, v.as_dvec3() + 0.5, DVec3::splat(0.5))
                });
                if touched {
                    exact += 1;
                    assert!(world.is_blocked(v), "missed voxel {v} of {tris:?}");
                }
            }
        }
    }
    (built.stats.surface_voxels - 1, exact - 1)
}

/// The surface of `solid` and a point triangle at 9.5 (a far corner that pins the grid to
/// 0..12 on every axis), built at voxel 1 from the origin.
fn pinned(solid: TriangleMesh) -> (LevelMesh, voxnav::LevelBuild) {
    let mut level = LevelMesh { solid, water: TriangleMesh::default() };
    level.solid.append([Vec3::splat(9.5); 3], &[[0, 1, 2]]);
    let config = LevelConfig { voxel_size: 1.0, origin: Some(Vec3::ZERO), fill_interiors: false, ..Default::default() };
    let built = build_level(&level, &config).unwrap();
    (level, built)
}

/// A seeded coordinate in 1..8.9, snapped to a voxel or half-voxel plane with probability `snap`.
fn coordinate(r: &mut rand::rngs::StdRng, snap: f64) -> f32 {
    let c = r.random_range(1.0f32..8.9);
    if r.random_bool(snap) { (c * 2.0).round() / 2.0 } else { c }
}

#[test]
fn triangles_on_voxel_faces_edges_and_corners_block_both_sides() {
    let v = |x: f32, y: f32, z: f32| Vec3::new(x, y, z);
    // On the plane y = 4: the layers below and above are both blocked.
    let (n, exact) = compare(&[[v(2.0, 4.0, 2.0), v(6.0, 4.0, 2.0), v(2.0, 4.0, 6.0)]]);
    assert_eq!(n, exact);
    // Columns (i, k) of closed cells touching x + z <= 8, x, z >= 2 (those along the edges
    // x = 2 and z = 2 included): 6 + 6 + 5 + 4 + 3 + 2, two layers each.
    assert_eq!(exact, 2 * 26);
    // A triangle whose edge lies on a voxel edge line (x = 3, y = 3).
    let (n, exact) = compare(&[[v(3.0, 3.0, 1.0), v(3.0, 3.0, 7.0), v(6.0, 8.0, 4.0)]]);
    assert_eq!(n, exact);
    // A triangle touching a voxel corner with one vertex only.
    let (n, exact) = compare(&[[v(5.0, 5.0, 5.0), v(7.5, 5.5, 5.5), v(5.5, 7.5, 5.5)]]);
    assert_eq!(n, exact);
    // A thin wall, two triangles on x = 6: both neighbouring layers are blocked.
    let (n, exact) = compare(&[
        [v(6.0, 1.0, 1.0), v(6.0, 9.0, 1.0), v(6.0, 9.0, 9.0)],
        [v(6.0, 1.0, 1.0), v(6.0, 9.0, 9.0), v(6.0, 1.0, 9.0)],
    ]);
    assert_eq!(n, exact);
    assert_eq!(exact, 2 * 10 * 10); // y, z in 1..=9: voxels 0..=9 touch it (closed boxes)
}

#[test]
fn slivers_and_degenerate_triangles_are_exact() {
    let v = |x: f32, y: f32, z: f32| Vec3::new(x, y, z);
    for tri in [
        [v(1.2, 1.3, 1.4), v(8.7, 8.1, 7.9), v(1.2001, 1.3, 1.4)], // needle
        [v(1.5, 2.5, 3.5), v(8.5, 2.5, 3.5), v(4.0, 2.5000002, 3.5)], // flat sliver
        [v(2.0, 2.0, 2.0), v(8.0, 7.0, 6.0), v(5.0, 4.5, 4.0)],    // collinear: a segment
        [v(4.0, 4.0, 4.0); 3],                                     // a point on a corner
        [v(4.5, 4.5, 4.5); 3],                                     // a point inside
        [v(3.0, 1.0, 1.0), v(3.0, 9.0, 1.0), v(3.0, 5.0, 1.0)],    // a segment on an edge line
        [v(1.0, 1.0, -5.0), v(8.0, 2.0, 0.5), v(2.0, 8.0, 0.5)],   // mostly below the grid
        [v(-3.0, -2.0, -4.0), v(5.0, 0.5, 0.5), v(0.5, 6.0, 0.3)], // through the grid corner
    ] {
        let (n, exact) = compare(&[tri]);
        assert_eq!(n, exact, "{tri:?}");
    }
    assert_eq!(compare(&[[v(4.0, 4.0, 4.0); 3]]).1, 8); // a corner point touches 8 voxels
}

/// Slivers, triangles thinner than a thousandth of a voxel (tessellated curves leave many),
/// are scanned as their longest edge widened by their thickness: no voxel they touch is
/// missed, and every voxel set is within that thickness (and the slabs' widening) of them.
#[test]
fn slivers_are_their_longest_edge_widened_by_their_thickness() {
    let mut r = rng(2718);
    let (mut n, mut exact) = (0, 0);
    for i in 0..400 {
        let mut p = || coordinate(&mut r, 0.3);
        let (a, b) = (Vec3::new(p(), p(), p()), Vec3::new(p(), p(), p()));
        // A third corner on the edge (or at an end), pushed off it by up to 1e-3 voxels.
        let t = [0.0, 0.5, 0.25, 1.0][i % 4];
        let thickness = [0.0, 1e-7, 1e-5, 9e-4][i / 4 % 4];
        let dir = Vec3::new(r.random_range(-1.0..1.0), r.random_range(-1.0..1.0), r.random_range(-1.0..1.0));
        let c = a.lerp(b, t) + dir.normalize_or_zero() * thickness;
        let tri = [a, b, c];
        let (got, want) = compare(&[tri]);
        n += got;
        exact += want;
        // The thickness the rasteriser sees (the corners as stored, in f64), and every voxel
        // it set against the oracle widened by it.
        let d = tri.map(Vec3::as_dvec3);
        let normal = (d[1] - d[0]).cross(d[2] - d[0]).length();
        let longest = [(d[1] - d[0]), (d[2] - d[1]), (d[0] - d[2])].map(DVec3::length).into_iter().fold(0.0, f64::max);
        if longest == 0.0 || normal >= 1e-3 * longest {
            continue; // not a sliver: exact
        }
        assert_eq!(got, widened_count(&tri, normal / longest + 2e-6), "{tri:?}");
    }
    println!("slivers: rasterised={n} exact={exact}");
    assert!(n >= exact && n as f64 <= exact as f64 * 1.02, "{n} {exact}");
}

/// Voxels of the 12^3 grid of [`compare`] (without the pin's) whose box widened by `r` meets
/// the triangle, and that are set: asserts every set voxel is among them and counts them.
fn widened_count(tri: &[Vec3; 3], r: f64) -> u64 {
    let (_, built) = pinned(mesh(&[*tri]));
    let world = built.world;
    let p = tri.map(Vec3::as_dvec3);
    let mut count = 0;
    for z in 0..12 {
        for y in 0..12 {
            for x in 0..12 {
                let v = IVec3::new(x, y, z);
                if v == IVec3::splat(9) || !world.is_blocked(v) {
                    continue;
                }
                assert!(
                    overlaps(p, v.as_dvec3() + 0.5, DVec3::splat(0.5 + r)),
                    "voxel {v} is farther than {r} from {tri:?}"
                );
                count += 1;
            }
        }
    }
    count
}

#[test]
fn random_triangles_are_never_missed_and_rarely_overcounted() {
    let mut r = rng(1313);
    let (mut n, mut exact) = (0, 0);
    for _ in 0..300 {
        // Half the coordinates snapped to voxel or half-voxel planes, to provoke ties.
        let mut p = || coordinate(&mut r, 0.5);
        let t = [Vec3::new(p(), p(), p()), Vec3::new(p(), p(), p()), Vec3::new(p(), p(), p())];
        let (a, b) = compare(&[t]);
        n += a;
        exact += b;
    }
    println!("random triangles: rasterised={n} exact={exact}");
    assert!(n >= exact && n as f64 <= exact as f64 * 1.02);
}

/// Two triangles sharing an edge (shared vertices, as meshes store a face) make a quad that
/// is scanned as one when flat in a layer and convex: flat quads in all three planes
/// (rectangles, trapezoids, reflex and folded pairs, on and off voxel planes) and bent ones,
/// every voxel against the oracle.
#[test]
fn quads_of_two_triangles_are_exact() {
    let mut r = rng(2024);
    let (mut n, mut exact) = (0, 0);
    for case in 0..400 {
        let mut c = || {
            let c = r.random_range(1.0f32..8.9);
            if r.random_bool(0.5) { (c * 2.0).round() / 2.0 } else { c }
        };
        // Four corners in a plane across `axis` at `level` (sometimes bent off it), as
        // (u, v) in the other two axes: a rectangle, or four free points.
        let axis = case % 3;
        let level = c();
        let (u0, u1, v0, v1) = (c(), c(), c(), c());
        let uv = if case % 4 == 0 {
            [(u0, v0), (u1, v0), (u1, v1), (u0, v1)]
        } else {
            [(u0, v0), (u1, c()), (c(), v1), (c(), c())]
        };
        let bend = if case % 5 == 0 { r.random_range(0.0f32..0.5) } else { 0.0 };
        let p: Vec<Vec3> = uv
            .iter()
            .enumerate()
            .map(|(i, &(u, v))| {
                let w = if i == 2 { level + bend } else { level };
                match axis {
                    0 => Vec3::new(w, u, v),
                    1 => Vec3::new(u, w, v),
                    _ => Vec3::new(u, v, w),
                }
            })
            .collect();
        let mut m = TriangleMesh::default();
        m.append(p.iter().copied(), &[[0, 1, 2], [0, 2, 3]]);
        let (a, b) = compare_mesh(m);
        n += a;
        exact += b;
    }
    // Degenerate pairs whose four corners still close a loop of axis-aligned edges: there
    // and back along one axis then another, and all along one axis.
    let v = |x: f32, y: f32| Vec3::new(x, y, 4.5);
    for p in
        [[v(2.0, 2.0), v(7.0, 2.0), v(2.0, 2.0), v(2.0, 8.0)], [v(2.0, 3.0), v(5.0, 3.0), v(8.0, 3.0), v(1.0, 3.0)]]
    {
        let mut m = TriangleMesh::default();
        m.append(p.iter().copied(), &[[0, 1, 2], [0, 2, 3]]);
        let (a, b) = compare_mesh(m);
        assert_eq!(a, b, "{p:?}");
    }
    println!("quads: rasterised={n} exact={exact}");
    assert!(n >= exact && n as f64 <= exact as f64 * 1.02);
}

/// A closed axis-aligned box shell (12 triangles), appended to `m`.
fn cube(m: &mut TriangleMesh, lo: Vec3, hi: Vec3) {
    let c = |i: u32| {
        Vec3::new(
            if i & 1 == 0 { lo.x } else { hi.x },
            if i & 2 == 0 { lo.y } else { hi.y },
            if i & 4 == 0 { lo.z } else { hi.z },
        )
    };
    let quads = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]];
    let t: Vec<[u32; 3]> = quads.iter().flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]]).collect();
    m.append((0..8).map(c), &t);
}

#[test]
fn hollow_solids_are_filled_and_the_outside_of_a_closed_room_is_sealed() {
    // A room (hollow box 0..20) with a hollow pillar (8..12) inside, and a pool of water.
    let mut solid = TriangleMesh::default();
    cube(&mut solid, Vec3::ZERO, Vec3::splat(20.0));
    cube(&mut solid, Vec3::new(8.2, 0.0, 8.2), Vec3::new(11.8, 20.0, 11.8));
    let mut water = TriangleMesh::default();
    cube(&mut water, Vec3::new(1.0, 0.0, 1.0), Vec3::new(6.0, 3.0, 6.0));
    let level = LevelMesh { solid, water };
    let seed = Vec3::new(15.5, 10.5, 15.5);
    let config = LevelConfig { voxel_size: 1.0, seeds: vec![seed], ..Default::default() };
    let built = build_level(&level, &config).unwrap();
    let w = &built.world;
    let at = |x: f32, y: f32, z: f32| w.get(w.voxel_at(Vec3::new(x, y, z)));
    assert_eq!(at(10.0, 10.0, 10.0), Voxel::Solid, "inside the pillar");
    assert_eq!(at(-1.5, 10.0, 10.0), Voxel::Solid, "outside the room");
    assert_eq!(at(15.5, 10.5, 15.5), Voxel::Air);
    assert_eq!(at(3.5, 1.5, 3.5), Voxel::Water);
    assert_eq!(at(3.5, 4.5, 3.5), Voxel::Air);
    // The free space inside is exactly the room minus walls, pillar: one component.
    let islands = Components::new(w, Media::ANY).unwrap();
    assert_eq!(islands.count(), 1);
    // Voxels: room 0..20 blocks layers -1 and 0 .. 19 and 20 on each axis: inside 1..=18.
    let inside = 18 * 18 * 18 - 18 * 4 * 4; // the pillar (8.2..11.8) blocks columns 8..=11
    let free = (w.dims().x * w.dims().y * w.dims().z) as u64 - built.stats.solid_voxels;
    assert_eq!(free, inside as u64);
    // Without seeds, interiors only: the pillar is filled, the room's inside stays free.
    let open = build_level(&level, &LevelConfig { voxel_size: 1.0, ..Default::default() }).unwrap();
    let ow = &open.world;
    assert_eq!(ow.get(ow.voxel_at(Vec3::new(15.5, 10.5, 15.5))), Voxel::Solid); // sealed room
    assert_eq!(ow.get(ow.voxel_at(Vec3::new(10.0, 10.0, 10.0))), Voxel::Solid); // the pillar
    assert_eq!(ow.get(ow.voxel_at(Vec3::new(-1.5, 10.0, 10.0))), Voxel::Air); // outside: open
    // A seed inside the hollow pillar is legal (free before sealing): only the pillar's
    // inside stays free.
    let inner = LevelConfig { voxel_size: 1.0, seeds: vec![Vec3::new(10.0, 10.0, 10.0)], ..Default::default() };
    let pillar = build_level(&level, &inner).unwrap();
    let pw = &pillar.world;
    assert_eq!(pw.get(pw.voxel_at(Vec3::new(15.5, 10.5, 15.5))), Voxel::Solid);
    assert_eq!(pw.get(pw.voxel_at(Vec3::new(10.0, 10.0, 10.0))), Voxel::Air);
}

#[test]
fn bad_configs_and_meshes_are_errors() {
    let mut solid = TriangleMesh::default();
    cube(&mut solid, Vec3::ZERO, Vec3::ONE);
    let level = LevelMesh { solid, water: TriangleMesh::default() };
    let with = |c: LevelConfig| build_level(&level, &c).err();
    assert_eq!(with(LevelConfig { voxel_size: 0.0, ..Default::default() }), Some(BuildError::InvalidVoxelSize(0.0)));
    assert_eq!(with(LevelConfig { origin: Some(Vec3::NAN), ..Default::default() }), Some(BuildError::NonFinite));
    assert!(matches!(
        with(LevelConfig { seeds: vec![Vec3::splat(100.0)], ..Default::default() }),
        Some(BuildError::SeedOutside(_))
    ));
    assert!(matches!(
        with(LevelConfig { seeds: vec![Vec3::splat(0.1)], ..Default::default() }),
        Some(BuildError::SeedBlocked(_))
    ));
    assert!(matches!(
        with(LevelConfig { voxel_size: 1e-4, ..Default::default() }),
        Some(BuildError::TooLarge { .. } | BuildError::World(_))
    ));
    assert_eq!(build_level(&LevelMesh::default(), &LevelConfig::default()).err(), Some(BuildError::EmptyMesh));
    let mut broken = level.clone();
    broken.solid.triangles.push([0, 1, 99]);
    assert!(matches!(build_level(&broken, &LevelConfig::default()), Err(BuildError::InvalidMesh(_))));
    broken.solid.triangles.pop();
    broken.solid.positions[0].x = f32::INFINITY;
    assert!(matches!(build_level(&broken, &LevelConfig::default()), Err(BuildError::InvalidMesh(_))));
}

#[test]
fn thread_count_does_not_change_the_world() {
    // A narrow grid (runs along y written into the x-rows) and a wide one (into y-columns).
    for width in [60.0, 250.0] {
        same_world_on_one_and_two_threads(width);
    }
}

fn same_world_on_one_and_two_threads(width: f32) {
    let mut r = rng(7);
    let mut solid = TriangleMesh::default();
    for _ in 0..2000 {
        let a = Vec3::new(r.random_range(0.0..width), r.random_range(0.0..60.0), r.random_range(0.0..60.0));
        let b = a + Vec3::new(r.random_range(-3.0..3.0), r.random_range(-3.0..3.0), r.random_range(-3.0..3.0));
        let c = a + Vec3::new(r.random_range(-3.0..3.0), r.random_range(-3.0..3.0), r.random_range(-3.0..3.0));
        solid.append([a, b, c], &[[0, 1, 2]]);
    }
    // Slivers (scanned as widened segments) and brush-face pairs (quads and boxes) too.
    for _ in 0..400 {
        let a = Vec3::new(r.random_range(0.0..width), r.random_range(0.0..60.0), r.random_range(0.0..60.0));
        let d = Vec3::new(r.random_range(-6.0..6.0), r.random_range(-6.0..6.0), r.random_range(-6.0..6.0));
        let off = Vec3::new(r.random_range(-1e-4..1e-4), r.random_range(-1e-4..1e-4), 0.0);
        solid.append([a, a + d, a + 0.37 * d + off], &[[0, 1, 2]]);
        let (w, h) = (r.random_range(0.5f32..8.0), r.random_range(0.5f32..8.0));
        let p =
            [a, a + Vec3::new(w, 0.0, 0.0), a + Vec3::new(w, h, 0.0), a + Vec3::new(0.0, h, r.random_range(0.0..0.3))];
        solid.append(p, &[[0, 1, 2], [0, 2, 3]]);
    }
    let level = LevelMesh { solid, water: TriangleMesh::default() };
    let build = |threads| {
        let c = LevelConfig { voxel_size: 0.5, threads, fill_interiors: false, ..Default::default() };
        build_level(&level, &c).unwrap().world
    };
    let (one, two) = (build(1), build(2));
    let d = one.dims().as_ivec3();
    // Wide enough for y-columns (an x-row of 64 bytes or more) when asked.
    assert_eq!(d.x >= 449, width > 200.0, "{d}");
    let mut blocked = 0;
    for z in 0..d.z {
        for y in 0..d.y {
            for x in 0..d.x {
                let v = IVec3::new(x, y, z);
                assert_eq!(one.get(v), two.get(v), "{v}");
                blocked += usize::from(one.is_blocked(v));
            }
        }
    }
    assert!(blocked > 10_000, "{blocked}");
}

#[test]
fn overlapping_water_shells_fill_the_centres_inside_their_union() {
    let mut water = TriangleMesh::default();
    // Faces on voxel centres (ties) and between them; the second box overlaps the first.
    let boxes =
        [(Vec3::new(1.5, 1.5, 1.5), Vec3::new(5.5, 4.2, 3.5)), (Vec3::new(4.0, 2.0, 2.0), Vec3::new(9.0, 3.0, 3.0))];
    for (lo, hi) in boxes {
        cube(&mut water, lo, hi);
    }
    let level = LevelMesh { solid: TriangleMesh::default(), water };
    let config = LevelConfig { voxel_size: 1.0, origin: Some(Vec3::ZERO), fill_interiors: false, ..Default::default() };
    let built = build_level(&level, &config).unwrap();
    let w = &built.world;
    let mut wet = 0;
    for z in 0..w.dims().z as i32 {
        for y in 0..w.dims().y as i32 {
            for x in 0..w.dims().x as i32 {
                let v = IVec3::new(x, y, z);
                let c = v.as_vec3() + 0.5;
                let want = boxes.iter().any(|&(lo, hi)| c.cmpge(lo).all() && c.cmple(hi).all());
                // A centre exactly on a face may go either way.
                let tie = boxes.iter().any(|&(lo, hi)| (0..3).any(|i| c[i] == lo[i] || c[i] == hi[i]));
                if !tie {
                    assert_eq!(w.get(v) == Voxel::Water, want, "{v}");
                    wet += u64::from(want);
                }
            }
        }
    }
    assert!(wet > 0);
    assert_eq!(built.stats.solid_voxels, 0, "water blocks nothing");
}
