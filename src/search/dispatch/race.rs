//! The races of exact jump point search ([`Algorithm::Jps`](crate::Algorithm::Jps)): two
//! searches, one from each end, taking turns, the first path found returned (reversed if the
//! search from the goal found it). The prelude's two A*s with canonical successors race so
//! ([`Dispatch::prelude_race`]), then, if they have not ended, two jump point searches from
//! scratch ([`Dispatch::race`]: the one from the goal first, [`LEAD`], in turns of [`TURN`]
//! units of work, after a short look from the end the prelude searched less from,
//! [`OTHER_END_FIRST`]); each turn goes to the side whose level of `f` is the higher
//! ([`next_side`]). Both sides are exact, so either path is optimal.
//!
//! Why: A* (and JPS) must expand every voxel whose `f` is below the optimum, and when the
//! obstacle that makes the octile estimate too low lies near the goal, that is nearly every
//! voxel between the two ends; searched from the other end the same error lies at the start,
//! is paid once, and the rest dives straight through. On the Warframe maps the hard direction is
//! the forward one about as often as the backward one (docs/search.md). A race needs moves that
//! can be walked both ways at the same cost: the strict and unchecked diagonal rules (under
//! `Faces` a corner move can be one-way), media without prices, and an admissible heuristic
//! ([`reversible`]); otherwise the search from the start runs alone, in the prelude too.

use super::{Dispatch, PRELUDE_PAGE_SHIFT};
use crate::error::PathError;
use crate::grid::scan::ScanCache;
use crate::grid::world::VoxelWorld;
use crate::search::astar::AStar;
use crate::search::config::{DiagonalRule, SearchConfig};
use crate::search::heuristic::Heuristic;
use crate::search::jps::JumpSearch;
use crate::search::path::{Path, SearchStats};
use crate::search::radix_heap::VecBuckets;

/// Work (expansions and voxels swept, [`JumpSearch::work`](crate::search::jps::JumpSearch::work)) the search from the start does
/// alone before the search from the goal takes its first turn: none. (Tuned on the tuning half
/// of the Warframe maps when the [`PRELUDE`](super::PRELUDE) ran from the start alone, and was the start's
/// lead: a query it did not answer was more often hard from the start than from the goal;
/// against leads of up to 16,384 with and without the prelude: docs/benchmarks.md.)
pub(super) const LEAD: u64 = 0;
/// Work one side of a race does in a turn ([`next_side`] chooses the side). Turns
/// are measured in work, not expansions: one expansion may sweep thousands of voxels
/// (docs/search.md compares the two).
pub(super) const TURN: u64 = 4096;
/// Work of the race's first turn after a [`PRELUDE`](super::PRELUDE) that did not answer: the
/// turn goes to the side the prelude expanded fewer voxels from (the start's on a tie), and
/// the next, a whole [`TURN`], to the other (which has then done no work, see [`SHARE`]).
/// Where the prelude searched from one end alone (the end nearer the straight line's
/// obstacle, `sight`), that is the other end; where its two sides raced, the side whose level
/// rose the slower. Either choice is wrong on a few problems, for example one end shut in a
/// narrow space and the other just outside its wall. There the search from the other end
/// ends within this short turn. Where it does not, its work is not lost: the race goes on
/// from it. Chosen on the tuning half of the Warframe maps among 128, 256, 384, 512, 768,
/// 1,024 and 2,048, of which 256 to 1,024 did about as well; a whole turn (4,096) cost time
/// (docs/benchmarks.md).
pub(super) const OTHER_END_FIRST: u64 = 512;
/// A side of the race that has done more than this many times the other side's work gives it
/// the next turn, whatever their levels: a side stuck on a wide level of `f` cannot starve
/// the other, and the race costs at most this many times plus one what the other side
/// needed alone. Chosen on the tuning half of the Warframe maps, where a larger share saves
/// little time (docs/benchmarks.md).
const SHARE: u64 = 16;

/// Expansions one side of a [`PRELUDE`](super::PRELUDE) run from both ends does in a turn
/// ([`Dispatch::prelude_race`] chooses the side). Chosen on the tuning half of the Warframe
/// maps among 8, 32 and 128.
pub(super) const PRELUDE_TURN: u64 = 32;

/// One side of a race: a search from one end, advanced a turn at a time.
trait Side {
    /// Advances by at most `n` expansions and `turn` units of work (between expansions).
    fn take_turn(
        &mut self,
        world: &VoxelWorld,
        n: usize,
        turn: u64,
        scans: &mut ScanCache,
    ) -> Result<Option<Path>, PathError>;
    /// Work done so far, in the units of a turn.
    fn done(&self) -> u64;
    /// Nodes expanded so far.
    fn expanded(&self) -> usize;
    /// Its level of `f`: a lower bound on the cost of a path, rising as it goes.
    fn level(&mut self) -> u64;
}

/// Jump point search: turns of work (expansions and voxels swept).
impl Side for JumpSearch {
    fn take_turn(
        &mut self,
        world: &VoxelWorld,
        n: usize,
        turn: u64,
        scans: &mut ScanCache,
    ) -> Result<Option<Path>, PathError> {
        self.advance_within(world, n, self.work() + turn, scans)
    }
    fn done(&self) -> u64 {
        self.work()
    }
    fn expanded(&self) -> usize {
        self.stats().expanded
    }
    fn level(&mut self) -> u64 {
        JumpSearch::level(self)
    }
}

/// The prelude's A*: turns of expansions.
impl Side for AStar<PRELUDE_PAGE_SHIFT, VecBuckets, Vec<u64>, Vec<u8>> {
    fn take_turn(
        &mut self,
        world: &VoxelWorld,
        n: usize,
        turn: u64,
        _: &mut ScanCache,
    ) -> Result<Option<Path>, PathError> {
        self.advance(world, n.min(turn as usize))
    }
    fn done(&self) -> u64 {
        self.stats().expanded as u64
    }
    fn expanded(&self) -> usize {
        self.stats().expanded
    }
    fn level(&mut self) -> u64 {
        AStar::level(self)
    }
}

/// Advances a race between `sides` (from the start, from the goal) by at most `budget`
/// expansions, and within the query's: `limits` are the expansions done before this phase and
/// the query's most. `turn` is whose turn it is and what is left of it, kept across calls (so
/// that a time-sliced query takes the same turns as a one-shot one); turns are `turn_size`, all of them `solo`'s if it names a side.
/// The first path found ends it (reversed if the search from the goal found it). Returns the
/// expansions spent.
fn run<S: Side>(
    world: &VoxelWorld,
    budget: usize,
    (forward, reverse): (&mut S, &mut S),
    turn: &mut (bool, u64),
    (turn_size, solo): (u64, Option<bool>),
    (carried, max): (usize, usize),
    scans: &mut ScanCache,
) -> (usize, Result<Option<Path>, PathError>) {
    let mut left = budget;
    loop {
        let done = carried + forward.expanded() + reverse.expanded();
        // With nothing left to spend the side still returns its goal if it is next, as a lone
        // search would.
        let n = left.min(max.saturating_sub(done));
        let (backward, turn_left) = *turn;
        let side = if backward { &mut *reverse } else { &mut *forward };
        let (before, work) = (side.expanded(), side.done());
        let out = side.take_turn(world, n, turn_left, scans);
        if n == 0 && matches!(out, Ok(None)) {
            return if done >= max {
                (budget - left, Err(PathError::BudgetExhausted { expanded: done }))
            } else {
                (budget, Ok(None))
            };
        }
        let spent = side.expanded() - before;
        let worked = side.done() - work;
        left -= spent.min(left);
        *turn = if worked >= turn_left {
            let next = match solo {
                Some(side) => side,
                None => next_side((forward.done(), forward.level()), (reverse.done(), reverse.level()), backward),
            };
            (next, turn_size)
        } else {
            (backward, turn_left - worked)
        };
        match out {
            Ok(None) => {}
            Ok(Some(path)) if backward => return (budget - left, Ok(Some(path.reversed(world)))),
            out => return (budget - left, out),
        }
    }
}

impl Dispatch {
    /// Advances the race of jump point searches by at most `budget` expansions (and within
    /// the query's budget), in turns of [`TURN`] units of work.
    pub(super) fn race(&mut self, world: &VoxelWorld, budget: usize) -> (usize, Result<Option<Path>, PathError>) {
        let limits = (self.carried.expanded, self.config.max_expansions.unwrap_or(usize::MAX));
        let turn_size = self.race_turns.map_or(TURN, |t| t.1);
        let sides = (&mut self.search, &mut self.reverse);
        run(world, budget, sides, &mut self.turn, (turn_size, None), limits, &mut self.scans)
    }

    /// Advances the [`PRELUDE`](super::PRELUDE) from both ends by at most `budget`
    /// expansions (and within the query's budget), in turns of [`PRELUDE_TURN`] expansions,
    /// the search from the goal first: as [`race`](Self::race) does with the jump point
    /// searches.
    pub(super) fn prelude_race(
        &mut self,
        world: &VoxelWorld,
        budget: usize,
    ) -> (usize, Result<Option<Path>, PathError>) {
        let limits = (self.carried.expanded, self.config.max_expansions.unwrap_or(usize::MAX));
        let turn_size = self.prelude_turn.unwrap_or(PRELUDE_TURN);
        let sides = (&mut self.prelude_astar, &mut self.prelude_reverse);
        let solo = (turn_size, self.nearer_end);
        run(world, budget, sides, &mut self.turn, solo, limits, &mut self.scans)
    }
}

/// Which side of a race takes the next turn (`true`: the search from the goal), after
/// `backward`'s, given each side's work and level of `f` (`(work, level)`, the search from
/// the start first): the one whose level is higher, the other one on a tie, but a side
/// that has done more than [`SHARE`] times the other's work yields. Both levels bound the
/// optimum from below, and a side ends when its level reaches it: the higher one is nearer
/// its end as far as either can tell, while a side misled by an obstacle spends its work
/// on one level (docs/benchmarks.md compares this with equal turns). The race of jump
/// point searches and the prelude's race of A*s both take their turns so.
fn next_side(forward: (u64, u64), reverse: (u64, u64), backward: bool) -> bool {
    if forward.0 > SHARE * reverse.0 {
        return true;
    }
    if reverse.0 > SHARE * forward.0 {
        return false;
    }
    match forward.1.cmp(&reverse.1) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Equal => !backward,
    }
}

/// The statistics of a race's two sides together: counts and memory added (both are held at
/// once), the first side's weight.
pub(super) fn side_by_side(s: SearchStats, r: SearchStats) -> SearchStats {
    SearchStats {
        expanded: s.expanded + r.expanded,
        generated: s.generated + r.generated,
        peak_open: s.peak_open + r.peak_open,
        weight: s.weight,
        swept: s.swept + r.swept,
        peak_bytes: s.peak_bytes + r.peak_bytes,
    }
}

/// Whether every legal move of `config` is legal backwards at the same cost, and the heuristic
/// admissible: a search from the goal then finds a path as short as one from the start.
pub(super) fn reversible(config: &SearchConfig, world: &VoxelWorld) -> bool {
    config.diagonal != DiagonalRule::Faces && !config.priced_media(world) && config.heuristic != Heuristic::Manhattan
}

#[cfg(test)]
mod tests {
    use glam::IVec3;

    use super::*;
    use crate::Voxel;
    use crate::grid::moves::{OFFSETS, legal_moves};
    use crate::search::config::Algorithm;
    use crate::search::path::SearchStep;

    /// Races that begin at once and switch sides every few voxels, on small random worlds
    /// (where the usual lead would end most queries before any race): the path must be legal
    /// from start to goal and as short as plain A*'s, whichever side found it.
    #[test]
    fn races_find_legal_optimal_paths_from_either_end() {
        let mut rng = crate::grid::seeded::Rng(0x2ACE_5EED);
        let (mut race, mut astar) = (Dispatch::default(), <AStar>::default());
        let (mut compared, mut reversed, mut budgeted, mut handed_over) = (0, 0, 0, 0);
        let mut prelude_reversed = 0;
        for world_index in 0..720 {
            let dims = glam::UVec3::new(5 + rng.below(12), 5 + rng.below(8), 5 + rng.below(12));
            let density = rng.below(35);
            let world = rng.world(dims, density);
            let rule = [DiagonalRule::Strict, DiagonalRule::Unchecked][world_index % 2];
            let costs = if world_index % 3 == 0 { crate::CostModel::GAME } else { crate::CostModel::PRECISE };
            let config = SearchConfig { algorithm: Algorithm::Jps, diagonal: rule, costs, ..Default::default() };
            for _ in 0..6 {
                let (start, goal) = (rng.voxel(dims), rng.voxel(dims));
                if world.is_blocked(start) || world.is_blocked(goal) || start == goal {
                    continue;
                }
                race.race_turns = Some((u64::from(rng.below(3)), 1 + u64::from(rng.below(8))));
                // A third of the queries begin with a short prelude (A* with canonical
                // successors), most of which hand over to the race.
                let prelude = if world_index % 3 == 2 { 1 + rng.below(24) as usize } else { 0 };
                race.prelude_expansions = Some(prelude);
                race.prelude_turn = Some(1 + u64::from(rng.below(4)));
                race.begin(&world, start, goal, &config, false);
                if race.walking {
                    // A clear line: the octile path is walked first (`sight::walk_octile`).
                    continue;
                }
                assert_eq!(race.racing, prelude == 0);
                assert_eq!(race.prelude, prelude > 0);
                assert_eq!(race.prelude_both, prelude > 0, "the prelude runs from both ends");
                astar.begin(&world, start, goal, &config, 100, false);
                let step = race.advance(&world, usize::MAX);
                match (step, astar.advance(&world, usize::MAX)) {
                    (SearchStep::Found(path), Ok(Some(best))) => {
                        assert_eq!(path.cost, best.cost, "world {world_index} {rule:?} {start} -> {goal}");
                        assert_eq!((path.voxels[0], path.voxels[path.voxels.len() - 1]), (start, goal));
                        let mut cost = 0;
                        for w in path.voxels.windows(2) {
                            let m = OFFSETS.iter().position(|&d| d == w[1] - w[0]).expect("one move per step");
                            assert!(legal_moves(world.blocked_mask(w[0], config.pass()), rule) & 1 << m != 0);
                            cost += costs.cost(crate::grid::moves::axes(m));
                        }
                        assert_eq!(cost, path.cost);
                        reversed += usize::from(race.racing && race.reverse.finished() && !race.search.finished());
                        handed_over += usize::from(prelude > 0 && race.racing);
                        // The prelude answered (it is still the phase), its search from the goal
                        // having taken turns.
                        prelude_reversed += usize::from(race.prelude && race.prelude_reverse.stats().expanded > 0);
                        compared += 1;
                    }
                    (SearchStep::Failed(PathError::Unreachable { .. }), Err(PathError::Unreachable { .. })) => {}
                    (a, b) => panic!("world {world_index} {start} -> {goal}: {a:?} vs {b:?}"),
                }
                // The query's expansion budget covers both sides.
                let max = rng.below(12) as usize;
                race.begin(&world, start, goal, &SearchConfig { max_expansions: Some(max), ..config }, false);
                match race.advance(&world, usize::MAX) {
                    SearchStep::Found(path) => assert!(path.stats.expanded <= max),
                    SearchStep::Failed(PathError::BudgetExhausted { expanded }) => {
                        assert_eq!(expanded, max);
                        budgeted += 1;
                    }
                    SearchStep::Failed(PathError::Unreachable { expanded }) => assert!(expanded <= max),
                    step => panic!("world {world_index} {start} -> {goal} within {max}: {step:?}"),
                }
            }
        }
        assert!(compared > 800, "compared {compared}");
        assert!(budgeted > 500, "budget exhausted in only {budgeted} races");
        assert!(reversed > 200, "the reverse search found only {reversed} of {compared} paths");
        assert!(handed_over > 100, "only {handed_over} preludes handed over to the race");
        assert!(prelude_reversed > 100, "only {prelude_reversed} preludes answered from both ends");
        // Moves that may be one-way or priced by the medium entered, and an inadmissible
        // heuristic: no race.
        let mut world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::splat(8)).unwrap();
        world.set(IVec3::new(4, 4, 4), Voxel::Water).unwrap();
        // A solid voxel on the line between the ends (a clear line is walked, not raced).
        world.set(IVec3::new(2, 2, 2), Voxel::Solid).unwrap();
        let jps = SearchConfig { algorithm: Algorithm::Jps, ..Default::default() };
        for config in [
            SearchConfig { diagonal: DiagonalRule::Faces, ..jps },
            SearchConfig { media: crate::Media { air: Some(100), water: Some(300) }, ..jps },
            SearchConfig { heuristic: Heuristic::Manhattan, ..jps },
        ] {
            race.prelude_expansions = Some(0);
            race.begin(&world, IVec3::ZERO, IVec3::splat(7), &config, false);
            assert!(!race.racing, "{config:?}");
            // Nor does the prelude run from the goal.
            race.prelude_expansions = Some(5);
            race.begin(&world, IVec3::ZERO, IVec3::splat(7), &config, false);
            assert!(!race.prelude_both, "{config:?}");
        }
        race.prelude_expansions = Some(0);
        race.begin(&world, IVec3::ZERO, IVec3::splat(7), &jps, false);
        assert!(race.racing);
    }

    /// The world of the Warframe map Simple: 105 x 132 x 105 voxels, empty but for a square
    /// tube from y = 50 to 81, walls one voxel thick at x and z 50 and 54, open at both ends.
    fn simple_tube() -> VoxelWorld {
        let mut world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::new(105, 132, 105)).unwrap();
        for y in 50..82 {
            for a in 50..55 {
                for v in [IVec3::new(a, y, 50), IVec3::new(a, y, 54), IVec3::new(50, y, a), IVec3::new(54, y, a)] {
                    world.set(v, Voxel::Solid).unwrap();
                }
            }
        }
        world
    }

    /// The prelude's race on the tube of the Warframe map Simple (its problem #8300): a
    /// square tube 32 voxels long, walls one voxel thick, open at both ends; the goal inside,
    /// the start outside beside it. From the start every voxel in front of the tube's side
    /// has `f` below the optimum; from the goal, the tube's inside. After a turn each the two
    /// levels tie. Begun from the start, the prelude gave the start's side the next turn (the
    /// turns alternate on a tie), its level rose above the goal's side's, which had not yet
    /// climbed, and it kept the turns (all but one in seventeen) until the prelude handed
    /// over to the race. Begun from the goal, the goal's side takes the turn after the tie,
    /// climbs, and ends within the prelude at little more than it needs alone.
    #[test]
    fn the_prelude_runs_the_side_that_ends_first() {
        let world = simple_tube();
        let (start, goal) = (IVec3::new(49, 60, 57), IVec3::new(53, 70, 51));
        let config = SearchConfig { algorithm: Algorithm::Jps, costs: crate::CostModel::PRECISE, ..Default::default() };
        let alone = |from: IVec3, to: IVec3| {
            let mut side = AStar::<PRELUDE_PAGE_SHIFT>::default();
            side.begin(&world, from, to, &config, 100, true);
            let path = side.advance(&world, usize::MAX).unwrap().expect("reachable");
            (side.stats().expanded, path.cost)
        };
        let ((forward, cost), (backward, _)) = (alone(start, goal), alone(goal, start));
        assert!(forward > 16 * backward, "one side {forward}, the other {backward}");
        let mut race = Dispatch::default();
        race.begin(&world, start, goal, &config, false);
        let SearchStep::Found(path) = race.advance(&world, usize::MAX) else { panic!("no path") };
        assert_eq!(path.cost, cost);
        assert!(race.prelude, "handed over to the race");
        let raced = path.stats.expanded;
        assert!(raced < backward * 3 / 2 + 2 * PRELUDE_TURN as usize, "raced {raced}, sides {forward} / {backward}");
    }

    /// Simple's tube (`simple_tube`) with one end inside it and the other just outside its
    /// wall (the problems #4490 and #490 of the Warframe map): the straight line between them
    /// crosses the wall nearer the outer end, so the prelude searches from there alone, and
    /// floods the outside of the tube without ending (in #1310 the line ranks neither end,
    /// and the prelude's race runs the outer side most). The search from the inner end climbs
    /// out of the tube's top in a few hundred expansions. The race after the prelude ends
    /// within the inner end's first short turn; the outer end's search does no more.
    #[test]
    fn the_race_looks_from_the_other_end_first() {
        let world = simple_tube();
        let config = SearchConfig { algorithm: Algorithm::Jps, costs: crate::CostModel::PRECISE, ..Default::default() };
        let mut astar = <AStar>::default();
        // The line ranks the outer end; the last (#1310) ranks neither, and the prelude's
        // race gives the outer side most of its turns (its level rises the faster at first).
        let problems = [
            (IVec3::new(51, 69, 53), IVec3::new(52, 59, 49), Some(true)),
            (IVec3::new(51, 70, 52), IVec3::new(50, 72, 49), Some(true)),
            (IVec3::new(51, 74, 53), IVec3::new(53, 63, 55), None),
        ];
        for (start, goal, nearer) in problems {
            astar.begin(&world, start, goal, &config, 100, false);
            let best = astar.advance(&world, usize::MAX).unwrap().expect("reachable");
            let mut race = Dispatch::default();
            race.begin(&world, start, goal, &config, false);
            assert_eq!(race.nearer_end, nearer, "{start} -> {goal}");
            let SearchStep::Found(path) = race.advance(&world, usize::MAX) else { panic!("no path") };
            assert_eq!(path.cost, best.cost);
            assert!(race.racing, "{start} -> {goal}: the prelude handed over");
            let (from_start, from_goal) = (race.prelude_astar.stats().expanded, race.prelude_reverse.stats().expanded);
            assert!(from_start < from_goal, "{start} -> {goal}: the prelude {from_start} / {from_goal}");
            let (inner, outer) = (race.search.work(), race.reverse.work());
            assert!(inner > 0 && inner <= OTHER_END_FIRST && outer == 0, "{start} -> {goal}: {inner} / {outer}");
        }
    }

    /// An `n`^3 world holding a cup: walls round the cube `walls` on every axis, open towards
    /// +x.
    fn cup(n: u32, walls: std::ops::Range<i32>) -> VoxelWorld {
        let mut world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::splat(n)).unwrap();
        let (lo, hi) = (walls.start, walls.end - 1);
        for a in walls.clone() {
            for b in walls.clone() {
                for v in [IVec3::new(lo, a, b), IVec3::new(a, lo, b), IVec3::new(a, hi, b), IVec3::new(a, b, lo)] {
                    world.set(v, Voxel::Solid).unwrap();
                }
                world.set(IVec3::new(a, b, hi), Voxel::Solid).unwrap();
            }
        }
        world
    }

    /// A cup whose open side faces away from the outer end: the straight line meets its wall
    /// next to the inner end, so the prelude searches from the inner end alone (the other
    /// side expands nothing), from the goal or from the start, and the race after a prelude
    /// too short to answer takes its first turn from that end.
    #[test]
    fn the_prelude_searches_from_the_end_nearer_the_obstacle() {
        let world = cup(40, 20..30);
        let (outside, inside) = (IVec3::new(2, 24, 25), IVec3::new(22, 25, 24));
        let config = SearchConfig { algorithm: Algorithm::Jps, ..Default::default() };
        let mut astar = <AStar>::default();
        for (start, goal, from_goal) in [(outside, inside, true), (inside, outside, false)] {
            astar.begin(&world, start, goal, &config, 100, false);
            let best = astar.advance(&world, usize::MAX).unwrap().expect("reachable");
            let mut race = Dispatch::default();
            race.begin(&world, start, goal, &config, false);
            assert_eq!(race.nearer_end, Some(from_goal));
            let SearchStep::Found(path) = race.advance(&world, usize::MAX) else { panic!("no path") };
            assert_eq!(path.cost, best.cost);
            assert!(race.prelude, "handed over to the race");
            let (forward, reverse) = (race.prelude_astar.stats().expanded, race.prelude_reverse.stats().expanded);
            let (alone, other) = if from_goal { (reverse, forward) } else { (forward, reverse) };
            assert!(alone > 0 && other == 0, "{start} -> {goal}: {forward} from the start, {reverse} from the goal");
            // A prelude of a few expansions hands over. The race begins with a short turn
            // from the other end, and the next, a whole one, goes to the prelude's end.
            let mut race = Dispatch { prelude_expansions: Some(4), ..Dispatch::default() };
            race.begin(&world, start, goal, &config, false);
            assert!(matches!(race.advance(&world, 4), SearchStep::Pending));
            assert!(matches!(race.advance(&world, 1), SearchStep::Pending));
            assert!(race.racing);
            assert_eq!(race.turn.0, !from_goal);
            while race.turn.0 != from_goal {
                assert!(matches!(race.advance(&world, 1), SearchStep::Pending), "{start} -> {goal}");
            }
            let (other, alone) = if from_goal { (&race.search, &race.reverse) } else { (&race.reverse, &race.search) };
            assert!(other.work() >= OTHER_END_FIRST && other.work() < 2 * OTHER_END_FIRST, "{}", other.work());
            assert_eq!(alone.work(), 0);
            assert_eq!(race.turn.1, TURN);
        }
        // No obstacle on the line: the prelude's two sides race.
        let mut race = Dispatch::default();
        race.begin(&world, IVec3::new(2, 2, 2), IVec3::new(30, 5, 8), &config, false);
        assert_eq!(race.nearer_end, None);
    }

    /// A goal in a cup whose open side faces away from the start: searched from the start,
    /// every voxel in front of the cup has `f` below the optimum; from the goal, only the cup.
    /// The race must spend its turns on the side that ends first, from either end (with equal
    /// turns it did about twice that side's work).
    #[test]
    fn the_race_runs_the_side_that_ends_first() {
        let world = cup(56, 20..36);
        let (outside, inside) = (IVec3::new(2, 27, 27), IVec3::new(22, 28, 27));
        let config = SearchConfig { algorithm: Algorithm::Jps, ..Default::default() };
        // Turns short beside either side's work.
        let turn = 256;
        let mut race = Dispatch { prelude_expansions: Some(0), race_turns: Some((0, turn)), ..Dispatch::default() };
        for (start, goal) in [(outside, inside), (inside, outside)] {
            let alone = |from: IVec3, to: IVec3| {
                let (mut side, mut scans) = (JumpSearch::default(), ScanCache::default());
                side.begin(&world, from, to, &config, &mut scans);
                let path = side.advance(&world, usize::MAX, &mut scans).unwrap().expect("reachable");
                (side.work(), path.cost)
            };
            let ((forward, cost), (backward, _)) = (alone(start, goal), alone(goal, start));
            race.begin(&world, start, goal, &config, false);
            let SearchStep::Found(path) = race.advance(&world, usize::MAX) else { panic!("no path") };
            assert_eq!(path.cost, cost);
            let raced = race.search.work() + race.reverse.work();
            let (easy, hard) = (forward.min(backward), forward.max(backward));
            assert!(hard > 8 * easy, "{start} -> {goal}: one side {forward}, the other {backward}");
            assert!(
                raced < easy + easy / 4 + 2 * turn,
                "{start} -> {goal}: raced {raced}, sides {forward} / {backward}"
            );
        }
    }
}
