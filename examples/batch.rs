//! Many agents at once: a batch of path queries solved on one thread and across all threads
//! (`find_paths`, feature `parallel`), checked equal, with the throughput of each.
//!
//! ```text
//! cargo run --release --example batch -- [MAP.3dmap SCEN.3dscen] [--every N] [--rounds N]
//!     [--per-call N] [--algorithm astar|jps|budget]
//! ```
//!
//! Without files it uses the Warframe map Complex from `$VOXNAV_WARFRAME_DIR` or
//! `../shared/benchmarks/warframe` (Moving AI Lab / Brewer & Sturtevant 2018, maps from Warframe
//! by Digital Extremes). The two modes run alternately, `--rounds` times each (default 3), and
//! the median of each is printed. With `--per-call N` the requests go in calls of `N` each, one
//! after another, as a game would send each frame's requests: the times are those of all the
//! calls of a round. `--algorithm` picks the search (default: A*).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use voxnav::prelude::*;
use voxnav::{PathRequest, Scenario, find_paths, find_paths_sequential};

fn main() -> ExitCode {
    let mut files = Vec::new();
    let (mut every, mut rounds, mut per_call) = (10usize, 3usize, usize::MAX);
    let mut algorithm = Algorithm::AStar;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut number = || args.next().and_then(|v| v.parse::<usize>().ok()).filter(|&n| n > 0);
        match a.as_str() {
            "--every" => every = number().unwrap_or(every),
            "--rounds" => rounds = number().unwrap_or(rounds),
            "--per-call" => per_call = number().unwrap_or(per_call),
            "--algorithm" => match args.next().as_deref() {
                Some("astar") => algorithm = Algorithm::AStar,
                Some("jps") => algorithm = Algorithm::Jps,
                Some("budget") => algorithm = Algorithm::BUDGET,
                _ => {
                    eprintln!("--algorithm takes astar, jps or budget");
                    return ExitCode::from(2);
                }
            },
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
        eprintln!("usage: batch [MAP.3dmap SCEN.3dscen] [--every N] [--rounds N] [--per-call N] [--algorithm A]");
        return ExitCode::from(2);
    };
    let (world, scenario) = match (VoxelWorld::load_3dmap(map), Scenario::load(scen)) {
        (Ok(w), Ok(s)) => (w, s),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("cannot read the benchmark ({e}); give MAP.3dmap SCEN.3dscen");
            return ExitCode::from(2);
        }
    };
    let config = SearchConfig { costs: CostModel::PRECISE, algorithm, ..Default::default() };
    let requests: Vec<PathRequest> =
        scenario.problems.iter().step_by(every).map(|p| PathRequest::new(p.start, p.goal, config)).collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (mut one, mut all) = (Vec::new(), Vec::new());
    let mut reference = None;
    for _ in 0..rounds {
        let t = Instant::now();
        let a: Vec<_> = requests.chunks(per_call).flat_map(|call| find_paths_sequential(&world, None, call)).collect();
        one.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let b: Vec<_> = requests.chunks(per_call).flat_map(|call| find_paths(&world, None, call)).collect();
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
        "batch queries={} per_call={} algorithm={algorithm:?} threads={threads} sequential_ms={:.1} parallel_ms={:.1} sequential_qps={:.0} parallel_qps={:.0} speedup={:.2} identical=yes",
        requests.len(),
        per_call.min(requests.len()),
        one * 1e3,
        all * 1e3,
        n / one,
        n / all,
        one / all
    );
    ExitCode::SUCCESS
}
