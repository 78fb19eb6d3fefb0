//! Voxelising the shared real levels (`../shared/levels/`, skipped when absent): triangles per
//! second of our conservative rasteriser on one thread and on two, side by side with parry3d's
//! surface voxeliser (`VoxelSet::with_voxel_size`, `FillMode::SurfaceOnly`) on the same solid
//! triangles and voxel size. Every iteration asserts its voxel count against an untimed run.

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::Duration;

use common::levels::{LEVELS, levels_dir};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parry3d::transformation::voxelization::{FillMode, VoxelSet};
use voxnav::{LevelConfig, LevelMesh, build_level};

fn voxelize(c: &mut Criterion) {
    let Some(dir) = levels_dir() else { return };
    let pools: Vec<rayon::ThreadPool> =
        [1, 2].map(|n| rayon::ThreadPoolBuilder::new().num_threads(n).build().unwrap()).into();
    for level in &LEVELS {
        let loaded = LevelMesh::load(dir.join(format!("{}.glb", level.name)), "water").unwrap();
        // The solid triangles only, surface only: the rasteriser and the world's writes.
        let mesh = LevelMesh { solid: loaded.solid, water: Default::default() };
        let config = LevelConfig { voxel_size: level.voxel, fill_interiors: false, ..Default::default() };
        let expected = build_level(&mesh, &config).unwrap().stats.surface_voxels;
        let points: Vec<parry3d::math::Vector> =
            mesh.solid.positions.iter().map(|p| parry3d::math::Vector::new(p.x, p.y, p.z)).collect();
        let parry =
            || VoxelSet::with_voxel_size(&points, &mesh.solid.triangles, level.voxel, FillMode::SurfaceOnly, false);
        println!(
            "level {} triangles={} voxel={} voxnav_voxels={expected}",
            level.name,
            mesh.solid.triangles.len(),
            level.voxel
        );
        let mut group = c.benchmark_group(format!("voxelize/{}", level.name));
        group.throughput(Throughput::Elements(mesh.solid.triangles.len() as u64));
        group.sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(2));
        for (threads, pool) in [1, 2].iter().zip(&pools) {
            group.bench_function(format!("voxnav_{threads}_thread"), |b| {
                b.iter(|| {
                    let built = pool.install(|| build_level(black_box(&mesh), &config)).unwrap();
                    assert_eq!(built.stats.surface_voxels, expected);
                    built
                })
            });
        }
        // Untimed, once, and only when this bench is selected (it is slow).
        let parry_expected = std::cell::OnceCell::new();
        group.bench_function("parry3d", |b| {
            let parry_expected = *parry_expected.get_or_init(|| {
                let n = parry().len();
                println!("level {} parry3d_voxels={n}", level.name);
                n
            });
            b.iter(|| {
                let set = parry();
                assert_eq!(set.len(), parry_expected);
                set
            })
        });
        group.finish();
    }
}

criterion_group!(benches, voxelize);
criterion_main!(benches);
