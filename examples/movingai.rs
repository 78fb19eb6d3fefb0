//! Runs the Moving AI 3D benchmark (the Warframe maps) from the command line.
//!
//! ```text
//! cargo run --release --example movingai -- MAP.3dmap|WORLD.vxn SCEN.3dscen [--costs game|precise]
//!     [--heuristic octile|manhattan] [--every N] [--limit N] [--baseline pathfinding]
//!     [--paths FILE] [--csv FILE] [--smooth] [--poses FILE] [--algorithm astar|jps|budget]
//!     [--weight PERCENT] [--phase EXPANSIONS] [--radius R] [--edits SEED [--edits-out FILE]]
//! ```
//!
//! A baked world (`.vxn`, written by the `bake` example) may stand in for the map.
//!
//! `--edits SEED`: after each path is found, a 3x3x3 block of solid is dropped on a seeded random
//! inner voxel of it (skipped if the block covers an end, or disconnects start and goal); the
//! path is repaired (`Pathfinder::repair_path`, from the start) and, side by side, found afresh
//! on the edited world. Every repaired path is checked legal on the edited world. The summary
//! adds `repaired= repair_median_us= replan_median_us= repair_mean_excess= edits_skipped=`;
//! `--paths` then writes the repaired paths and `--edits-out F` one line per problem
//! `index x0 y0 z0 x1 y1 z1` (the block, inclusive voxel bounds).
//!
//! `--radius R` (default 0) searches for an agent of clearance radius `R` voxels
//! (`SearchConfig::clearance`): it keeps every voxel within Chebyshev distance `R` free of solid.
//! The scenario's optimal lengths are for one-voxel agents, so with `R > 0` lengths are not
//! checked against them (`mean_excess=` then says how much longer the wider agent flies);
//! problems with an end too close to a wall for it count as `blocked_ends=`.
//!
//! `--algorithm jps` runs the exact jump point search; `budget` the frame-budget mode
//! (`Algorithm::Budget`: weighted A* from `--weight` percent, raising the weight after every
//! `--phase` expansions, both by default those of `Algorithm::BUDGET`; the summary's
//! `max_weight=` is the largest weight a path needed, its guarantee).
//!
//! Solves every N-th problem (0-based problem lines 0, N, 2N, ...), checks lengths against the
//! scenario's optimum and prints a `summary key=value ...` line last. With `--baseline
//! pathfinding` it also solves each problem with the `pathfinding` crate's `astar` on the same
//! world, moves, costs and heuristic, checks the cost matches and times it in the same run.
//! Exits non-zero if, with precise costs and the octile heuristic, a length is not optimal.
//! `--smooth` smooths every path and adds `smooth_ratio=` (mean smoothed / raw length) to the
//! summary; `--poses FILE` (implies `--smooth`) also writes each path's trajectory, one line per
//! sample at most 0.25 voxel apart: `INDEX s x y z qx qy qz qw` (voxel units, centres at +0.5).

use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Instant;

use voxnav::prelude::*;
use voxnav::{PathCheck, Problem, Scenario};

#[path = "support/baseline.rs"]
mod baseline;

struct Args {
    map: String,
    scen: String,
    costs: CostModel,
    heuristic: Heuristic,
    every: usize,
    limit: usize,
    baseline: bool,
    paths: Option<String>,
    csv: Option<String>,
    algorithm: (Algorithm, &'static str),
    weight: u32,
    phase: u32,
    smooth: bool,
    poses: Option<String>,
    radius: u8,
    edits: Option<u64>,
    edits_out: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let mut pos = Vec::new();
    let Algorithm::Budget { percent, phase_expansions } = Algorithm::BUDGET else {
        return Err("Algorithm::BUDGET is the budget schedule".into());
    };
    let budget = (percent, phase_expansions);
    let mut a = Args {
        map: String::new(),
        scen: String::new(),
        costs: CostModel::GAME,
        heuristic: Heuristic::Octile,
        every: 1,
        limit: usize::MAX,
        baseline: false,
        paths: None,
        csv: None,
        algorithm: (Algorithm::AStar, "astar"),
        weight: budget.0,
        phase: budget.1,
        smooth: false,
        poses: None,
        radius: 0,
        edits: None,
        edits_out: None,
    };
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--costs" => {
                a.costs = match value()?.as_str() {
                    "game" => CostModel::GAME,
                    "precise" => CostModel::PRECISE,
                    v => return Err(format!("--costs: unknown `{v}` (game|precise)")),
                }
            }
            "--heuristic" => {
                a.heuristic = match value()?.as_str() {
                    "octile" => Heuristic::Octile,
                    "manhattan" => Heuristic::Manhattan,
                    v => return Err(format!("--heuristic: unknown `{v}` (octile|manhattan)")),
                }
            }
            "--every" => a.every = value()?.parse().ok().filter(|&n| n > 0).ok_or("--every takes N >= 1")?,
            "--limit" => a.limit = value()?.parse().map_err(|_| "--limit takes a number")?,
            "--baseline" => match value()?.as_str() {
                "pathfinding" => a.baseline = true,
                v => return Err(format!("--baseline: unknown `{v}` (pathfinding)")),
            },
            "--paths" => a.paths = Some(value()?),
            "--csv" => a.csv = Some(value()?),
            "--algorithm" => {
                a.algorithm = match value()?.as_str() {
                    "astar" => (Algorithm::AStar, "astar"),
                    "jps" => (Algorithm::Jps, "jps"),
                    "budget" => (Algorithm::BUDGET, "budget"),
                    v => return Err(format!("--algorithm: unknown `{v}` (astar|jps|budget)")),
                }
            }
            "--phase" => a.phase = value()?.parse().ok().filter(|&n| n > 0).ok_or("--phase takes N >= 1")?,
            "--weight" => {
                a.weight = value()?.parse().ok().filter(|&w| w >= 100).ok_or("--weight takes PERCENT >= 100")?
            }
            "--radius" => {
                a.radius = value()?
                    .parse()
                    .ok()
                    .filter(|&r| r <= SearchConfig::MAX_CLEARANCE)
                    .ok_or(format!("--radius takes R in 0..={}", SearchConfig::MAX_CLEARANCE))?
            }
            "--edits" => a.edits = Some(value()?.parse().map_err(|_| "--edits takes a SEED (a number)")?),
            "--edits-out" => a.edits_out = Some(value()?),
            "--smooth" => a.smooth = true,
            "--poses" => (a.smooth, a.poses) = (true, Some(value()?)),
            s if s.starts_with("--") => return Err(format!("unknown option {s}")),
            _ => pos.push(arg),
        }
    }
    let [map, scen] = <[String; 2]>::try_from(pos).map_err(|_| "usage: movingai MAP.3dmap SCEN.3dscen [options]")?;
    a.map = map;
    a.scen = scen;
    if a.algorithm.0 == Algorithm::BUDGET {
        a.algorithm.0 = Algorithm::Budget { percent: a.weight, phase_expansions: a.phase };
    }
    Ok(a)
}

fn percentile(sorted: &[u128], q: f64) -> u128 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let t = Instant::now();
    // A baked world (`.vxn`, from the `bake` example) in place of a `.3dmap`: every medium
    // passable, as in a `.3dmap`.
    let world = if args.map.ends_with(".vxn") {
        VoxelWorld::load_vxn(&args.map, voxnav::Limits::DEFAULT).map_err(|e| e.to_string())
    } else {
        VoxelWorld::load_3dmap(&args.map).map_err(|e| e.to_string())
    };
    let world = match world {
        Ok(w) => w,
        Err(e) => {
            eprintln!("{}: {e}", args.map);
            return ExitCode::from(2);
        }
    };
    let load_ms = t.elapsed().as_secs_f64() * 1e3;
    let scenario = match Scenario::load(&args.scen) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{}: {e}", args.scen);
            return ExitCode::from(2);
        }
    };
    let map_name = std::path::Path::new(&args.map).file_stem().map_or(args.map.clone(), |s| s.to_string_lossy().into());
    let config = SearchConfig {
        costs: args.costs,
        heuristic: args.heuristic,
        algorithm: args.algorithm.0,
        clearance: args.radius,
        ..Default::default()
    };
    let exact = args.radius == 0
        && args.costs == CostModel::PRECISE
        && args.heuristic == Heuristic::Octile
        && args.algorithm.0.suboptimality_bound() == 1.0;
    let mut finder = Pathfinder::new();
    let mut flight = Flight::default();
    let (mut paths_out, mut csv_out) = (String::new(), String::from("index,optimal,length,cost,expanded,micros\n"));
    let (mut times, mut expanded, mut max_weight) = (Vec::new(), Vec::new(), 0u32);
    let (mut solved, mut matched, mut max_excess, mut sum_excess) = (0usize, 0usize, 0f64, 0f64);
    let (mut baseline_us, mut baseline_mismatch, mut failures) = (0u128, 0usize, 0usize);
    let mut blocked_ends = 0usize;
    let mut edits = Edits::default();
    let picked: Vec<(usize, Problem)> =
        scenario.problems.iter().copied().enumerate().step_by(args.every).take(args.limit).collect();
    for &(index, p) in &picked {
        let t = Instant::now();
        let result = finder.find(&world, None, &PathRequest::new(p.start, p.goal, config));
        let us = t.elapsed().as_micros();
        times.push(us);
        match result {
            Ok(path) => {
                solved += 1;
                expanded.push(path.stats.expanded as u128);
                max_weight = max_weight.max(path.stats.weight);
                let excess = (path.length - p.optimal_length) / p.optimal_length.max(f64::MIN_POSITIVE);
                if (path.length - p.optimal_length).abs() <= 1e-6 {
                    matched += 1;
                } else if exact && args.radius == 0 {
                    failures += 1;
                    eprintln!("problem {index}: length {:.8} != optimal {:.8}", path.length, p.optimal_length);
                }
                if p.optimal_length > 0.0 {
                    max_excess = max_excess.max(excess);
                    sum_excess += excess;
                }
                let _ = writeln!(
                    csv_out,
                    "{index},{:.8},{:.8},{},{},{us}",
                    p.optimal_length, path.length, path.cost, path.stats.expanded
                );
                if args.smooth {
                    flight.add(&world, index, &path, args.poses.is_some(), args.radius);
                }
                let repaired = args.edits.and_then(|seed| edits.run(&world, &mut finder, &config, index, seed, &path));
                if args.paths.is_some() {
                    let _ = write!(paths_out, "{index}");
                    for v in &repaired.as_ref().unwrap_or(&path).voxels {
                        let _ = write!(paths_out, " {},{},{}", v.x, v.y, v.z);
                    }
                    paths_out.push('\n');
                }
                if args.baseline && args.radius == 0 {
                    let t = Instant::now();
                    let cost = baseline::pathfinding_astar(&world, p.start, p.goal, args.costs, args.heuristic);
                    baseline_us += t.elapsed().as_micros();
                    if cost != Some(path.cost)
                        && args.heuristic == Heuristic::Octile
                        && args.algorithm.0.suboptimality_bound() == 1.0
                    {
                        baseline_mismatch += 1;
                        eprintln!("problem {index}: baseline cost {cost:?} != ours {}", path.cost);
                    }
                }
            }
            Err(PathError::StartBlocked(_) | PathError::GoalBlocked(_)) if args.radius > 0 => {
                blocked_ends += 1;
                let _ = writeln!(csv_out, "{index},{:.8},,,,{us}", p.optimal_length);
            }
            Err(e) => {
                failures += usize::from(exact);
                eprintln!("problem {index}: {e}");
                let _ = writeln!(csv_out, "{index},{:.8},,,,{us}", p.optimal_length);
            }
        }
    }
    failures += edits.illegal;
    for (file, text) in [
        (&args.paths, &paths_out),
        (&args.csv, &csv_out),
        (&args.poses, &flight.poses),
        (&args.edits_out, &edits.lines),
    ] {
        if let Some(file) = file
            && let Err(e) = std::fs::write(file, text)
        {
            eprintln!("{file}: {e}");
            return ExitCode::from(2);
        }
    }
    let total_us: u128 = times.iter().sum();
    times.sort_unstable();
    expanded.sort_unstable();
    let mut summary = format!(
        "summary map={map_name} algorithm={} problems={} solved={solved} matched={matched} max_excess={max_excess:.6} \
         mean_excess={:.6} grid_bytes={} load_ms={load_ms:.1} total_ms={:.1} median_us={} p99_us={} max_us={} \
         median_expanded={} max_weight={max_weight}",
        args.algorithm.1,
        picked.len(),
        if solved > 0 { sum_excess / solved as f64 } else { 0.0 },
        world.memory_bytes(),
        total_us as f64 / 1e3,
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        times.last().copied().unwrap_or(0),
        percentile(&expanded, 0.5),
    );
    if args.radius > 0 {
        let _ = write!(summary, " radius={} blocked_ends={blocked_ends}", args.radius);
    }
    if args.edits.is_some() {
        edits.repair_us.sort_unstable();
        edits.replan_us.sort_unstable();
        edits.repair_expanded.sort_unstable();
        edits.replan_expanded.sort_unstable();
        let _ = write!(
            summary,
            " repaired={} repair_median_us={} replan_median_us={} repair_median_expanded={} replan_median_expanded={} repair_mean_excess={:.6} edits_skipped={} repair_total_ms={:.1} replan_total_ms={:.1}",
            edits.repair_us.len(),
            percentile(&edits.repair_us, 0.5),
            percentile(&edits.replan_us, 0.5),
            percentile(&edits.repair_expanded, 0.5),
            percentile(&edits.replan_expanded, 0.5),
            edits.excess_sum / edits.repair_us.len().max(1) as f64,
            edits.skipped,
            edits.repair_us.iter().sum::<u128>() as f64 / 1e3,
            edits.replan_us.iter().sum::<u128>() as f64 / 1e3,
        );
    }
    if args.baseline {
        let _ = write!(
            summary,
            " baseline_total_ms={:.1} baseline_ratio={:.2} baseline_mismatch={baseline_mismatch}",
            baseline_us as f64 / 1e3,
            baseline_us as f64 / total_us.max(1) as f64
        );
    }
    if args.smooth {
        let _ = write!(summary, " smooth_ratio={:.6}", flight.ratio_sum / flight.count.max(1) as f64);
        failures += flight.failures;
    }
    println!("{summary}");
    if failures > 0 || baseline_mismatch > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

/// `--smooth` and `--poses`: smooths each solved path, keeps smoothed / raw length, and with
/// poses samples its trajectory (flying profile) every 0.25 voxel.
#[derive(Default)]
struct Flight {
    ratio_sum: f64,
    count: usize,
    failures: usize,
    poses: String,
}

impl Flight {
    fn add(&mut self, world: &VoxelWorld, index: usize, path: &Path, keep_poses: bool, clearance: u8) {
        let config = voxnav::SmoothConfig { clearance, ..Default::default() };
        let smooth = match voxnav::smooth_path(world, path, &config) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("problem {index}: smoothing: {e}");
                self.failures += 1;
                return;
            }
        };
        self.ratio_sum += if path.length > 0.0 { smooth.length() / path.length } else { 1.0 };
        self.count += 1;
        if !keep_poses {
            return;
        }
        let poses = voxnav::Trajectory::new(&smooth, &voxnav::FlightProfile::AIR)
            .and_then(|t| t.samples_by_length(0.25 * world.voxel_size()));
        match poses {
            Ok(poses) => {
                for p in poses {
                    let (v, q) = ((p.position - world.origin()) / world.voxel_size(), p.orientation);
                    let s = p.s / world.voxel_size();
                    let _ = writeln!(self.poses, "{index} {s} {} {} {} {} {} {} {}", v.x, v.y, v.z, q.x, q.y, q.z, q.w);
                }
            }
            Err(e) => {
                eprintln!("problem {index}: trajectory: {e}");
                self.failures += 1;
            }
        }
    }
}

/// `--edits`: a block dropped on each path, then repair against a fresh search.
#[derive(Default)]
struct Edits {
    repair_us: Vec<u128>,
    replan_us: Vec<u128>,
    repair_expanded: Vec<u128>,
    replan_expanded: Vec<u128>,
    excess_sum: f64,
    skipped: usize,
    illegal: usize,
    lines: String,
}

impl Edits {
    /// Drops the block for problem `index`, repairs `path` and replans; returns the repaired
    /// path, or `None` when the problem is skipped.
    fn run(
        &mut self,
        world: &VoxelWorld,
        finder: &mut Pathfinder,
        config: &SearchConfig,
        index: usize,
        seed: u64,
        path: &Path,
    ) -> Option<Path> {
        let n = path.voxels.len();
        // A seeded inner voxel (SplitMix64 of the seed and the problem's index).
        let mut z = seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        let (start, goal) = (path.voxels[0], path.voxels[n - 1]);
        if n < 3 {
            self.skipped += 1;
            return None;
        }
        let centre = path.voxels[1 + (z % (n as u64 - 2)) as usize];
        let last = world.dims().as_ivec3() - 1;
        let (lo, hi) = ((centre - 1).max(voxnav::glam::IVec3::ZERO), (centre + 1).min(last));
        let covers = |v: voxnav::glam::IVec3| v.cmpge(lo).all() && v.cmple(hi).all();
        if covers(start) || covers(goal) {
            self.skipped += 1;
            return None;
        }
        let mut edited = world.clone();
        edited.fill_voxels(lo, hi, Voxel::Solid).ok()?;
        // Repair first: the fresh search then finds the edited world's cached scans warm.
        let t = Instant::now();
        let repaired = finder.repair_path(&edited, path, 0, config);
        let repair_us = t.elapsed().as_micros();
        let t = Instant::now();
        let fresh = finder.find(&edited, None, &PathRequest::new(start, goal, *config));
        let replan_us = t.elapsed().as_micros();
        let (repaired, fresh) = match (repaired, fresh) {
            (Ok(r), Ok(f)) => (r, f),
            (_, Err(PathError::Unreachable { .. })) => {
                self.skipped += 1; // the block disconnects start and goal
                return None;
            }
            (r, f) => {
                eprintln!("problem {index}: repair {:?} / fresh {:?}", r.err(), f.err());
                self.illegal += 1;
                return None;
            }
        };
        let legal = repaired.check(&edited.clone(), config) == PathCheck::Valid
            && repaired.voxels.first() == Some(&start)
            && repaired.voxels.last() == Some(&goal);
        let exact = config.algorithm.suboptimality_bound() == 1.0;
        if !legal || (exact && repaired.cost < fresh.cost) {
            eprintln!("problem {index}: the repaired path is illegal or beats the optimum");
            self.illegal += 1;
        }
        self.repair_us.push(repair_us);
        self.replan_us.push(replan_us);
        self.repair_expanded.push(repaired.stats.expanded as u128);
        self.replan_expanded.push(fresh.stats.expanded as u128);
        self.excess_sum += repaired.cost as f64 / fresh.cost.max(1) as f64 - 1.0;
        let _ = writeln!(self.lines, "{index} {} {} {} {} {} {}", lo.x, lo.y, lo.z, hi.x, hi.y, hi.z);
        Some(repaired)
    }
}
