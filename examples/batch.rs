//! Many agents at once: a batch of path queries solved on one thread and across all threads
//! (`find_paths`, feature `parallel`), checked equal, with the throughput of each.
//!
//! ```text
//! cargo run --release --example batch -- [MAP.3dmap SCEN.3dscen] [--every N] [--rounds N]
//! ```
//!
//! Without files it uses the Warframe map Complex from `$VOXNAV_WARFRAME_DIR` or
//! `../shared/benchmarks/warframe` (Moving AI Lab / Brewer & Sturtevant 2018, maps from Warframe
//! by Digital Extremes). The two modes run alternately, `--rounds` times each (default 3), and
//! the median of each is printed.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use voxnav::prelude::*;
use voxnav::{PathRequest, Scenario, find_paths, find_paths_sequential};

fn main() -> ExitCode {
    let mut files = Vec::new();
    let (mut every, mut rounds) = (10usize, 3usize);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut number = || args.next().and_then(|v| v.parse::<usize>().ok()).filter(|&n| n > 0);
        match a.as_str() {
            "--every" => every = number().unwrap_or(every),
            "--rounds" => rounds = number().unwrap_or(rounds),
            _ => files.push(PathBuf::from(a)),
        }
    }
    if files.is_empty() {
        let dir = std::env::var_os("VOXNAV_WARFRAME_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("../shared/benchmarks/warframe"));
        files = vec![dir.join("maps/Complex.3dmap"), dir.join("scenarios/Complex.3dmap.3dscen")];
    }
    let [map, scen] = files.as_slice() else {
        eprintln!("usage: batch [MAP.3dmap SCEN.3dscen] [--every N] [--rounds N]");
        return ExitCode::from(2);
    };
    let (world, scenario) = match (VoxelWorld::load_3dmap(map), Scenario::load(scen)) {
        (Ok(w), Ok(s)) => (w, s),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("cannot read the benchmark ({e}); give MAP.3dmap SCEN.3dscen");
            return ExitCode::from(2);
        }
    };
    let config = SearchConfig { costs: CostModel::PRECISE, ..Default::default() };
    let requests: Vec<PathRequest> =
        scenario.problems.iter().step_by(every).map(|p| PathRequest::new(p.start, p.goal, config)).collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (mut one, mut all) = (Vec::new(), Vec::new());
    let mut reference = None;
    for _ in 0..rounds {
        let t = Instant::now();
        let a = find_paths_sequential(&world, None, &requests);
        one.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let b = find_paths(&world, None, &requests);
        all.push(t.elapsed().as_secs_f64());
        if a != b || reference.as_ref().is_some_and(|r| *r != a) {
            eprintln!("the parallel batch differs from the sequential one");
            return ExitCode::FAILURE;
        }
        reference = Some(a);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (one, all) = (median(&mut one), median(&mut all));
    let n = requests.len() as f64;
    println!(
        "batch queries={} threads={threads} sequential_ms={:.1} parallel_ms={:.1} sequential_qps={:.0} parallel_qps={:.0} speedup={:.2} identical=yes",
        requests.len(),
        one * 1e3,
        all * 1e3,
        n / one,
        n / all,
        one / all
    );
    ExitCode::SUCCESS
}
