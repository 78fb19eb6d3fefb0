//! Doors close and walls open while agents fly: every agent notices when the world under its
//! path changed (`Path::check`, whose cost follows the edits) and mends its path from where it
//! is (`Pathfinder::repair_path`), or takes a shorter way a new opening gives it.
//!
//! ```text
//! cargo run --release --example doors -- [--agents N] [--seed S]
//! ```
//!
//! A hall of three rooms (60 x 12 x 60 voxels) split by two walls, each with two doors. Agents
//! fly between random points of the outer rooms, one voxel per tick. Every 15 ticks a door
//! closes or opens, and twice a new opening is blasted through a wall. After each edit every
//! agent checks its path; a broken one is repaired from the agent's voxel (an agent whose own
//! voxel was walled in is pushed out to the nearest free voxel, as a game would). When a wall
//! opens, agents also search afresh and switch if the new way is cheaper. Checked every tick: no
//! agent inside a blocked voxel, every step a legal move. The last line is
//! `doors agents=.. arrived=.. ticks=.. edits=.. checks=.. broken=.. repaired=.. rerouted=..
//! check_us=.. repair_us=.. reroute_us=..` (total microseconds spent checking paths, repairing
//! broken ones, and looking for shorter ways after an opening).

use std::process::ExitCode;
use std::time::Instant;

use glam::{IVec3, Vec3};
use voxnav::PathCheck;
use voxnav::prelude::*;

const DIMS: IVec3 = IVec3::new(60, 12, 60);
/// The two dividing walls (x) and their doors (z ranges, y 1..=6).
const WALLS: [i32; 2] = [20, 40];
const DOORS: [(i32, i32); 2] = [(8, 13), (46, 51)];

/// A tiny fixed-seed generator (xorshift), so runs repeat.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: i32) -> i32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as i32
    }
}

struct Flyer {
    path: Path,
    at: usize,
    arrived: bool,
}

fn hall() -> Result<VoxelWorld, voxnav::WorldError> {
    let mut w = VoxelWorld::new(Vec3::ZERO, 1.0, DIMS.as_uvec3())?;
    w.fill_voxels(IVec3::ZERO, IVec3::new(DIMS.x - 1, 0, DIMS.z - 1), Voxel::Solid)?; // floor
    for x in WALLS {
        w.fill_voxels(IVec3::new(x, 0, 0), IVec3::new(x + 1, DIMS.y - 1, DIMS.z - 1), Voxel::Solid)?;
        for (z0, z1) in DOORS {
            w.fill_voxels(IVec3::new(x, 1, z0), IVec3::new(x + 1, 6, z1), Voxel::Air)?;
        }
    }
    Ok(w)
}

/// The edit made at the `k`-th edit time: doors closing and opening in turn, and two new
/// openings blasted through the walls. Returns whether it opened something.
fn edit(world: &mut VoxelWorld, k: usize) -> Result<bool, voxnav::WorldError> {
    let wall = WALLS[k % 2];
    let (z0, z1) = DOORS[(k / 2) % 2];
    let door = (IVec3::new(wall, 1, z0), IVec3::new(wall + 1, 6, z1));
    Ok(match k % 6 {
        0 | 1 => {
            world.fill_voxels(door.0, door.1, Voxel::Solid)?;
            false
        }
        2 | 3 => {
            let z = 27 + 3 * (k as i32 % 2);
            world.fill_voxels(IVec3::new(wall, 2, z), IVec3::new(wall + 1, 8, z + 4), Voxel::Air)?;
            true
        }
        _ => {
            // Reopen every door.
            for x in WALLS {
                for (z0, z1) in DOORS {
                    world.fill_voxels(IVec3::new(x, 1, z0), IVec3::new(x + 1, 6, z1), Voxel::Air)?;
                }
            }
            true
        }
    })
}

/// The nearest voxel to `v` (growing boxes) that the agent may occupy.
fn nearest_free(world: &VoxelWorld, v: IVec3) -> Option<IVec3> {
    (1..8).find_map(|r| {
        let mut best: Option<IVec3> = None;
        for z in -r..=r {
            for y in -r..=r {
                for x in -r..=r {
                    let c = v + IVec3::new(x, y, z);
                    if !world.is_blocked(c) && best.is_none_or(|b| (c - v).length_squared() < (b - v).length_squared())
                    {
                        best = Some(c);
                    }
                }
            }
        }
        best
    })
}

fn main() -> ExitCode {
    let mut agents = 60usize;
    let mut seed = 7u64;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next().and_then(|v| v.parse::<u64>().ok());
        match (a.as_str(), value) {
            ("--agents", Some(n)) if n > 0 => agents = n as usize,
            ("--seed", Some(s)) => seed = s.max(1),
            _ => {
                eprintln!("usage: doors [--agents N] [--seed S]");
                return ExitCode::from(2);
            }
        }
    }
    match run(agents, seed) {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("doors: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the hall; returns the summary line, or what went wrong.
fn run(agents: usize, seed: u64) -> Result<String, Box<dyn std::error::Error>> {
    let mut world = hall()?;
    let config = SearchConfig { media: Media::AIR, ..Default::default() };
    let mut finder = Pathfinder::new();
    let mut rng = Rng(seed);
    let mut flyers = Vec::new();
    for i in 0..agents {
        let side = |rng: &mut Rng, left: bool| {
            let x = if left { 2 + rng.below(15) } else { 43 + rng.below(15) };
            IVec3::new(x, 1 + rng.below(8), 1 + rng.below(DIMS.z - 2))
        };
        let (a, b) = (side(&mut rng, i % 2 == 0), side(&mut rng, i % 2 == 1));
        let path = finder.find(&world, None, &PathRequest::new(a, b, config))?;
        flyers.push(Flyer { path, at: 0, arrived: false });
    }
    let (mut edits, mut checks, mut broken, mut repaired, mut rerouted, mut ticks) = (0, 0, 0, 0, 0, 0);
    let (mut check_us, mut repair_us, mut reroute_us) = (0u128, 0u128, 0u128);
    while flyers.iter().any(|f| !f.arrived) {
        ticks += 1;
        if ticks > 5000 {
            return Err("agents still flying after 5000 ticks".into());
        }
        if ticks % 15 == 0 && edits < 12 {
            let opened = edit(&mut world, edits)?;
            edits += 1;
            for f in flyers.iter_mut().filter(|f| !f.arrived) {
                let t = Instant::now();
                let state = f.path.check(&world, &config);
                check_us += t.elapsed().as_micros();
                checks += 1;
                let here = f.path.voxels[f.at];
                let goal = *f.path.voxels.last().unwrap_or(&here);
                if world.is_blocked(goal) {
                    return Err(format!("an edit walled in the goal {goal}").into());
                }
                let t = Instant::now();
                if world.is_blocked(here) {
                    // Walled in where it hovers: pushed out, then a fresh way on.
                    let out = nearest_free(&world, here).ok_or("an agent is buried")?;
                    f.path = finder.find(&world, None, &PathRequest::new(out, goal, config))?;
                    f.at = 0;
                    broken += 1;
                    repaired += 1;
                    repair_us += t.elapsed().as_micros();
                } else if matches!(state, PathCheck::Broken { .. }) {
                    f.path = finder.repair_path(&world, &f.path, f.at, &config)?;
                    f.at = 0;
                    broken += 1;
                    repaired += 1;
                    repair_us += t.elapsed().as_micros();
                } else if opened {
                    // A new way may be shorter: switch if it is.
                    let rest = finder.repair_path(&world, &f.path, f.at, &config)?;
                    let fresh = finder.find(&world, None, &PathRequest::new(here, goal, config))?;
                    if fresh.cost < rest.cost {
                        f.path = fresh;
                        f.at = 0;
                        rerouted += 1;
                    }
                    reroute_us += t.elapsed().as_micros();
                }
            }
        }
        for f in flyers.iter_mut().filter(|f| !f.arrived) {
            if f.at + 1 >= f.path.voxels.len() {
                f.arrived = true;
                continue;
            }
            let from = f.path.voxels[f.at];
            f.at += 1;
            let to = f.path.voxels[f.at];
            if world.is_blocked(to) || (to - from).abs().max_element() != 1 {
                return Err(format!("tick {ticks}: a step {from} -> {to} into a wall or not a move").into());
            }
            f.arrived = f.at + 1 == f.path.voxels.len();
        }
    }
    let arrived = flyers.iter().filter(|f| f.arrived).count();
    Ok(format!(
        "doors agents={agents} arrived={arrived} ticks={ticks} edits={edits} checks={checks} broken={broken} \
         repaired={repaired} rerouted={rerouted} check_us={check_us} repair_us={repair_us} reroute_us={reroute_us}"
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_agent_arrives_through_closing_and_opening_doors() {
        let line = super::run(40, 11).expect("the hall runs");
        let field = |k: &str| -> usize {
            line.split(' ').find_map(|f| f.strip_prefix(k)?.strip_prefix('=')?.parse().ok()).expect(k)
        };
        assert_eq!(field("arrived"), 40, "{line}");
        assert!(field("broken") > 0 && field("rerouted") > 0, "the edits matter: {line}");
    }
}
