//! Repair by splicing against an incremental exact search, side by side (the living-worlds
//! issue asks for both to be measured).
//!
//! ```text
//! cargo run --release --example repair_compare -- MAP.3dmap SCEN.3dscen [--every N] [--seed S]
//!     [--max-expanded N]
//! ```
//!
//! For every N-th problem (default 100): the path is found (exact JPS), a 3x3x3 block of solid
//! drops on a seeded inner voxel of it (the same voxels as `movingai --edits SEED`), and the
//! path is mended two ways on the edited world:
//! - **splice**: `Pathfinder::repair_path` (a detour between the old path's voxels around the
//!   break);
//! - **LPA\***: Lifelong Planning A* (Koenig, Likhachev and Furcy 2004), the incremental exact
//!   search that D* Lite builds on: its search from start to goal is kept from before the edit,
//!   the voxels whose moves the block changed are updated, and the search is brought up to date.
//!   Only that update is timed. It is written here for the comparison: hash maps and a binary
//!   heap with lazy deletion, so its time per expansion is higher than the library's searches,
//!   and its expansion counts (deterministic) are the fair comparison.
//!
//! Problems whose first LPA* search expands more than `--max-expanded` voxels (default 300,000)
//! are left out of both. Every LPA* cost is checked against a fresh exact search. The last line
//! is `compare map=.. problems=.. splice_median_us=.. splice_median_expanded=.. lpa_median_us=..
//! lpa_median_expanded=.. splice_mean_excess=.. lpa_mismatch=..`.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::process::ExitCode;
use std::time::Instant;

use voxnav::glam::IVec3;
use voxnav::{CostModel, PathError, PathRequest, Pathfinder, Scenario, SearchConfig, Voxel, VoxelWorld};

const INF: u64 = u64::MAX / 4;

/// An open-list entry: the key `(min(g, rhs) + h, min(g, rhs))` and the voxel, least first.
type Entry = Reverse<((u64, u64), [i32; 3])>;

/// Lifelong Planning A* over the 26-neighbour grid, strict diagonal rule, uniform move costs.
struct Lpa {
    start: IVec3,
    goal: IVec3,
    costs: CostModel,
    /// `(g, rhs)` of every voxel touched.
    nodes: HashMap<IVec3, (u64, u64)>,
    open: BinaryHeap<Entry>,
    expanded: usize,
}

fn offsets() -> impl Iterator<Item = IVec3> {
    (-1..=1)
        .flat_map(|z| (-1..=1).flat_map(move |y| (-1..=1).map(move |x| IVec3::new(x, y, z))))
        .filter(|d| *d != IVec3::ZERO)
}

/// Whether the move `v -> v + d` is legal under the strict rule: every voxel of its box free.
fn legal(world: &VoxelWorld, v: IVec3, d: IVec3) -> bool {
    let n = v + d;
    if !world.contains(n) {
        return false;
    }
    let (lo, hi) = (v.min(n), v.max(n));
    (lo.z..=hi.z).all(|z| (lo.y..=hi.y).all(|y| (lo.x..=hi.x).all(|x| !world.is_blocked(IVec3::new(x, y, z)))))
}

impl Lpa {
    fn new(start: IVec3, goal: IVec3, costs: CostModel) -> Self {
        let mut lpa = Self { start, goal, costs, nodes: HashMap::new(), open: BinaryHeap::new(), expanded: 0 };
        lpa.nodes.insert(start, (INF, 0));
        let key = lpa.key(start);
        lpa.open.push(Reverse((key, start.to_array())));
        lpa
    }

    fn cost(&self, d: IVec3) -> u64 {
        self.costs.cost(d.abs().element_sum() as usize)
    }

    fn h(&self, v: IVec3) -> u64 {
        let d = (self.goal - v).abs();
        let mut a = [d.x as u64, d.y as u64, d.z as u64];
        a.sort_unstable();
        self.costs.corner * a[0] + self.costs.edge * (a[1] - a[0]) + self.costs.face * (a[2] - a[1])
    }

    fn get(&self, v: IVec3) -> (u64, u64) {
        self.nodes.get(&v).copied().unwrap_or((INF, INF))
    }

    fn key(&self, v: IVec3) -> (u64, u64) {
        let (g, rhs) = self.get(v);
        let m = g.min(rhs);
        (m.saturating_add(self.h(v)).min(INF), m)
    }

    fn update(&mut self, world: &VoxelWorld, v: IVec3) {
        if v != self.start {
            let rhs = if world.is_blocked(v) {
                INF
            } else {
                offsets()
                    .filter(|&d| legal(world, v, d)) // strict: p -> v legal iff v -> p is
                    .map(|d| self.get(v + d).0.saturating_add(self.cost(d)))
                    .min()
                    .unwrap_or(INF)
                    .min(INF)
            };
            self.nodes.entry(v).or_insert((INF, INF)).1 = rhs;
        }
        let (g, rhs) = self.get(v);
        if g != rhs {
            let key = self.key(v);
            self.open.push(Reverse((key, v.to_array())));
        }
    }

    /// Brings the search up to date; the goal's cost, if reachable.
    fn compute(&mut self, world: &VoxelWorld, max_expanded: usize) -> Option<u64> {
        while let Some(&Reverse((key, v))) = self.open.peek() {
            let (gg, grhs) = self.get(self.goal);
            if key >= self.key(self.goal) && grhs == gg {
                break;
            }
            self.open.pop();
            let u = IVec3::from_array(v);
            let (g, rhs) = self.get(u);
            if g == rhs || key != self.key(u) {
                continue; // a stale entry
            }
            self.expanded += 1;
            if self.expanded > max_expanded {
                return None;
            }
            if g > rhs {
                self.nodes.insert(u, (rhs, rhs));
                for d in offsets().filter(|&d| legal(world, u, d)) {
                    self.update(world, u + d);
                }
            } else {
                self.nodes.insert(u, (INF, rhs));
                self.update(world, u);
                for d in offsets().filter(|&d| world.contains(u + d)) {
                    self.update(world, u + d);
                }
            }
        }
        let (g, _) = self.get(self.goal);
        (g < INF).then_some(g)
    }
}

fn median(v: &mut [u128]) -> u128 {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or(0)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str, default: u64| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (Some(map), Some(scen)) = (args.first(), args.get(1)) else {
        eprintln!("usage: repair_compare MAP.3dmap SCEN.3dscen [--every N] [--seed S] [--max-expanded N]");
        return ExitCode::from(2);
    };
    let (every, seed, max_expanded) =
        (flag("--every", 100) as usize, flag("--seed", 7), flag("--max-expanded", 300_000) as usize);
    let (world, scenario) = match (VoxelWorld::load_3dmap(map), Scenario::load(scen)) {
        (Ok(w), Ok(s)) => (w, s),
        (w, s) => {
            eprintln!("{map}: {:?} / {scen}: {:?}", w.err(), s.err());
            return ExitCode::from(2);
        }
    };
    let config = SearchConfig { algorithm: voxnav::Algorithm::Jps, ..Default::default() };
    let mut finder = Pathfinder::new();
    let (mut splice_us, mut splice_exp, mut lpa_us, mut lpa_exp) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut excess, mut mismatch, mut left_out) = (0f64, 0usize, 0usize);
    for (index, problem) in scenario.problems.iter().enumerate().step_by(every.max(1)) {
        let Ok(path) = finder.find(&world, None, &PathRequest::new(problem.start, problem.goal, config)) else {
            continue;
        };
        let n = path.voxels.len();
        if n < 3 {
            continue;
        }
        // The block of `movingai --edits SEED` (SplitMix64 of the seed and the problem's index).
        let mut z = seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        let centre = path.voxels[1 + (z % (n as u64 - 2)) as usize];
        let last = world.dims().as_ivec3() - 1;
        let (lo, hi) = ((centre - 1).max(IVec3::ZERO), (centre + 1).min(last));
        let covers = |v: IVec3| v.cmpge(lo).all() && v.cmple(hi).all();
        if covers(problem.start) || covers(problem.goal) {
            continue;
        }
        let mut lpa = Lpa::new(problem.start, problem.goal, config.costs);
        if lpa.compute(&world, max_expanded).is_none() {
            left_out += 1;
            continue;
        }
        let mut edited = world.clone();
        if edited.fill_voxels(lo, hi, Voxel::Solid).is_err() {
            continue;
        }
        let fresh = match finder.find(&edited, None, &PathRequest::new(problem.start, problem.goal, config)) {
            Ok(p) => p,
            Err(PathError::Unreachable { .. }) => continue,
            Err(e) => {
                eprintln!("problem {index}: {e}");
                return ExitCode::FAILURE;
            }
        };
        // Splice.
        let t = Instant::now();
        let Ok(spliced) = finder.repair_path(&edited, &path, 0, &config) else {
            eprintln!("problem {index}: the splice failed");
            return ExitCode::FAILURE;
        };
        splice_us.push(t.elapsed().as_micros());
        splice_exp.push(spliced.stats.expanded as u128);
        excess += spliced.cost as f64 / fresh.cost.max(1) as f64 - 1.0;
        // LPA*: the voxels whose moves changed (the block and the voxels around it) are updated.
        let t = Instant::now();
        let before = lpa.expanded;
        for z in lo.z - 1..=hi.z + 1 {
            for y in lo.y - 1..=hi.y + 1 {
                for x in lo.x - 1..=hi.x + 1 {
                    let v = IVec3::new(x, y, z);
                    if edited.contains(v) {
                        lpa.update(&edited, v);
                    }
                }
            }
        }
        let cost = lpa.compute(&edited, usize::MAX);
        lpa_us.push(t.elapsed().as_micros());
        lpa_exp.push((lpa.expanded - before) as u128);
        if cost != Some(fresh.cost) {
            eprintln!("problem {index}: LPA* {cost:?}, fresh {}", fresh.cost);
            mismatch += 1;
        }
    }
    let name = std::path::Path::new(map).file_stem().map_or(String::new(), |s| s.to_string_lossy().into_owned());
    let problems = splice_us.len();
    println!(
        "compare map={name} problems={problems} left_out={left_out} splice_median_us={} splice_median_expanded={} lpa_median_us={} lpa_median_expanded={} splice_mean_excess={:.6} lpa_mismatch={mismatch}",
        median(&mut splice_us),
        median(&mut splice_exp),
        median(&mut lpa_us),
        median(&mut lpa_exp),
        excess / problems.max(1) as f64
    );
    if mismatch > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
