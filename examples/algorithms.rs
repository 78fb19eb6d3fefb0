//! Compares the search algorithms side by side, in one run, on the Moving AI 3D benchmark.
//!
//! ```text
//! cargo run --release --example algorithms -- [--every N] [--maps A1,BA1,...] [--skip astar]
//!     [--weight PERCENT] [--closest] [--csv FILE] [--passes N]
//! ```
//!
//! For every map of the Warframe set (found through `VOXNAV_WARFRAME_DIR` or
//! `../shared/benchmarks/warframe`), solves every N-th problem (default 500) with A*, jump
//! point search and the budget mode (`Algorithm::BUDGET`, `--weight` sets its first weight; precise costs), checks each length against the
//! scenario's optimum, and prints one `row` line per map and algorithm (median / p99 / max
//! microseconds and expanded nodes, total milliseconds and expansions, voxels swept and chunks
//! scanned by jump point search, median and largest peak memory of a query and on how many
//! problems it exceeded A*'s, mean and max excess) plus
//! the speed-up of JPS over A*. `--closest` adds a fourth run, A* with `Fallback::Closest` (the
//! same path and cost as A* when the goal is reachable, as on every benchmark problem). Exits
//! non-zero if an exact mode returns a non-optimal length.
//!
//! `--passes N` (default 1) runs the whole benchmark N times in one process, each pass as the
//! first (every map's world loaded again, a new pathfinder per map, the algorithms in turn on
//! each problem), and reports each query's median time over the passes: an interruption of the
//! process (a tenth of a millisecond is a tenth of jump point search's total on the smallest
//! map) then moves no total. The counts must be the same in every pass; a query whose counts
//! differ is counted as wrong.

use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Instant;

use voxnav::prelude::*;
use voxnav::{Problem, Scenario};

/// A query's length (its bits), expansions, voxels swept, chunks scanned and peak bytes.
type Counts = (u64, usize, usize, usize, usize);

struct Run {
    name: &'static str,
    algorithm: Algorithm,
    fallback: Fallback,
    /// Nanoseconds of each query (reported in microseconds: whole microseconds per query
    /// would drop half a microsecond from each, a bias toward the faster mode): with
    /// `--passes`, each query's median over the passes.
    nanos: Vec<u128>,
    /// Each query's nanoseconds in every pass so far.
    passes: Vec<Vec<u128>>,
    /// Each answered query's CSV line, without its time, by the query's place in the sample.
    csv: Vec<(usize, String)>,
    /// Each query's answer and counts, from the first pass: later passes must give the same.
    counts: Vec<Option<Counts>>,
    /// The problems where a query's peak bytes exceeded A*'s.
    above_astar: usize,
    excess: Vec<f64>,
    wrong: usize,
}

impl Run {
    /// Peak bytes of each query (`None`: no path).
    fn bytes(&self) -> Vec<Option<usize>> {
        self.counts.iter().map(|c| c.map(|c| c.4)).collect()
    }

    /// One count (`pick`) of each answered query: expansions, voxels swept (jump point search)
    /// or chunks scanned.
    fn answered(&self, pick: impl Fn(&Counts) -> usize) -> Vec<usize> {
        self.counts.iter().flatten().map(pick).collect()
    }
}

fn pct<T: Copy + Default + Ord>(v: &[T], q: f64) -> T {
    let mut s = v.to_vec();
    s.sort_unstable();
    if s.is_empty() { T::default() } else { s[((s.len() - 1) as f64 * q).round() as usize] }
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut every, mut maps, mut skip, mut budget, mut csv) =
        (500usize, None::<Vec<String>>, Vec::new(), Algorithm::BUDGET, None);
    let mut closest = false;
    let mut passes = 1usize;
    while let Some(a) = args.next() {
        if a == "--closest" {
            closest = true;
            continue;
        }
        let v = args.next().unwrap_or_default();
        match a.as_str() {
            "--every" => every = v.parse().unwrap_or(500).max(1),
            "--maps" => maps = Some(v.split(',').map(String::from).collect()),
            "--skip" => skip = v.split(',').map(String::from).collect(),
            "--weight" => {
                if let (Algorithm::Budget { phase_expansions, .. }, Ok(percent)) = (budget, v.parse()) {
                    budget = Algorithm::Budget { percent, phase_expansions };
                }
            }
            "--csv" => csv = Some(v),
            "--passes" => passes = v.parse().unwrap_or(1).max(1),
            _ => {
                eprintln!("unknown option {a}");
                return ExitCode::from(2);
            }
        }
    }
    let dir = std::env::var("VOXNAV_WARFRAME_DIR").unwrap_or_else(|_| "../shared/benchmarks/warframe".into());
    let Ok(entries) = std::fs::read_dir(format!("{dir}/maps")) else {
        println!("Warframe maps not found in {dir} (set VOXNAV_WARFRAME_DIR): nothing to do");
        return ExitCode::SUCCESS;
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".3dmap").map(String::from))
        .filter(|n| maps.as_ref().is_none_or(|m| m.contains(n)))
        .collect();
    names.sort();
    let mut failed = false;
    let mut csv_out = String::from("map,index,algorithm,optimal,length,expanded,swept,chunks,peak_bytes,micros\n");
    let new_runs = || -> Vec<Run> {
        [
            ("astar", Algorithm::AStar, Fallback::Fail),
            ("jps", Algorithm::Jps, Fallback::Fail),
            ("budget", budget, Fallback::Fail),
            ("closest", Algorithm::AStar, Fallback::Closest),
        ]
        .into_iter()
        .filter(|&(n, ..)| !skip.iter().any(|s| s == n) && (closest || n != "closest"))
        .map(|(name, algorithm, fallback)| Run {
            name,
            algorithm,
            fallback,
            nanos: vec![],
            passes: vec![],
            csv: vec![],
            counts: vec![],
            above_astar: 0,
            excess: vec![],
            wrong: 0,
        })
        .collect()
    };
    let mut all: Vec<(String, Vec<Run>)> = names.into_iter().map(|n| (n, new_runs())).collect();
    let mut line = String::new();
    for pass in 0..passes {
        for (name, runs) in &mut all {
            let world = match VoxelWorld::load_3dmap(format!("{dir}/maps/{name}.3dmap")) {
                Ok(w) => w,
                Err(e) => {
                    eprintln!("{name}: {e}");
                    return ExitCode::from(2);
                }
            };
            let scen = match Scenario::load(format!("{dir}/scenarios/{name}.3dmap.3dscen")) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("{name}: {e}");
                    return ExitCode::from(2);
                }
            };
            let problems: Vec<(usize, Problem)> = scen.problems.iter().copied().enumerate().step_by(every).collect();
            let mut finder = Pathfinder::new();
            for (q, &(index, p)) in problems.iter().enumerate() {
                for run in runs.iter_mut() {
                    let config = SearchConfig {
                        costs: CostModel::PRECISE,
                        algorithm: run.algorithm,
                        fallback: run.fallback,
                        ..Default::default()
                    };
                    let t = Instant::now();
                    let result = finder.find(&world, None, &PathRequest::new(p.start, p.goal, config));
                    let ns = t.elapsed().as_nanos();
                    if pass == 0 {
                        run.passes.push(Vec::with_capacity(passes));
                    }
                    run.passes[q].push(ns);
                    let chunks = finder.chunks_scanned();
                    let counts = result.as_ref().ok().map(|path| {
                        (path.length.to_bits(), path.stats.expanded, path.stats.swept, chunks, path.stats.peak_bytes)
                    });
                    line.clear();
                    if let (0, Ok(path)) = (pass, &result) {
                        let _ = write!(
                            line,
                            "{name},{index},{},{:.8},{:.8},{},{},{},{}",
                            run.name,
                            p.optimal_length,
                            path.length,
                            path.stats.expanded,
                            path.stats.swept,
                            chunks,
                            path.stats.peak_bytes
                        );
                    }
                    if pass > 0 {
                        // The same query again: the same answer and counts.
                        if counts != run.counts[q] {
                            run.wrong += 1;
                            eprintln!("{name} {index} {}: pass {pass} differs from the first", run.name);
                        }
                        continue;
                    }
                    run.counts.push(counts);
                    match result {
                        Ok(path) => {
                            let excess = (path.length - p.optimal_length) / p.optimal_length.max(1e-9);
                            run.excess.push(excess.max(0.0));
                            if run.algorithm.suboptimality_bound() == 1.0
                                && (path.length - p.optimal_length).abs() > 1e-6
                            {
                                run.wrong += 1;
                                eprintln!("{name} {index} {}: {} != {}", run.name, path.length, p.optimal_length);
                            }
                            run.csv.push((q, line.clone()));
                        }
                        Err(e) => {
                            run.wrong += 1;
                            eprintln!("{name} {index} {}: {e}", run.name);
                        }
                    }
                }
            }
        }
    }
    for (name, runs) in &mut all {
        let name = name.as_str();
        for run in runs.iter_mut() {
            run.nanos = run.passes.iter().map(|t| pct(t, 0.5)).collect();
            for (q, prefix) in &run.csv {
                let _ = writeln!(csv_out, "{prefix},{:.3}", run.nanos[*q] as f64 / 1e3);
            }
        }
        // Problem by problem, whether a run's query held more memory at its peak than A*'s.
        if let Some(astar) = runs.iter().position(|r| r.name == "astar") {
            let reference = runs[astar].bytes();
            for run in runs.iter_mut() {
                run.above_astar = run
                    .bytes()
                    .iter()
                    .zip(&reference)
                    .filter(|(b, a)| matches!((b, a), (Some(b), Some(a)) if b > a))
                    .count();
            }
        }
        let astar_total: u128 = runs.iter().find(|r| r.name == "astar").map_or(0, |r| r.nanos.iter().sum());
        let astar_p99 = runs.iter().find(|r| r.name == "astar").map_or(0, |r| pct(&r.nanos, 0.99));
        for run in runs.iter() {
            let (expanded, swept, chunks) = (run.answered(|c| c.1), run.answered(|c| c.2), run.answered(|c| c.3));
            let total: u128 = run.nanos.iter().sum();
            let us = |ns: u128| (ns + 500) / 1000;
            let mean_excess = run.excess.iter().sum::<f64>() / run.excess.len().max(1) as f64;
            let max_excess = run.excess.iter().copied().fold(0.0, f64::max);
            let mut line = format!(
                "row map={name} algorithm={} problems={} wrong={} total_ms={:.2} median_us={} p99_us={} max_us={} \
                 median_expanded={} p99_expanded={} max_expanded={} total_expanded={} median_swept={} \
                 total_swept={} median_chunks={} total_chunks={} median_peak_kb={} max_peak_kb={} above_astar_bytes={} \
                 mean_excess={mean_excess:.6} max_excess={max_excess:.6}",
                run.name,
                run.passes.len(),
                run.wrong,
                total as f64 / 1e6,
                us(pct(&run.nanos, 0.5)),
                us(pct(&run.nanos, 0.99)),
                us(run.nanos.iter().max().copied().unwrap_or(0)),
                pct(&expanded, 0.5),
                pct(&expanded, 0.99),
                expanded.iter().max().copied().unwrap_or(0),
                expanded.iter().sum::<usize>(),
                pct(&swept, 0.5),
                swept.iter().sum::<usize>(),
                pct(&chunks, 0.5),
                chunks.iter().sum::<usize>(),
                pct(&run.bytes().into_iter().flatten().collect::<Vec<_>>(), 0.5) / 1024,
                run.bytes().into_iter().flatten().max().unwrap_or(0) / 1024,
                run.above_astar,
            );
            if astar_total > 0 && run.name != "astar" {
                let _ = write!(
                    line,
                    " speedup_total={:.1} speedup_p99={:.1}",
                    astar_total as f64 / total.max(1) as f64,
                    astar_p99 as f64 / pct(&run.nanos, 0.99).max(1) as f64
                );
            }
            println!("{line}");
            failed |= run.wrong > 0 && run.algorithm.suboptimality_bound() == 1.0;
        }
    }
    if let Some(file) = csv
        && let Err(e) = std::fs::write(&file, csv_out)
    {
        eprintln!("{file}: {e}");
        return ExitCode::from(2);
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
