//! Many agents, one goal: a shared-goal field against one exact search per agent, on a
//! Moving AI Warframe map, side by side in one run.
//!
//! ```text
//! cargo run --release --example field -- [MAP] [--agents N] [--spread group|map] [--max-mb MB]
//!     [--warframe DIR]
//! ```
//!
//! The goal is the map's problem 0 goal. `--spread map` (the default) takes the agents' starts
//! from the scenario's problems (spread over the whole map); `--spread group` spawns them as a
//! squad: the free voxels nearest (by index order around) problem 0's start. Every agent's
//! path cost from the field is checked equal to its own exact search ([`Algorithm::Jps`], our
//! fastest exact mode). The last line is
//! `field map=.. agents=.. spread=.. settled=.. field_bytes=.. field_us=.. searches_us=.. ratio=.. equal=..`.

use std::process::ExitCode;
use std::time::Instant;

use voxnav::prelude::*;
use voxnav::{GoalField, Scenario};

#[path = "support/squad.rs"]
mod squad;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut map, mut agents, mut spread) = ("Complex".to_string(), 1000usize, "map".to_string());
    let mut max_mb = voxnav::Limits::DEFAULT.max_search_bytes >> 20;
    let mut dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/benchmarks/warframe");
    while let Some(a) = args.next() {
        match a.as_str() {
            "--agents" => agents = args.next().and_then(|s| s.parse().ok()).unwrap_or(agents),
            "--spread" => spread = args.next().unwrap_or(spread),
            "--max-mb" => max_mb = args.next().and_then(|s| s.parse().ok()).unwrap_or(max_mb),
            "--warframe" => dir = args.next().map(Into::into).unwrap_or(dir),
            _ => map = a,
        }
    }
    let (world, scen) = match (
        VoxelWorld::load_3dmap(dir.join(format!("maps/{map}.3dmap"))),
        Scenario::load(dir.join(format!("scenarios/{map}.3dmap.3dscen"))),
    ) {
        (Ok(w), Ok(s)) => (w, s),
        (Err(e), _) => return fail(&format!("map: {e}")),
        (_, Err(e)) => return fail(&format!("scenario: {e}")),
    };
    let config = SearchConfig { costs: CostModel::PRECISE, ..Default::default() };
    let jps = SearchConfig { algorithm: Algorithm::Jps, ..config };
    let goal = scen.problems[0].goal;
    let mut finder = Pathfinder::new();
    let starts = match spread.as_str() {
        "group" => squad::squad(&world, scen.problems[0].start, agents),
        _ => scen.problems.iter().map(|p| p.start).take(agents).collect(),
    };
    // Keep the starts that can reach the goal (the scenario's problems are all solvable, but
    // their starts need not reach problem 0's goal).
    let mut reachable = Vec::new();
    let mut searches = Vec::new();
    let t = Instant::now();
    for &s in &starts {
        if let Ok(p) = finder.find(&world, None, &PathRequest::new(s, goal, jps)) {
            reachable.push(s);
            searches.push(p.cost);
        }
    }
    let searches_us = t.elapsed().as_secs_f64() * 1e6;
    let t = Instant::now();
    let mut field = match GoalField::with_max_bytes(&world, goal, &config, max_mb << 20) {
        Ok(f) => f,
        Err(e) => return fail(&e.to_string()),
    };
    if let Err(e) = field.grow_to(&world, &reachable) {
        return fail(&e.to_string());
    }
    let mut costs = Vec::with_capacity(reachable.len());
    for &s in &reachable {
        match field.path_from(&world, s) {
            Ok(p) => costs.push(p.cost),
            Err(e) => return fail(&e.to_string()),
        }
    }
    let field_us = t.elapsed().as_secs_f64() * 1e6;
    let equal = costs.iter().zip(&searches).filter(|(a, b)| a == b).count();
    println!(
        "field map={map} agents={} spread={spread} settled={} field_bytes={} field_us={field_us:.0} searches_us={searches_us:.0} ratio={:.1} equal={equal}",
        reachable.len(),
        field.settled(),
        field.memory_bytes(),
        searches_us / field_us
    );
    if equal == reachable.len() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

fn fail(msg: &str) -> ExitCode {
    eprintln!("field: {msg}");
    ExitCode::FAILURE
}
