//! Carving keeps agents honest: solids round outward, carving (air or water) rounds inward, so
//! every carved voxel lies wholly inside the shape and a carved gap is never wider than asked.
//! Checked against an independent per-cell test on seeded random shapes.

mod common;

use glam::{IVec3, UVec3, Vec3};
use rand::RngExt;
use voxnav::{Voxel, VoxelWorld};

/// Shapes as (exact "cell wholly inside", exact "cell overlaps") tests in voxel units.
enum Shape {
    Box(Vec3, Vec3),
    Ball(Vec3, f32),
    Capsule(Vec3, Vec3, f32),
}

fn segment_distance(a: Vec3, b: Vec3, p: Vec3) -> f32 {
    let d = b - a;
    let t = if d.length_squared() > 0.0 { ((p - a).dot(d) / d.length_squared()).clamp(0.0, 1.0) } else { 0.0 };
    (a + d * t).distance(p)
}

impl Shape {
    /// Whether the whole cell `[v, v + 1]` lies inside (all eight corners: the shapes are
    /// convex), the shape grown by `eps` (negative: shrunk) to absorb rounding.
    fn holds(&self, v: IVec3, eps: f32) -> bool {
        (0..8).all(|i| {
            let p = v.as_vec3() + Vec3::new((i & 1) as f32, (i >> 1 & 1) as f32, (i >> 2) as f32);
            match *self {
                Shape::Box(lo, hi) => p.cmpge(lo - eps).all() && p.cmple(hi + eps).all(),
                Shape::Ball(c, r) => p.distance(c) <= r + eps,
                Shape::Capsule(a, b, r) => segment_distance(a, b, p) <= r + eps,
            }
        })
    }

    /// Whether the cell's interior meets the shape (sampled densely, a lower bound).
    fn meets(&self, v: IVec3) -> bool {
        let n = 6;
        (0..n * n * n).any(|i| {
            let f = Vec3::new((i % n) as f32, (i / n % n) as f32, (i / (n * n)) as f32);
            let p = v.as_vec3() + (f + 0.5) / n as f32;
            match *self {
                Shape::Box(lo, hi) => p.cmpgt(lo).all() && p.cmplt(hi).all(),
                Shape::Ball(c, r) => p.distance(c) < r,
                Shape::Capsule(a, b, r) => segment_distance(a, b, p) < r,
            }
        })
    }

    fn fill(&self, world: &mut VoxelWorld, voxel: Voxel) -> usize {
        match *self {
            Shape::Box(lo, hi) => world.fill_box(lo, hi, voxel),
            Shape::Ball(c, r) => world.fill_sphere(c, r, voxel),
            Shape::Capsule(a, b, r) => world.fill_capsule(a, b, r, voxel),
        }
        .unwrap()
    }
}

#[test]
fn carved_voxels_lie_wholly_inside_and_solids_cover_the_shape() {
    let mut rng = common::rng(0xCA2F);
    let dims = UVec3::splat(16);
    let mut carved_total = 0;
    for i in 0..300 {
        let p = |rng: &mut rand::rngs::StdRng| {
            Vec3::new(rng.random_range(1.0..15.0), rng.random_range(1.0..15.0), rng.random_range(1.0..15.0))
        };
        let (a, b) = (p(&mut rng), p(&mut rng));
        let r = rng.random_range(0.2..4.0);
        let shape = match i % 3 {
            0 => Shape::Box(a.min(b), a.max(b)),
            1 => Shape::Ball(a, r),
            _ => Shape::Capsule(a, b, r),
        };
        for voxel in [Voxel::Air, Voxel::Water] {
            let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, dims).unwrap();
            world.fill_voxels(IVec3::ZERO, IVec3::splat(15), Voxel::Solid).unwrap();
            let n = shape.fill(&mut world, voxel);
            let mut count = 0;
            for v in (0..16 * 16 * 16).map(|k| IVec3::new(k % 16, k / 16 % 16, k / 256)) {
                if world.get(v) == voxel {
                    assert!(shape.holds(v, 1e-4), "shape {i}: carved {v} is not wholly inside");
                    count += 1;
                } else if shape.holds(v, -1e-4) {
                    panic!("shape {i}: {v} lies wholly inside but was not carved");
                }
            }
            assert_eq!(n, count);
            carved_total += count;
        }
        let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, dims).unwrap();
        shape.fill(&mut world, Voxel::Solid);
        for v in (0..16 * 16 * 16).map(|k| IVec3::new(k % 16, k / 16 % 16, k / 256)) {
            if shape.meets(v) {
                assert!(world.is_blocked(v), "shape {i}: solid misses {v}");
            }
        }
    }
    assert!(carved_total > 10_000, "only {carved_total} voxels carved: the shapes are too small to test");
}

#[test]
fn a_gap_narrower_than_a_voxel_carves_nothing() {
    let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(8, 8, 8)).unwrap();
    world.fill_voxels(IVec3::new(4, 0, 0), IVec3::new(4, 7, 7), Voxel::Solid).unwrap();
    // A slot 0.9 voxel wide through the wall: an agent of one voxel must not pass.
    let n = world.fill_box(Vec3::new(3.5, 2.05, 2.0), Vec3::new(5.5, 2.95, 6.0), Voxel::Air).unwrap();
    assert_eq!(n, 0);
    assert!((0..8).all(|y| (0..8).all(|z| world.is_blocked(IVec3::new(4, y, z)))));
    // A full voxel's slot opens exactly one row of voxels.
    let n = world.fill_box(Vec3::new(3.5, 2.0, 2.0), Vec3::new(5.5, 3.0, 6.0), Voxel::Air).unwrap();
    assert_eq!(n, 4);
}
