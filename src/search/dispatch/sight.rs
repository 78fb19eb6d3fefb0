//! The straight line between a query's ends, read before the [`PRELUDE`](super::PRELUDE):
//! which end the first obstacle on it lies nearer ([`read_line`]), and, where nothing blocks
//! it, whether an octile path joins the ends ([`walk_octile`]): then that path is the answer.
//!
//! Why: the octile estimate is too low where an obstacle stands between the ends. Searched
//! from the end far from the obstacle, every voxel in front of it has `f` below the optimum
//! and is expanded; searched from the end near it, the search pays for the obstacle once, at
//! the start, and dives through the rest (docs/search.md). On the tuning half of the
//! Warframe maps the end nearer the line's first obstacle was the end whose search alone
//! needed fewer expansions on 830 of 885 problems (held out: 797 of 847; about half of them
//! are easier from the goal), so where one end is clearly nearer ([`MARGIN`]) the prelude
//! searches from that end alone, and otherwise races the two (docs/benchmarks.md).

use glam::IVec3;

use crate::grid::moves::{index_of, legal_moves};
use crate::grid::pass::Pass;
use crate::grid::world::VoxelWorld;
use crate::search::config::DiagonalRule;

/// What the straight line between a query's ends showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Line {
    /// No voxel on it is blocked.
    Clear,
    /// Blocked; the end the blocked voxels lie clearly nearer (`Some(true)`: the goal), if
    /// one does.
    Blocked(Option<bool>),
}

/// One end is clearly nearer the line's obstacles when the blocked voxels nearest the two
/// ends lie at distances (in steps along the line) that differ by more than the line's
/// length over this. Chosen on the tuning half of the Warframe maps among 100, 33, 25, 20,
/// 16 and 12, which all did about as well (docs/benchmarks.md).
const MARGIN: i64 = 20;

/// The straight line from `start` to `goal` (voxels, inside `world`, free): clear, or which
/// end is clearly nearer the blocked voxels on it (`Some(false)` the start, `Some(true)` the
/// goal, `None` if neither is). The line is the voxel nearest each of its points one step
/// apart along its longest axis (`L` steps); the ends are walked in turn, one step each, and
/// the walk stops at the first blocked voxel from either end, once the other end's nearest is
/// known or is known to be more than `L / MARGIN` steps farther. Reads at most about
/// `L + L / MARGIN` voxels, whatever the world's size.
pub(super) fn read_line(world: &VoxelWorld, pass: Pass, start: IVec3, goal: IVec3) -> Line {
    let d = (goal - start).as_i64vec3();
    let len = d.abs().max_element();
    if len < 2 {
        return Line::Clear;
    }
    // Voxel `i` of the line: start + round(d i / len), halves up, in exact integers.
    let at = |i: i64| {
        let p = (d * (2 * i) + glam::I64Vec3::splat(len)).div_euclid(glam::I64Vec3::splat(2 * len));
        start + p.as_ivec3()
    };
    let blocked = |i: i64| !world.passable(at(i), pass);
    // The first blocked voxel from either end: its steps from that end, and which end.
    // The ends meet at step len / 2; past it, each walk would read voxels the other has read.
    let mut k = 1;
    let (first, goal_first) = loop {
        if 2 * k > len {
            return Line::Clear;
        }
        match (blocked(k), blocked(len - k)) {
            (true, true) => return Line::Blocked(None),
            (true, false) => break (k, false),
            (false, true) => break (k, true),
            (false, false) => k += 1,
        }
    };
    // The other end's nearest blocked voxel: at most `len - first` steps from it (the one
    // found), so the walk ends; clearly farther once past `first + len / MARGIN`.
    for k in first + 1..=len - first {
        if (k - first) * MARGIN > len {
            return Line::Blocked(Some(goal_first));
        }
        let i = if goal_first { k } else { len - k };
        if blocked(i) {
            return Line::Blocked(None);
        }
    }
    Line::Blocked(None)
}

/// Walks the octile path between a query's ends on from the last voxel of `path` (the start,
/// at first) toward `goal`, each step moving one voxel along every axis on which `goal` still
/// lies ahead, for at most `max` steps, each voxel reached pushed on `path`. `Some(true)`: it
/// reached the goal, every step a legal move under `rule` into a voxel `base` accepts;
/// `Some(false)`: not yet; `None`: a step is not legal, or enters a voxel `base` refuses.
///
/// Such a path (diagonal moves first, then edge, then face moves) costs exactly the octile
/// distance between the ends, the cost of a shortest path in empty space, which no path beats:
/// where it is free it is optimal, and no search needs to run.
pub(super) fn walk_octile(
    world: &VoxelWorld,
    (pass, rule): (Pass, DiagonalRule),
    (goal, base): (IVec3, impl Fn(IVec3) -> bool),
    path: &mut Vec<IVec3>,
    max: usize,
) -> Option<bool> {
    let mut at = *path.last()?;
    for _ in 0..max {
        if at == goal {
            return Some(true);
        }
        let step = (goal - at).signum();
        let m = index_of(step)?;
        if legal_moves(world.blocked_mask(at, pass), rule) & 1 << m == 0 || !base(at + step) {
            return None;
        }
        at += step;
        path.push(at);
    }
    Some(at == goal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Voxel;

    fn world_with(blocked: &[IVec3]) -> VoxelWorld {
        let mut world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::new(64, 20, 20)).unwrap();
        for &v in blocked {
            world.set(v, Voxel::Solid).unwrap();
        }
        world
    }

    /// All the straight line's voxels, start to goal.
    fn line(start: IVec3, goal: IVec3) -> Vec<IVec3> {
        let d = goal - start;
        let len = d.abs().max_element().max(1);
        let round = |n: i32| (2 * n + len).div_euclid(2 * len);
        (0..=len).map(|i| start + IVec3::new(round(d.x * i), round(d.y * i), round(d.z * i))).collect()
    }

    /// The end [`read_line`] finds nearer the obstacles, `None` for a clear line too.
    fn nearer_end(world: &VoxelWorld, pass: Pass, start: IVec3, goal: IVec3) -> Option<bool> {
        match read_line(world, pass, start, goal) {
            Line::Clear => None,
            Line::Blocked(end) => end,
        }
    }

    #[test]
    fn the_end_nearer_the_obstacle_is_chosen() {
        let pass = Pass::new(&crate::Media::ANY);
        let (start, goal) = (IVec3::new(2, 10, 10), IVec3::new(62, 10, 10));
        // Nothing on the line; an obstacle near the start; near the goal; in the middle.
        assert_eq!(nearer_end(&world_with(&[]), pass, start, goal), None);
        assert_eq!(read_line(&world_with(&[]), pass, start, goal), Line::Clear);
        assert_eq!(nearer_end(&world_with(&[IVec3::new(8, 10, 10)]), pass, start, goal), Some(false));
        assert_eq!(nearer_end(&world_with(&[IVec3::new(55, 10, 10)]), pass, start, goal), Some(true));
        assert_eq!(nearer_end(&world_with(&[IVec3::new(32, 10, 10)]), pass, start, goal), None);
        // Obstacles near both ends, at distances within the margin (60 / 20 = 3 steps) of
        // each other: neither end; beyond it: the nearer one.
        let both = [IVec3::new(12, 10, 10), IVec3::new(50, 10, 10)];
        assert_eq!(nearer_end(&world_with(&both), pass, start, goal), None);
        let both = [IVec3::new(12, 10, 10), IVec3::new(47, 10, 10)];
        assert_eq!(nearer_end(&world_with(&both), pass, start, goal), Some(false));
        // Off the line: not seen.
        assert_eq!(nearer_end(&world_with(&[IVec3::new(8, 11, 10)]), pass, start, goal), None);
        // Swapping the ends swaps the answer.
        let w = world_with(&[IVec3::new(8, 10, 10)]);
        assert_eq!(nearer_end(&w, pass, goal, start), Some(true));
    }

    /// On random worlds and lines in every direction, the answer agrees with the nearest
    /// blocked voxels to each end found on the whole line.
    #[test]
    fn matches_the_whole_line() {
        let mut rng = crate::grid::seeded::Rng(0x5EE_D1E);
        let pass = Pass::new(&crate::Media::ANY);
        let (mut sides, mut neither, mut clears) = (0, 0, 0);
        for _ in 0..60 {
            let dims = glam::UVec3::new(8 + rng.below(40), 8 + rng.below(40), 8 + rng.below(40));
            let density = rng.below(6);
            let world = rng.world(dims, density);
            for _ in 0..50 {
                let (start, goal) = (rng.voxel(dims), rng.voxel(dims));
                if world.is_blocked(start) || world.is_blocked(goal) {
                    continue;
                }
                let voxels = line(start, goal);
                let len = voxels.len() as i64 - 1;
                let hits: Vec<i64> = (0..=len).filter(|&i| world.is_blocked(voxels[i as usize])).collect();
                let expected = match (hits.first(), hits.last()) {
                    _ if len < 2 => None,
                    (Some(&s), Some(&g)) => {
                        let (to_start, to_goal) = (s, len - g);
                        if (to_start - to_goal).abs() * MARGIN > len { Some(to_goal < to_start) } else { None }
                    }
                    _ => None,
                };
                let got = nearer_end(&world, pass, start, goal);
                let clear = read_line(&world, pass, start, goal) == Line::Clear;
                assert_eq!(clear, hits.is_empty(), "{start} -> {goal} in {dims}: blocked at {hits:?} of {len}");
                clears += usize::from(clear);
                assert_eq!(got, expected, "{start} -> {goal} in {dims}: blocked at {hits:?} of {len}");
                if got.is_some() {
                    sides += 1;
                } else {
                    neither += 1;
                }
            }
        }
        assert!(sides > 300 && neither > 300, "{sides} lines with a nearer end, {neither} without");
        assert!(clears > 100, "{clears} clear lines");
    }
}
