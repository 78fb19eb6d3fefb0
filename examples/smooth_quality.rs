//! Measures smoothing quality on the Moving AI 3D benchmark (Warframe maps): smoothed length
//! over raw A* length, and over the length of a Lazy Theta* any-angle path that uses the same
//! swept-box line of sight ([`voxnav::segment_clear`]).
//!
//! ```text
//! cargo run --release --example smooth_quality -- [--every N] [--max-expansions N]
//!     [--radius MIN_TURN_RADIUS] [--bend BEND_LENGTH] MAP.3dmap...
//! ```
//!
//! For each map, the scenario `MAP.3dmap.3dscen` is read from `../scenarios/` beside the map's
//! folder, and every N-th problem (default 100) is solved. Prints one `quality ...` line per map
//! and an `overall` line: mean and p95 of the ratios, sharp corners, smoothing time.
//!
//! Benchmark maps: Moving AI Lab / Brewer & Sturtevant 2018, maps from Warframe by Digital
//! Extremes (ODC-By).

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::time::Instant;

use glam::IVec3;
use hashbrown::HashMap;
use voxnav::prelude::*;
use voxnav::{Scenario, SmoothConfig, segment_clear, smooth_path};

/// An open-list entry of Lazy Theta*, lowest `f` first.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Open {
    f: f64,
    g: f64,
    v: IVec3,
}
impl Eq for Open {}
impl Ord for Open {
    fn cmp(&self, o: &Self) -> Ordering {
        o.f.total_cmp(&self.f)
            .then(self.g.total_cmp(&o.g))
            .then((o.v.x, o.v.y, o.v.z).cmp(&(self.v.x, self.v.y, self.v.z)))
    }
}
impl PartialOrd for Open {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

#[derive(Debug, Clone, Copy)]
struct Node {
    g: f64,
    parent: IVec3,
    closed: bool,
}

fn dist(a: IVec3, b: IVec3) -> f64 {
    (b - a).as_dvec3().length()
}

/// Lazy Theta* (Nash, Koenig & Tovey 2010) over the 26-neighbour grid with strict diagonals and
/// the swept-box line of sight. Returns the any-angle path length in voxels, or `None` if the
/// goal is unreachable or the budget runs out.
fn lazy_theta(world: &VoxelWorld, start: IVec3, goal: IVec3, budget: usize) -> Option<f64> {
    let los = |a: IVec3, b: IVec3| segment_clear(world, a, b, Media::ANY);
    let mut nodes: HashMap<IVec3, Node> = HashMap::new();
    let mut open = BinaryHeap::new();
    nodes.insert(start, Node { g: 0.0, parent: start, closed: false });
    open.push(Open { f: dist(start, goal), g: 0.0, v: start });
    let mut expanded = 0;
    while let Some(Open { g, v, .. }) = open.pop() {
        let node = nodes[&v];
        if node.closed || g > node.g {
            continue;
        }
        expanded += 1;
        if expanded > budget {
            return None;
        }
        // Set vertex: if the lazily assumed line of sight fails, take the best closed neighbour.
        let mut node = node;
        if !los(node.parent, v) {
            let mut best: Option<(f64, IVec3)> = None;
            for d in neighbours() {
                let n = v + d;
                if let Some(nn) = nodes.get(&n).filter(|nn| nn.closed)
                    && los(n, v)
                {
                    let c = nn.g + dist(n, v);
                    if best.is_none_or(|(b, _)| c < b) {
                        best = Some((c, n));
                    }
                }
            }
            let (g, parent) = best?;
            node = Node { g, parent, closed: false };
        }
        node.closed = true;
        nodes.insert(v, node);
        if v == goal {
            return Some(node.g);
        }
        let parent = node.parent;
        let pg = nodes[&parent].g;
        for d in neighbours() {
            let n = v + d;
            if nodes.get(&n).is_some_and(|nn| nn.closed) || !los(v, n) {
                continue;
            }
            let ng = pg + dist(parent, n);
            if nodes.get(&n).is_none_or(|nn| ng < nn.g) {
                nodes.insert(n, Node { g: ng, parent, closed: false });
                open.push(Open { f: ng + dist(n, goal), g: ng, v: n });
            }
        }
    }
    None
}

fn neighbours() -> impl Iterator<Item = IVec3> {
    (0..27).map(|i| IVec3::new(i % 3 - 1, i / 3 % 3 - 1, i / 9 - 1)).filter(|d| *d != IVec3::ZERO)
}

/// Mean and 95th percentile.
fn stats(values: &mut [f64]) -> (f64, f64) {
    if values.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    values.sort_by(f64::total_cmp);
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    (mean, values[((values.len() - 1) as f64 * 0.95).round() as usize])
}

#[derive(Default)]
struct Totals {
    smooth_raw: Vec<f64>,
    poly_raw: Vec<f64>,
    smooth_theta: Vec<f64>,
    poly_theta: Vec<f64>,
    corners: usize,
    sharp: usize,
    smooth_us: Vec<f64>,
    theta_skipped: usize,
}

impl Totals {
    fn line(&mut self, label: &str) -> String {
        let (sr, sr95) = stats(&mut self.smooth_raw);
        let (pr, pr95) = stats(&mut self.poly_raw);
        let (st, st95) = stats(&mut self.smooth_theta);
        let (pt, pt95) = stats(&mut self.poly_theta);
        let (us, us95) = stats(&mut self.smooth_us);
        format!(
            "{label} paths={} smooth/raw mean={sr:.4} p95={sr95:.4} polyline/raw mean={pr:.4} p95={pr95:.4} \
             theta_paths={} theta_skipped={} smooth/theta mean={st:.4} p95={st95:.4} polyline/theta mean={pt:.4} \
             p95={pt95:.4} corners={} sharp={} ({:.1}%) smooth_us mean={us:.0} p95={us95:.0}",
            self.smooth_raw.len(),
            self.smooth_theta.len(),
            self.theta_skipped,
            self.corners,
            self.sharp,
            100.0 * self.sharp as f64 / self.corners.max(1) as f64,
        )
    }

    fn absorb(&mut self, o: &Totals) {
        self.smooth_raw.extend(&o.smooth_raw);
        self.poly_raw.extend(&o.poly_raw);
        self.smooth_theta.extend(&o.smooth_theta);
        self.poly_theta.extend(&o.poly_theta);
        self.smooth_us.extend(&o.smooth_us);
        self.corners += o.corners;
        self.sharp += o.sharp;
        self.theta_skipped += o.theta_skipped;
    }
}

fn main() -> std::process::ExitCode {
    let (mut every, mut budget, mut maps) = (100usize, 2_000_000usize, Vec::new());
    let mut smooth_config = SmoothConfig::default();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--every" => every = args.next().and_then(|v| v.parse().ok()).filter(|&n| n > 0).unwrap_or(100),
            "--max-expansions" => budget = args.next().and_then(|v| v.parse().ok()).unwrap_or(budget),
            "--radius" => smooth_config.min_turn_radius = args.next().and_then(|v| v.parse().ok()).unwrap_or(f32::NAN),
            "--bend" => smooth_config.bend_length = args.next().and_then(|v| v.parse().ok()).unwrap_or(f32::NAN),
            _ => maps.push(a),
        }
    }
    if maps.is_empty() {
        eprintln!("usage: smooth_quality [--every N] [--max-expansions N] MAP.3dmap...");
        return std::process::ExitCode::from(2);
    }
    let config = SearchConfig { costs: CostModel::PRECISE, max_expansions: Some(budget), ..Default::default() };
    let mut overall = Totals::default();
    let mut finder = Pathfinder::new();
    for map in &maps {
        let map_path = std::path::Path::new(map);
        let scen_path = map_path
            .parent()
            .and_then(|d| d.parent())
            .map(|d| d.join("scenarios").join(format!("{}.3dscen", map_path.file_name().unwrap().to_string_lossy())));
        let (Ok(world), Some(Ok(scenario))) = (VoxelWorld::load_3dmap(map_path), scen_path.map(Scenario::load)) else {
            eprintln!("{map}: cannot load the map or its scenario");
            return std::process::ExitCode::from(2);
        };
        let mut t = Totals::default();
        for p in scenario.problems.iter().step_by(every) {
            let Ok(path) = finder.find(&world, None, &PathRequest::new(p.start, p.goal, config)) else { continue };
            if path.length == 0.0 {
                continue;
            }
            let clock = Instant::now();
            let smooth = smooth_path(&world, &path, &smooth_config).expect("A* paths are valid");
            t.smooth_us.push(clock.elapsed().as_secs_f64() * 1e6);
            t.smooth_raw.push(smooth.length() / path.length);
            t.poly_raw.push(smooth.polyline_length() / path.length);
            t.corners += smooth.waypoints().len() - 2;
            t.sharp += smooth.sharp_corners();
            match lazy_theta(&world, p.start, p.goal, budget) {
                Some(theta) => {
                    t.smooth_theta.push(smooth.length() / theta);
                    t.poly_theta.push(smooth.polyline_length() / theta);
                }
                None => t.theta_skipped += 1,
            }
        }
        let name = map_path.file_stem().map_or(map.clone(), |s| s.to_string_lossy().into_owned());
        println!("{}", t.line(&format!("quality map={name}")));
        overall.absorb(&t);
    }
    println!("{}", overall.line("overall"));
    std::process::ExitCode::SUCCESS
}
