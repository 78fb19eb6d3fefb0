//! Media with prices on the shared game levels: an amphibious agent (air at 100 %, water at
//! 300 %: a cormorant that may dive) between random voxels, A* and jump point search side by
//! side on each query. Jump point search cannot jump where moves cost more by the medium they
//! enter; it runs A* with its pruning rule where every free voxel around a voxel has one price.
//!
//! ```text
//! cargo run --release --example media -- [--queries N] [--levels a,b,..]
//! ```
//!
//! Levels are read from `VOXNAV_LEVELS_DIR` or `../shared/levels` (the ones with water by
//! default). Half the queries have both ends in water, half both in air. Per level one line:
//! `media level=.. queries=.. unreachable=.. wrong=.. astar_ms=.. jps_ms=.. speedup_total=.. speedup_p99=..
//! astar_median_us=.. jps_median_us=.. astar_generated=.. jps_generated=.. astar_expanded=..
//! jps_expanded=..`; `wrong` counts paths whose cost differs from A*'s (must be 0).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use voxnav::prelude::*;
use voxnav::{LevelConfig, LevelMesh, build_level};

/// The levels with water, their voxel size and a seed point in open space (from
/// `../shared/levels/README.md`).
const LEVELS: [(&str, f32, [f32; 3]); 4] = [
    ("oa_hydronex", 0.5, [14.83, 2.23, 48.56]),
    ("oa_dm7", 0.25, [11.38, 4.66, 17.07]),
    ("oa_islandctf", 0.5, [11.79, 17.67, -0.41]),
    ("lq_e0m2", 0.5, [3.66, 6.49, 46.74]),
];

fn percentile(v: &[u128], p: f64) -> u128 {
    let mut s = v.to_vec();
    s.sort_unstable();
    s[((s.len() - 1) as f64 * p).round() as usize]
}

fn main() -> ExitCode {
    let mut queries = 200;
    let mut only: Option<Vec<String>> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match (a.as_str(), args.next()) {
            ("--queries", Some(n)) if n.parse::<usize>().is_ok_and(|n| n > 0) => queries = n.parse().unwrap_or(200),
            ("--levels", Some(l)) => only = Some(l.split(',').map(str::to_owned).collect()),
            _ => {
                eprintln!("usage: media [--queries N] [--levels a,b,..]");
                return ExitCode::from(2);
            }
        }
    }
    let dir = std::env::var_os("VOXNAV_LEVELS_DIR").map_or_else(|| PathBuf::from("../shared/levels"), PathBuf::from);
    let media = Media { air: Some(100), water: Some(300) };
    let mut failed = false;
    for (name, voxel_size, seed) in LEVELS {
        if only.as_ref().is_some_and(|o| !o.iter().any(|n| n == name)) {
            continue;
        }
        let path = dir.join(format!("{name}.glb"));
        let mesh = match LevelMesh::load(&path, "water") {
            Ok(m) => m,
            Err(e) => {
                eprintln!("{}: {e} (set VOXNAV_LEVELS_DIR)", path.display());
                return ExitCode::FAILURE;
            }
        };
        let config = LevelConfig { voxel_size, seeds: vec![Vec3::from(seed)], ..Default::default() };
        let world = match build_level(&mesh, &config) {
            Ok(b) => b.world,
            Err(e) => {
                eprintln!("{name}: {e}");
                return ExitCode::FAILURE;
            }
        };
        // Every free voxel is joined to the seed (the build sealed the rest).
        let d = world.dims().as_ivec3();
        let (mut air, mut water) = (Vec::new(), Vec::new());
        for z in 0..d.z {
            for y in 0..d.y {
                for x in 0..d.x {
                    let v = IVec3::new(x, y, z);
                    match world.get(v) {
                        Voxel::Air => air.push(v),
                        Voxel::Water => water.push(v),
                        Voxel::Solid => {}
                    }
                }
            }
        }
        if air.is_empty() || water.is_empty() {
            eprintln!("{name}: no air or no water");
            return ExitCode::FAILURE;
        }
        // A fixed seed, so every run asks the same queries.
        let mut rng = StdRng::seed_from_u64(0x00C0_4A0A);
        let mut finder = Pathfinder::new();
        let (mut nanos, mut generated, mut expanded) = ([vec![], vec![]], [0usize; 2], [0usize; 2]);
        let (mut wrong, mut unreachable) = (0, 0);
        for q in 0..queries {
            let pick = |rng: &mut StdRng, from: &[IVec3]| from[rng.random_range(0..from.len())];
            let (start, goal) = if q % 2 == 0 {
                (pick(&mut rng, &water), pick(&mut rng, &water))
            } else {
                (pick(&mut rng, &air), pick(&mut rng, &air))
            };
            let mut costs = [None; 2];
            for (i, algorithm) in [Algorithm::AStar, Algorithm::Jps].into_iter().enumerate() {
                let config = SearchConfig { media, algorithm, ..Default::default() };
                let t = Instant::now();
                let found = finder.find(&world, None, &PathRequest::new(start, goal, config));
                nanos[i].push(t.elapsed().as_nanos());
                match found {
                    Ok(path) => {
                        costs[i] = Some(path.cost);
                        generated[i] += path.stats.generated;
                        expanded[i] += path.stats.expanded;
                    }
                    // Voxels joined to the seed only through moves the strict diagonal rule
                    // forbids: both searches must say so.
                    Err(PathError::Unreachable { expanded: e }) => expanded[i] += e,
                    Err(e) => {
                        eprintln!("{name} #{q} {algorithm:?} {start} -> {goal}: {e}");
                        failed = true;
                    }
                }
            }
            unreachable += usize::from(costs == [None, None]);
            if costs[0] != costs[1] {
                wrong += 1;
                eprintln!("{name} #{q} {start} -> {goal}: A* {:?} JPS {:?}", costs[0], costs[1]);
            }
        }
        let total = |i: usize| nanos[i].iter().sum::<u128>() as f64 / 1e6;
        let (p99a, p99j) = (percentile(&nanos[0], 0.99), percentile(&nanos[1], 0.99));
        println!(
            "media level={name} queries={queries} unreachable={unreachable} wrong={wrong} astar_ms={:.2} jps_ms={:.2} speedup_total={:.2} \
             speedup_p99={:.2} astar_median_us={} jps_median_us={} astar_generated={} jps_generated={} \
             astar_expanded={} jps_expanded={}",
            total(0),
            total(1),
            total(0) / total(1),
            p99a as f64 / p99j.max(1) as f64,
            percentile(&nanos[0], 0.5) / 1000,
            percentile(&nanos[1], 0.5) / 1000,
            generated[0],
            generated[1],
            expanded[0],
            expanded[1],
        );
        failed |= wrong > 0;
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
