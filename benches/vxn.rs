//! Loading baked worlds (`.vxn`) of the shared real levels (`../shared/levels/`, skipped when
//! absent), each baked once with the README's voxel size and seed: `from_vxn_bytes` with the
//! allocator's warm memory, `from_vxn_bytes` into fresh memory (every world of a batch kept
//! until the batch ends, as a game's first load is), and `load_vxn` from a file. Every iteration
//! asserts the loaded world's dims, water and memory against an untimed load.

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::Duration;

use common::levels::{LEVELS, levels_dir};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use voxnav::{LevelConfig, LevelMesh, Limits, VoxelWorld, build_level};

fn vxn(c: &mut Criterion) {
    let Some(dir) = levels_dir() else { return };
    for level in &LEVELS {
        let mesh = LevelMesh::load(dir.join(format!("{}.glb", level.name)), "water").unwrap();
        let config = LevelConfig { voxel_size: level.voxel, seeds: vec![level.seed], ..Default::default() };
        let world = build_level(&mesh, &config).unwrap().world;
        let mut bytes = Vec::new();
        world.write_vxn(&mut bytes).unwrap();
        let path = std::env::temp_dir().join(format!("voxnav-bench-{}-{}.vxn", level.name, std::process::id()));
        std::fs::write(&path, &bytes).unwrap();
        let loaded = VoxelWorld::from_vxn_bytes(&bytes, Limits::DEFAULT).unwrap();
        let expected = (loaded.dims(), loaded.has_water(), loaded.memory_bytes());
        let check = |w: VoxelWorld| {
            assert_eq!((w.dims(), w.has_water(), w.memory_bytes()), expected);
            w
        };
        println!(
            "level {} file_bytes={} world_bytes={} built_world_bytes={}",
            level.name,
            bytes.len(),
            expected.2,
            world.memory_bytes()
        );
        let mut group = c.benchmark_group(format!("vxn/{}", level.name));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.sample_size(50).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(2));
        group.bench_function("from_vxn_bytes", |b| {
            b.iter(|| check(VoxelWorld::from_vxn_bytes(black_box(&bytes), Limits::DEFAULT).unwrap()))
        });
        group.bench_function("from_vxn_bytes_fresh_memory", |b| {
            b.iter_with_large_drop(|| check(VoxelWorld::from_vxn_bytes(black_box(&bytes), Limits::DEFAULT).unwrap()))
        });
        group.bench_function("load_vxn", |b| {
            b.iter(|| check(VoxelWorld::load_vxn(black_box(&path), Limits::DEFAULT).unwrap()))
        });
        group.finish();
        std::fs::remove_file(&path).unwrap();
    }
}

criterion_group!(benches, vxn);
criterion_main!(benches);
