//! Runs a [`Pathfinder`](crate::Pathfinder)'s queries, in phases, on its two engines: the A*
//! of [`astar`](super::astar) (exact, weighted, and the budget mode's phases of rising weight)
//! and the jump point search of [`jps`](super::jps); and, for any algorithm, the
//! closest-reachable-voxel fallback (a search, then a flood of the start's component, then a
//! search to the closest voxel).
//!
//! Exact jump point search begins with a short search that tries only canonical successors
//! ([`PRELUDE`]): two A*s, one from each end, in turns ([`Dispatch::prelude_race`]); most small
//! queries end there. Otherwise it races two jump point searches, one from each end: the one
//! from the goal first ([`LEAD`]), in turns of [`TURN`] units of work, each turn to the side
//! whose level of `f` is the higher ([`Dispatch::next_side`]), and the first path found is
//! returned (reversed if the backward search found it). Both are exact, so either
//! path is optimal. Why: A* (and JPS) must expand every voxel whose `f` is below the optimum,
//! and when the obstacle that makes the octile estimate too low lies near the goal, that is
//! nearly every voxel between the two ends; searched from the other end the same error lies at
//! the start, is paid once, and the rest dives straight through. On the Warframe maps the hard
//! direction is the forward one about as often as the backward one (docs/search.md). The race
//! needs moves that can be walked both ways at the same cost: the strict and unchecked
//! diagonal rules (under `Faces` a corner move can be one-way), media without prices, and an
//! admissible heuristic; otherwise the forward search runs alone (and so does the prelude's
//! A* from the start).

use glam::IVec3;

use crate::error::PathError;
use crate::grid::scan::ScanCache;
use crate::grid::world::VoxelWorld;
use crate::search::astar::AStar;
use crate::search::config::{Algorithm, DiagonalRule, Fallback, SearchConfig};
use crate::search::flood::Flood;
use crate::search::guide::Reach;
use crate::search::heuristic::Heuristic;
use crate::search::jps::JumpSearch;
use crate::search::path::{Path, SearchStats, SearchStep};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Phase {
    /// No query begun; `advance` reports `Unreachable`.
    #[default]
    Idle,
    /// Searching for the goal.
    Main,
    /// The goal is unreachable: flooding the start's component for the closest voxel.
    Flood,
    /// [`Algorithm::Budget`] after its first phase: flooding the goal's component, at most one
    /// phase's expansions, for the start. A goal walled in a pocket smaller than that is then
    /// answered `Unreachable` at once, not after a pass over all the start can reach.
    Probe,
    /// Searching for the closest voxel.
    Closest,
    /// Finished; `advance` reports `Unreachable` until the next `begin`.
    Done,
    /// Finished by the [`Probe`](Phase::Probe): as `Done`, its statistics all carried.
    Refuted,
}

/// Work (expansions and voxels swept, [`JumpSearch::work`]) the search from the start does
/// alone before the search from the goal takes its first turn: none. (Tuned on the tuning half
/// of the Warframe maps when the [`PRELUDE`] ran from the start alone, and was the start's
/// lead: a query it did not answer was more often hard from the start than from the goal;
/// against leads of up to 16,384 with and without the prelude: docs/benchmarks.md.)
const LEAD: u64 = 0;
/// Work one side of a race does in a turn ([`Dispatch::next_side`] chooses the side). Turns
/// are measured in work, not expansions: one expansion may sweep thousands of voxels
/// (docs/search.md compares the two).
const TURN: u64 = 4096;
/// A side of the race that has done more than this many times the other side's work gives it
/// the next turn, whatever their levels: a side stuck on a wide level of `f` cannot starve
/// the other, and the race costs at most this many times plus one what the other side
/// needed alone. Chosen on the tuning half of the Warframe maps, where a larger share saves
/// little time (docs/benchmarks.md).
const SHARE: u64 = 16;

/// Expansions of the A* with canonical successors (the pruning rule of jump point search
/// without the jumps, [`AStar::begin`]) that an exact jump point search runs first: the
/// *prelude*. Small queries end within it, without paying the jump search's set-up (the scan
/// events of the chunks it reads, microseconds each, and its two node tables); the others hand
/// over to the race of jump point searches, which starts afresh, from the goal's side (see
/// [`LEAD`]). All are exact.
///
/// Where the race may run ([`reversible`]), the prelude runs from both ends, as the race does
/// and for the same reason (the heuristic's error is paid once from the end it lies at): two
/// such A*s, in turns of [`PRELUDE_TURN`] expansions, and these are the two sides' expansions
/// together ([`Dispatch::prelude_race`]). Chosen on the tuning half of the Warframe maps among
/// 1,000 (the prelude from the start alone was tuned to it), 1,500, 2,000 and 3,000
/// (docs/benchmarks.md).
const PRELUDE: usize = 2000;

/// The budget mode follows the guide when its estimate at the start is at least this ratio
/// (numerator, denominator) of the octile one: the way round is that much longer than the
/// straight line. Tuned on the tuning half of the Warframe maps, where the ratio of the queries
/// sized up stays well below it and following the guide from lower ratios made paths longer;
/// on walls with small windows it is above it (docs/benchmarks.md).
const GUIDE_RATIO: (u64, u64) = (2, 1);

/// Expansions into the budget mode's first phase (or the whole phase, if shorter) after which
/// a query that has not reached its goal is sized up on the coarse graph (see
/// [`Dispatch::size_up`]). Most queries end before it (the median Warframe query expands a few
/// hundred voxels); one misled by a wall loses no more than these before it follows the guide.
const SIZE_UP: usize = 4096;

/// Node pages of the [`PRELUDE`]'s A*: cubes of `2^PRELUDE_PAGE_SHIFT` voxels a side. A search
/// of at most [`PRELUDE`] expansions touches few voxels of each 16^3 chunk it enters (a chunk
/// page is 36 KB), and its canonical successors lead it into chunks where plain A* (which
/// tries all 26 moves) does not go; smaller pages follow what it touches. Chosen on the tuning
/// half of the Warframe maps (docs/benchmarks.md).
const PRELUDE_PAGE_SHIFT: i32 = 3;

/// Expansions one side of a [`PRELUDE`] run from both ends does in a turn
/// ([`Dispatch::prelude_race`] chooses the side). Chosen on the tuning half of the Warframe
/// maps among 8, 32 and 128.
const PRELUDE_TURN: u64 = 32;

/// The search state a [`Pathfinder`](crate::Pathfinder) carries.
#[derive(Debug, Default, Clone)]
pub(crate) struct Dispatch {
    phase: Phase,
    /// The A* engine, for every phase that does not jump except the [`PRELUDE`].
    astar: AStar,
    /// The A* engine of the [`PRELUDE`], on its own small pages.
    prelude_astar: AStar<PRELUDE_PAGE_SHIFT>,
    /// The [`PRELUDE`]'s A* from the goal back to the start, when it runs from both ends.
    prelude_reverse: AStar<PRELUDE_PAGE_SHIFT>,
    /// The [`PRELUDE`] runs from both ends (`prelude_reverse` too).
    prelude_both: bool,
    /// The current phase runs jump point search (`search`, and `reverse` when racing).
    jump: bool,
    /// The query is a repair's detour: A* with canonical successors.
    canonical: bool,
    search: JumpSearch,
    /// The search from the goal back to the start, when the current phase races one.
    reverse: JumpSearch,
    /// The straight-scan events both jump point searches read (kept across queries on the
    /// same world and media, see [`ScanCache`]).
    scans: ScanCache,
    racing: bool,
    /// Whose turn it is (`true`: the reverse search's) and the work left in it. Kept across
    /// calls, so that a time-sliced query takes the same turns as a one-shot one.
    turn: (bool, u64),
    /// [`LEAD`] and [`TURN`], replaced by tests to race on small worlds.
    race_turns: Option<(u64, u64)>,
    /// The current phase is the [`PRELUDE`] of a jump point search (A* with canonical
    /// successors, `self.jump` false until it hands over).
    prelude: bool,
    /// [`PRELUDE`], replaced by tests (0: none).
    prelude_expansions: Option<usize>,
    /// [`PRELUDE_TURN`], replaced by tests.
    prelude_turn: Option<u64>,
    flood: Flood,
    /// This query was sized up (see [`size_up`](Self::size_up)).
    sized_up: bool,
    /// The next escalation floods from the goal first ([`Phase::Probe`]).
    flood_next: bool,
    /// The current schedule's phases follow the guide (see [`escalate`](Self::escalate)).
    guided: bool,
    /// A lower bound on the optimal cost, proved by the unguided phases of the schedule (see
    /// [`AStar::lower_bound`]): a path found following the guide reports its cost over it as
    /// its weight.
    lower: u64,
    start: IVec3,
    goal: IVec3,
    config: SearchConfig,
    /// Statistics of the phases already finished.
    carried: SearchStats,
    /// Where the current search phase heads (the goal, or the closest reachable voxel).
    target: IVec3,
    /// Heuristic weight (percent) of the current search phase.
    weight: u32,
    /// Expansions the current phase may still spend before the budget schedule raises the
    /// weight (`usize::MAX`: no cap).
    phase_left: usize,
    /// The world's dims and revision at `begin`: every phase (search, flood, closest) fails
    /// with [`PathError::WorldChanged`] on any other.
    world: (glam::UVec3, u64),
}

impl Dispatch {
    /// Starts a query; the endpoints and costs were validated. `canonical`: A* tries only
    /// canonical successors (see [`AStar::begin`]).
    pub(crate) fn begin(
        &mut self,
        world: &VoxelWorld,
        start: IVec3,
        goal: IVec3,
        config: &SearchConfig,
        canonical: bool,
    ) {
        self.canonical = canonical;
        self.start = start;
        self.goal = goal;
        self.config = *config;
        self.carried = SearchStats::default();
        self.sized_up = false;
        self.flood_next = false;
        self.phase = Phase::Main;
        self.world = (world.dims(), world.revision());
        self.begin_search(world, goal);
    }

    /// Ends the current query (if any): `advance` reports `Unreachable` until the next
    /// `begin`; the statistics stay.
    pub(crate) fn stop(&mut self) {
        if !matches!(self.phase, Phase::Idle | Phase::Refuted) {
            self.phase = Phase::Done;
        }
    }

    fn begin_search(&mut self, world: &VoxelWorld, goal: IVec3) {
        let (weight, cap) = match self.config.algorithm {
            Algorithm::AStar | Algorithm::Jps => (100, usize::MAX),
            Algorithm::Weighted { percent } => (percent, usize::MAX),
            Algorithm::Budget { percent, phase_expansions } => (percent, phase_expansions.max(1) as usize),
        };
        self.target = goal;
        self.guided = false;
        self.lower = Heuristic::Octile.estimate(goal - self.start, &self.config.costs);
        self.phase_left = cap;
        self.start_phase(world, weight);
    }

    /// Starts a search toward `self.target` with `weight`, within what is left of the query's
    /// expansion budget. An exact jump point search begins with its [`PRELUDE`]: A* with
    /// canonical successors, for at most that many expansions.
    fn start_phase(&mut self, world: &VoxelWorld, weight: u32) {
        self.weight = weight.max(100);
        // Weighted A*: measured faster than weighted jump point search on the benchmark.
        let jump = self.config.algorithm == Algorithm::Jps
            && self.weight == 100
            && self.config.costs.jump_exact()
            && !self.config.priced_media(world);
        let prelude = self.prelude_expansions.unwrap_or(PRELUDE);
        if jump && prelude > 0 {
            self.jump = false;
            self.racing = false;
            self.prelude = true;
            self.phase_left = prelude;
            let left = self.config.max_expansions.map(|m| m.saturating_sub(self.carried.expanded));
            let config = SearchConfig { max_expansions: left, ..self.config };
            self.prelude_both = self.phase == Phase::Main && reversible(&config, world);
            if self.prelude_both {
                // Both sides' expansions count against the query's budget (see `race`).
                let config = SearchConfig { max_expansions: None, ..config };
                self.prelude_astar.begin(world, self.start, self.target, &config, 100, true);
                self.prelude_reverse.begin(world, self.target, self.start, &config, 100, true);
                self.turn = (false, self.prelude_turn.unwrap_or(PRELUDE_TURN));
            } else {
                self.prelude_astar.begin(world, self.start, self.target, &config, 100, true);
            }
        } else {
            self.jump = jump;
            self.start_search(world);
        }
    }

    /// Starts the search of the current phase on its engine: jump point search (racing from
    /// both ends where it can) if `self.jump`, else A*.
    fn start_search(&mut self, world: &VoxelWorld) {
        self.prelude = false;
        self.prelude_both = false;
        let left = self.config.max_expansions.map(|m| m.saturating_sub(self.carried.expanded));
        let config = SearchConfig { max_expansions: left, ..self.config };
        self.racing = self.jump && self.phase == Phase::Main && reversible(&config, world);
        if self.racing {
            // The race counts the expansions of both sides against the query's budget.
            let config = SearchConfig { max_expansions: None, ..config };
            self.search.begin(world, self.start, self.target, &config, &mut self.scans);
            self.reverse.begin(world, self.target, self.start, &config, &mut self.scans);
            let (lead, turn) = self.race_turns.unwrap_or((LEAD, TURN));
            self.turn = if lead == 0 { (true, turn) } else { (false, lead) };
        } else if self.jump {
            self.search.begin(world, self.start, self.target, &config, &mut self.scans);
        } else {
            self.astar.begin(world, self.start, self.target, &config, self.weight, self.canonical);
            if self.guided {
                self.astar.follow_guide();
            }
        }
    }

    /// The [`PRELUDE`] spent its expansions without an answer: the jump point search takes
    /// over, from scratch.
    fn end_prelude(&mut self, world: &VoxelWorld) {
        self.carried = self.add(self.phase_stats());
        self.phase_left = usize::MAX;
        self.jump = true;
        self.start_search(world);
    }

    /// Statistics of the current phase's searches.
    fn phase_stats(&self) -> SearchStats {
        if self.prelude {
            let s = self.prelude_astar.stats();
            if !self.prelude_both {
                return s;
            }
            return side_by_side(s, self.prelude_reverse.stats());
        }
        if !self.jump {
            return self.astar.stats();
        }
        let s = self.search.stats();
        if !self.racing {
            return s;
        }
        side_by_side(s, self.reverse.stats())
    }

    /// Advances the race by at most `budget` expansions (and within the query's budget):
    /// the side whose turn it is runs, then the other. The first path found ends it.
    fn race(&mut self, world: &VoxelWorld, budget: usize) -> (usize, Result<Option<Path>, PathError>) {
        let max = self.config.max_expansions.unwrap_or(usize::MAX);
        let mut left = budget;
        loop {
            let done = self.carried.expanded + self.phase_stats().expanded;
            // With nothing left to spend the side still returns its goal if it is next, as a
            // lone search would.
            let n = left.min(max.saturating_sub(done));
            let (backward, turn_left) = self.turn;
            let side = if backward { &mut self.reverse } else { &mut self.search };
            let (before, work) = (side.stats().expanded, side.work());
            let out = side.advance_within(world, n, work + turn_left, &mut self.scans);
            if n == 0 && matches!(out, Ok(None)) {
                return if done >= max {
                    (budget - left, Err(PathError::BudgetExhausted { expanded: done }))
                } else {
                    (budget, Ok(None))
                };
            }
            let spent = side.stats().expanded - before;
            let worked = side.work() - work;
            left -= spent.min(left);
            self.turn = if worked >= turn_left {
                let next = Self::next_side(
                    (self.search.work(), self.search.level()),
                    (self.reverse.work(), self.reverse.level()),
                    backward,
                );
                (next, self.race_turns.map_or(TURN, |t| t.1))
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

    /// Advances the [`PRELUDE`] from both ends by at most `budget` expansions (and within the
    /// query's budget), in turns of [`PRELUDE_TURN`] expansions, each to the side whose `f`
    /// level is the higher (the other on a tie), unless it has expanded more than [`SHARE`]
    /// times the other: as [`race`](Self::race) does with the jump point searches. The first
    /// path found ends it (reversed if the search from the goal found it).
    fn prelude_race(&mut self, world: &VoxelWorld, budget: usize) -> (usize, Result<Option<Path>, PathError>) {
        let max = self.config.max_expansions.unwrap_or(usize::MAX);
        let mut left = budget;
        loop {
            let done = self.carried.expanded + self.phase_stats().expanded;
            let (backward, turn_left) = self.turn;
            // With nothing left to spend the side still returns its goal if it is next.
            let n = left.min(max.saturating_sub(done)).min(turn_left as usize);
            let side = if backward { &mut self.prelude_reverse } else { &mut self.prelude_astar };
            let before = side.stats().expanded;
            let out = side.advance(world, n);
            let spent = side.stats().expanded - before;
            if n == 0 && matches!(out, Ok(None)) {
                return if done >= max {
                    (budget - left, Err(PathError::BudgetExhausted { expanded: done }))
                } else {
                    (budget - left, Ok(None))
                };
            }
            left -= spent;
            self.turn = if spent as u64 >= turn_left {
                let (f, r) = (&mut self.prelude_astar, &mut self.prelude_reverse);
                let next = Self::next_side(
                    (f.stats().expanded as u64, f.level()),
                    (r.stats().expanded as u64, r.level()),
                    backward,
                );
                (next, self.prelude_turn.unwrap_or(PRELUDE_TURN))
            } else {
                (backward, turn_left - spent as u64)
            };
            match out {
                Ok(None) => {}
                Ok(Some(path)) if backward => return (budget - left, Ok(Some(path.reversed(world)))),
                out => return (budget - left, out),
            }
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

    /// The expansions of the budget mode's first phase after which the query is sized up
    /// ([`size_up`](Self::size_up)), if that is still to come.
    fn size_up_at(&self) -> Option<usize> {
        match self.config.algorithm {
            Algorithm::Budget { phase_expansions, .. } if !self.sized_up && self.phase == Phase::Main => {
                Some((phase_expansions.max(1) as usize).min(SIZE_UP))
            }
            _ => None,
        }
    }

    /// [`Algorithm::Budget`], [`SIZE_UP`] expansions into the first phase: the query is sized
    /// up on the coarse graph of the [`Guide`](super::guide::Guide). If the way round is much
    /// longer than the octile estimate ([`GUIDE_RATIO`]: a wall between the ends, whose
    /// openings the estimate cannot see and a heavier weight only makes worse), the phase
    /// starts again following the guide, and so do the next. If there is no way at all under
    /// the strict diagonal rule, the goal is unreachable; if the guide cannot tell, the first
    /// escalation floods from the goal ([`Phase::Probe`]). Returns the query's end, if that
    /// was it.
    fn size_up(&mut self, world: &VoxelWorld) -> Option<SearchStep> {
        self.sized_up = true;
        let config = self.config;
        let guide = self.astar.guide();
        guide.begin(world, self.start, self.target, config.pass(), config.diagonal, config.costs);
        let reach = guide.reach_start(world);
        self.carried.peak_bytes = self.carried.peak_bytes.max(self.astar.guide().bytes_in_use());
        match reach {
            Reach::Start => {
                let octile = Heuristic::Octile.estimate(self.target - self.start, &config.costs);
                let guided = self.astar.guide().estimate(world, self.start).unwrap_or(0);
                if guided >= octile.saturating_mul(GUIDE_RATIO.0) / GUIDE_RATIO.1 {
                    self.lower = self.lower.max(self.astar.lower_bound());
                    self.carried = self.add(self.phase_stats());
                    self.guided = true;
                    if let Algorithm::Budget { phase_expansions, .. } = config.algorithm {
                        self.phase_left = phase_expansions.max(1) as usize;
                    }
                    self.start_phase(world, self.weight);
                }
            }
            Reach::Dry if config.diagonal == DiagonalRule::Strict && config.fallback == Fallback::Fail => {
                self.carried = self.add(self.phase_stats());
                self.phase = Phase::Refuted;
                return Some(SearchStep::Failed(PathError::Unreachable { expanded: self.carried.expanded }));
            }
            // Moves that can be walked both ways make the goal's component hold the start iff
            // the start's holds the goal. (With `Fallback::Closest` an unreachable goal is not
            // the end of the query: the search runs dry and the fallback follows.)
            _ => self.flood_next = config.diagonal != DiagonalRule::Faces && config.fallback == Fallback::Fail,
        }
        None
    }

    /// [`Algorithm::Budget`]: the phase spent its expansions; restart with the next weight
    /// (after a [`Phase::Probe`], if [`size_up`](Self::size_up) asked for one).
    fn escalate(&mut self, world: &VoxelWorld) {
        self.carried = self.add(self.phase_stats());
        self.lower = self.lower.max(self.astar.lower_bound());
        let (weight, last) = Algorithm::next_budget_weight(self.weight);
        if last {
            self.phase_left = usize::MAX;
        } else if let Algorithm::Budget { phase_expansions, .. } = self.config.algorithm {
            self.phase_left = phase_expansions.max(1) as usize;
        }
        if std::mem::take(&mut self.flood_next) {
            self.weight = weight;
            self.phase = Phase::Probe;
            self.flood.begin(world, self.target, self.start, self.config.pass(), self.config.diagonal);
            return;
        }
        self.start_phase(world, weight);
    }

    /// Expands at most `budget` more nodes of the query; see
    /// [`Pathfinder::advance`](crate::Pathfinder::advance).
    pub(crate) fn advance(&mut self, world: &VoxelWorld, budget: usize) -> SearchStep {
        let mut left = budget;
        if !matches!(self.phase, Phase::Idle | Phase::Done | Phase::Refuted)
            && self.world != (world.dims(), world.revision())
        {
            self.phase = Phase::Done;
            return SearchStep::Failed(PathError::WorldChanged);
        }
        loop {
            match self.phase {
                Phase::Idle | Phase::Done | Phase::Refuted => {
                    return SearchStep::Failed(PathError::Unreachable { expanded: 0 });
                }
                Phase::Main | Phase::Closest => {
                    let (spent, out) = if self.racing {
                        self.race(world, left)
                    } else if self.jump {
                        let before = self.search.stats().expanded;
                        let out = self.search.advance(world, left.min(self.phase_left), &mut self.scans);
                        (self.search.stats().expanded - before, out)
                    } else if self.prelude && self.prelude_both {
                        self.prelude_race(world, left.min(self.phase_left))
                    } else if self.prelude {
                        let before = self.prelude_astar.stats().expanded;
                        let out = self.prelude_astar.advance(world, left.min(self.phase_left));
                        (self.prelude_astar.stats().expanded - before, out)
                    } else {
                        let before = self.astar.stats().expanded;
                        let until = self.size_up_at().map_or(usize::MAX, |at| at.saturating_sub(before));
                        let out = self.astar.advance(world, left.min(self.phase_left).min(until));
                        (self.astar.stats().expanded - before, out)
                    };
                    left = left.saturating_sub(spent);
                    self.phase_left = self.phase_left.saturating_sub(spent);
                    match out {
                        Ok(None) if self.size_up_at().is_some_and(|at| self.astar.stats().expanded >= at) => {
                            if let Some(end) = self.size_up(world) {
                                return end;
                            }
                        }
                        Ok(None) if self.phase_left == 0 && self.prelude => self.end_prelude(world),
                        Ok(None) if self.phase_left == 0 => self.escalate(world),
                        Ok(None) => return SearchStep::Pending,
                        Ok(Some(mut path)) => {
                            // The guide is not admissible: the weight does not bound a path
                            // that followed it, the proved lower bound does (rounded up).
                            let lower = u128::from(self.lower.max(1));
                            let proved = (u128::from(path.cost) * 100).div_ceil(lower).max(100);
                            if self.guided && proved > u128::from(Algorithm::LAST_BUDGET_WEIGHT) {
                                // Looser than the schedule's bound: search on, without the
                                // guide, at the last weight.
                                self.carried = self.add(self.phase_stats());
                                self.guided = false;
                                self.phase_left = usize::MAX;
                                self.start_phase(world, Algorithm::LAST_BUDGET_WEIGHT);
                                continue;
                            }
                            self.phase = Phase::Done;
                            path.stats = self.add(self.phase_stats());
                            if self.guided {
                                path.stats.weight = proved as u32;
                            }
                            return SearchStep::Found(path);
                        }
                        Err(PathError::Unreachable { .. })
                            if self.phase == Phase::Main && self.config.fallback == Fallback::Closest =>
                        {
                            self.carried = self.add(self.phase_stats());
                            self.phase = Phase::Flood;
                            let rule = self.config.diagonal;
                            self.flood.begin(world, self.start, self.goal, self.config.pass(), rule);
                        }
                        Err(e) => {
                            self.phase = Phase::Done;
                            let expanded = self.add(self.phase_stats()).expanded;
                            return SearchStep::Failed(match e {
                                PathError::Unreachable { .. } => PathError::Unreachable { expanded },
                                PathError::BudgetExhausted { .. } => PathError::BudgetExhausted { expanded },
                                e => e,
                            });
                        }
                    }
                }
                Phase::Probe => {
                    // One phase's voxels (only the budget mode escalates into a probe).
                    let phase = match self.config.algorithm {
                        Algorithm::Budget { phase_expansions, .. } => phase_expansions.max(1) as usize,
                        _ => 0,
                    };
                    let cap = self.config.max_expansions.unwrap_or(usize::MAX).saturating_sub(self.carried.expanded);
                    let before = self.flood.visited;
                    let out = self.flood.advance(world, left, cap.min(phase));
                    self.carried.expanded += self.flood.visited - before;
                    left = left.saturating_sub(self.flood.visited - before);
                    self.carried.peak_bytes = self.carried.peak_bytes.max(self.flood.seen.bytes_in_use());
                    match out {
                        Ok(None) => return SearchStep::Pending,
                        Ok(Some(nearest)) if nearest != self.start => {
                            self.phase = Phase::Refuted;
                            return SearchStep::Failed(PathError::Unreachable { expanded: self.carried.expanded });
                        }
                        // The start is in the goal's component, or the component is larger
                        // than a phase: the next phase.
                        Ok(Some(_)) | Err(()) => {
                            self.phase = Phase::Main;
                            self.start_phase(world, self.weight);
                        }
                    }
                }
                Phase::Flood => {
                    let max = self.config.max_expansions.unwrap_or(usize::MAX).saturating_sub(self.carried.expanded);
                    let before = self.flood.visited;
                    let out = self.flood.advance(world, left, max);
                    self.carried.expanded += self.flood.visited - before;
                    left = left.saturating_sub(self.flood.visited - before);
                    match out {
                        Ok(None) => return SearchStep::Pending,
                        Ok(Some(best)) => {
                            // The flood's visited set (its queue's length is not tracked).
                            self.carried.peak_bytes = self.carried.peak_bytes.max(self.flood.seen.bytes_in_use());
                            self.phase = Phase::Closest;
                            self.config.fallback = Fallback::Fail;
                            self.begin_search(world, best);
                        }
                        Err(()) => {
                            self.phase = Phase::Done;
                            let expanded = self.carried.expanded;
                            return SearchStep::Failed(PathError::BudgetExhausted { expanded });
                        }
                    }
                }
            }
        }
    }

    fn add(&self, s: SearchStats) -> SearchStats {
        SearchStats {
            expanded: self.carried.expanded + s.expanded,
            generated: self.carried.generated + s.generated,
            peak_open: self.carried.peak_open.max(s.peak_open),
            weight: self.weight,
            swept: self.carried.swept + s.swept,
            peak_bytes: self.carried.peak_bytes.max(s.peak_bytes),
        }
    }

    /// Statistics of the current (or last) query.
    pub(crate) fn stats(&self) -> SearchStats {
        match self.phase {
            Phase::Idle => SearchStats::default(),
            Phase::Flood | Phase::Probe | Phase::Refuted => self.carried,
            _ => self.add(self.phase_stats()),
        }
    }

    /// Chunks whose scan events the jump point searches of the current (or last) search
    /// phase built.
    pub(crate) fn chunks_scanned(&self) -> usize {
        if !self.jump {
            return 0;
        }
        self.search.chunks_scanned() + if self.racing { self.reverse.chunks_scanned() } else { 0 }
    }

    /// Bytes of heap held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.astar.heap_bytes()
            + self.prelude_astar.heap_bytes()
            + self.prelude_reverse.heap_bytes()
            + self.search.heap_bytes()
            + self.reverse.heap_bytes()
            + self.scans.heap_bytes()
            + self.flood.heap_bytes()
    }
}

/// The statistics of a race's two sides together: counts and memory added (both are held at
/// once), the first side's weight.
fn side_by_side(s: SearchStats, r: SearchStats) -> SearchStats {
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
fn reversible(config: &SearchConfig, world: &VoxelWorld) -> bool {
    config.diagonal != DiagonalRule::Faces && !config.priced_media(world) && config.heuristic != Heuristic::Manhattan
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Voxel;
    use crate::grid::moves::{OFFSETS, legal_moves};

    /// Races that begin at once and switch sides every few voxels, on small random worlds
    /// (where the usual lead would end most queries before any race): the path must be legal
    /// from start to goal and as short as plain A*'s, whichever side found it.
    #[test]
    fn races_find_legal_optimal_paths_from_either_end() {
        let mut rng = crate::grid::seeded::Rng(0x2ACE_5EED);
        let (mut race, mut astar) = (Dispatch::default(), <AStar>::default());
        let (mut compared, mut reversed, mut budgeted, mut handed_over) = (0, 0, 0, 0);
        let mut prelude_reversed = 0;
        for world_index in 0..400 {
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

    /// A goal in a cup whose open side faces away from the start: searched from the start,
    /// every voxel in front of the cup has `f` below the optimum; from the goal, only the cup.
    /// The race must spend its turns on the side that ends first, from either end (with equal
    /// turns it did about twice that side's work).
    #[test]
    fn the_race_runs_the_side_that_ends_first() {
        let n = 56;
        let mut world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::splat(n)).unwrap();
        // The cup: walls round x, y, z in 20..36, open towards +x.
        for a in 20..36 {
            for b in 20..36 {
                for v in [IVec3::new(20, a, b), IVec3::new(a, 20, b), IVec3::new(a, 35, b), IVec3::new(a, b, 20)] {
                    world.set(v, Voxel::Solid).unwrap();
                }
                world.set(IVec3::new(a, b, 35), Voxel::Solid).unwrap();
            }
        }
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
