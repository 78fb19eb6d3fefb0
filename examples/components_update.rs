//! Connectivity labels after a local edit: `Components::update` (relabels only the chunks
//! edited since) against a full rebuild, on every Warframe map, checked equal.
//!
//! ```text
//! cargo run --release --example components_update -- [--edits N]
//! ```
//!
//! For each map (from `$VOXNAV_WARFRAME_DIR` or `../shared/benchmarks/warframe`: Moving AI Lab /
//! Brewer & Sturtevant 2018, maps from Warframe by Digital Extremes), `--edits` times (default
//! 5): a 3x3x3 block of solid is dropped at a seeded voxel next to the map's geometry, the
//! labels are updated and, separately, rebuilt from scratch; the two must give the same
//! partition on sampled voxel pairs. Prints one line per map with the median times and their
//! ratio, and a summary line.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use voxnav::prelude::*;

/// A tiny fixed-seed generator (xorshift), so runs repeat.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u32) -> i32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % u64::from(n.max(1))) as i32
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> ExitCode {
    let mut edits = 5usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--edits" {
            edits = args.next().and_then(|v| v.parse().ok()).filter(|&n| n > 0).unwrap_or(edits);
        }
    }
    let dir = std::env::var_os("VOXNAV_WARFRAME_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("../shared/benchmarks/warframe"));
    let Ok(entries) = std::fs::read_dir(dir.join("maps")) else {
        eprintln!("Warframe maps not found in {} (set VOXNAV_WARFRAME_DIR)", dir.display());
        return ExitCode::from(2);
    };
    let mut maps: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
    maps.sort();
    let (mut all_update, mut all_build) = (0.0, 0.0);
    println!("map update_ms build_ms ratio");
    for path in maps {
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let mut world = match VoxelWorld::load_3dmap(&path) {
            Ok(w) => w,
            Err(e) => {
                eprintln!("{name}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let d = world.dims().as_ivec3();
        let mut rng = Rng(0x5EED ^ d.x as u64);
        let mut labels = Components::new(&world, Media::ANY).expect("within the default limits");
        let (mut update_ms, mut build_ms) = (Vec::new(), Vec::new());
        let mut done = 0;
        while done < edits {
            // A free voxel next to a blocked one: edits happen where the geometry is.
            let v = IVec3::new(rng.below(d.x as u32), rng.below(d.y as u32), rng.below(d.z as u32));
            let near =
                (-1..=1).any(|dz| (-1..=1).any(|dy| (-1..=1).any(|dx| world.is_blocked(v + IVec3::new(dx, dy, dz)))));
            if world.is_blocked(v) || !near {
                continue;
            }
            world.fill_voxels(v - 1, v + 1, Voxel::Solid).expect("a small fill");
            let t = Instant::now();
            assert!(labels.update(&world).expect("within the default limits"));
            update_ms.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            let fresh = Components::new(&world, Media::ANY).expect("within the default limits");
            build_ms.push(t.elapsed().as_secs_f64() * 1e3);
            // Same partition on sampled pairs of free voxels.
            for _ in 0..2000 {
                let a = IVec3::new(rng.below(d.x as u32), rng.below(d.y as u32), rng.below(d.z as u32));
                let b = IVec3::new(rng.below(d.x as u32), rng.below(d.y as u32), rng.below(d.z as u32));
                assert_eq!(labels.connected(&world, a, b), fresh.connected(&world, a, b), "{name}: {a} {b}");
            }
            assert_eq!(labels.count(), fresh.count(), "{name}");
            done += 1;
        }
        let (u, b) = (median(&mut update_ms), median(&mut build_ms));
        all_update += u;
        all_build += b;
        println!("{name} {u:.2} {b:.2} {:.1}x", b / u);
    }
    println!("summary update_ms_sum={all_update:.1} build_ms_sum={all_build:.1} ratio={:.1}x", all_build / all_update);
    ExitCode::SUCCESS
}
