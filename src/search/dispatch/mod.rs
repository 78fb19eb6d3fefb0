//! Runs a [`Pathfinder`](crate::Pathfinder)'s queries, in phases, on its two engines: the A*
//! of [`astar`](super::astar) (exact, weighted, and the budget mode's phases of rising weight)
//! and the jump point search of [`jps`](super::jps); and, for any algorithm, the
//! closest-reachable-voxel fallback (a search, then a flood of the start's component, then a
//! search to the closest voxel).
//!
//! Exact jump point search begins with a *prelude*, at most [`PRELUDE`] expansions of A* with
//! canonical successors (from both ends where it can), which answers most small queries, and
//! otherwise races two jump point searches, one from each end: [`race`] runs both races and
//! says why. The budget mode begins with the same prelude where jump point search could
//! jump, then runs its weighted phases.

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
use crate::search::memory::{PRELUDE_TABLE_BYTES, jps_tables_fit};
use crate::search::path::{Path, SearchStats, SearchStep};
use crate::search::radix_heap::VecBuckets;

mod race;
mod sight;

use race::{LEAD, OTHER_END_FIRST, PRELUDE_TURN, TURN, reversible, side_by_side};
use sight::Line;

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
    /// Finished with its statistics all carried, by the [`Probe`](Phase::Probe) or by the
    /// octile path's walk ([`Dispatch::walking`]): as `Done`.
    Carried,
}

/// Expansions of the A* with canonical successors (the pruning rule of jump point search
/// without the jumps, [`AStar::begin`]) that an exact jump point search runs first: the
/// *prelude*. Small queries end within it, without paying the jump search's set-up (the scan
/// events of the chunks it reads, microseconds each, and its two node tables); the others hand
/// over to the race of jump point searches, which starts afresh (its first turn:
/// [`OTHER_END_FIRST`]). All are exact. The budget mode's first phase begins with it too,
/// where jump point search could jump ([`Dispatch::begin_engines`]): an exact answer is
/// within any weight, and its pruned expansions cost less than the weighted A*'s.
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

/// Expansions into the budget mode's query, its [`PRELUDE`] and first phase together (or the
/// whole phase, if shorter), after which a query that has not reached its goal is sized up
/// on the coarse graph (see [`Dispatch::size_up`]). Most queries end before it (the median
/// Warframe query expands a few hundred voxels); one misled by a wall loses no more than these
/// before it follows the guide.
const SIZE_UP: usize = 4096;

/// Node pages of the [`PRELUDE`]'s A*: cubes of `2^PRELUDE_PAGE_SHIFT` voxels a side (4^3, 576
/// bytes of records). A search of at most [`PRELUDE`] expansions touches few voxels of each
/// 16^3 chunk it enters (a chunk page is 36 KB), and its canonical successors lead it into
/// chunks where plain A* (which tries all 26 moves) does not go; smaller pages follow what it
/// touches, so that on a small query its two sides together hold less than A*'s one chunk
/// page. Chosen on the tuning half of the Warframe maps between 8^3 and 4^3, whose pages held a
/// third less at the median query in about the same time (docs/benchmarks.md).
const PRELUDE_PAGE_SHIFT: i32 = 2;

/// The search state a [`Pathfinder`](crate::Pathfinder) carries.
#[derive(Debug, Default, Clone)]
pub(crate) struct Dispatch {
    phase: Phase,
    /// The A* engine, for every phase that does not jump except the [`PRELUDE`].
    astar: AStar,
    /// The A* engine of the [`PRELUDE`], on its own small pages.
    prelude_astar: AStar<PRELUDE_PAGE_SHIFT, VecBuckets, Vec<u64>, Vec<u8>>,
    /// The [`PRELUDE`]'s A* from the goal back to the start, when it runs from both ends.
    prelude_reverse: AStar<PRELUDE_PAGE_SHIFT, VecBuckets, Vec<u64>, Vec<u8>>,
    /// The [`PRELUDE`] runs from both ends (`prelude_reverse` too).
    prelude_both: bool,
    /// The current phase runs jump point search (`search`, and `reverse` when racing).
    jump: bool,
    /// The query is a repair's detour: A* with canonical successors.
    canonical: bool,
    /// The query's jump point search ran out of the search limit: its phases run plain A*,
    /// which answers within the limit whatever [`Algorithm::AStar`] answers (see
    /// [`advance`](Self::advance)).
    plain: bool,
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
    /// What follows the [`PRELUDE`] if it ends without an answer: jump point search (`true`)
    /// or the budget mode's first weighted phase.
    prelude_jumps: bool,
    /// [`Algorithm::Budget`]: the query's first search phase is still to begin, and may run
    /// the [`PRELUDE`] (see [`begin_engines`](Self::begin_engines)).
    budget_prelude: bool,
    /// The expansions the phase after the [`PRELUDE`] may spend before it escalates.
    after_prelude_left: usize,
    /// The expansions the budget mode's [`PRELUDE`] spent in the current query.
    prelude_spent: usize,
    /// [`PRELUDE_TURN`], replaced by tests.
    prelude_turn: Option<u64>,
    /// The end of the query an obstacle on the straight line lies clearly nearer (`true`:
    /// the goal; [`sight::read_line`]), where searches run from both ends: the search from
    /// it runs alone in the [`PRELUDE`], and takes the race's first whole turn, after the
    /// other end's short one ([`OTHER_END_FIRST`]).
    nearer_end: Option<bool>,
    /// Where the straight line between a query's ends is clear, the octile path between them
    /// is walked first, from the start ([`sight::walk_octile`]; every algorithm but
    /// [`Algorithm::AStar`], the plain reference): the walk is under way, its voxels so far in
    /// `walked`. The search begins if a step is not legal.
    walking: bool,
    /// The query's line was read for a walk (escalations and restarts do not walk again).
    line_read: bool,
    /// The walk's voxels, the start first.
    walked: Vec<IVec3>,
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
    /// `carried` when the search toward the current target began (before a jump point
    /// search's prelude added its own).
    carried_at_target: SearchStats,
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
        // Where jump point search's tables do not fit the limit, plain A* answers from the
        // start, as where the jump point search runs out of room.
        self.plain = config.algorithm == Algorithm::Jps && !jps_tables_fit(world);
        self.line_read = false;
        self.start = start;
        self.goal = goal;
        self.config = *config;
        self.carried = SearchStats::default();
        self.sized_up = false;
        self.flood_next = false;
        self.budget_prelude = matches!(config.algorithm, Algorithm::Budget { .. });
        self.prelude_spent = 0;
        self.phase = Phase::Main;
        self.world = (world.dims(), world.revision());
        self.begin_search(world, goal);
    }

    /// Hands every engine that prunes with canonical successors (the prelude's two A*s, the
    /// A* of repairs' detours, the two jump point searches) the tables of `config`'s diagonal
    /// rule and cost model, building them if the process has not yet.
    pub(crate) fn prepare(&mut self, config: &SearchConfig) {
        self.astar.take_tables(config);
        self.prelude_astar.take_tables(config);
        self.prelude_reverse.take_tables(config);
        self.search.take_tables(config);
        self.reverse.take_tables(config);
    }

    /// Sets the [`PRELUDE`]'s expansions (`None`: [`PRELUDE`]).
    pub(crate) fn set_prelude(&mut self, expansions: Option<usize>) {
        self.prelude_expansions = expansions;
    }

    /// Whether every engine of [`prepare`](Self::prepare) holds `config`'s tables.
    #[cfg(test)]
    pub(crate) fn holds_tables(&self, config: &SearchConfig) -> bool {
        self.astar.holds_tables(config)
            && self.prelude_astar.holds_tables(config)
            && self.prelude_reverse.holds_tables(config)
            && self.search.holds_tables(config)
            && self.reverse.holds_tables(config)
    }

    /// Ends the current query (if any): `advance` reports `Unreachable` until the next
    /// `begin`; the statistics stay.
    pub(crate) fn stop(&mut self) {
        if std::mem::take(&mut self.walking) {
            self.carried.swept += self.walked.len() - 1;
            self.phase = Phase::Carried;
            return;
        }
        if !matches!(self.phase, Phase::Idle | Phase::Carried) {
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
        self.carried_at_target = self.carried;
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
        let jump = self.jumps(world);
        // The end an obstacle on the straight line lies clearly nearer ([`sight`]), for the
        // searches from both ends: the prelude's and the race's.
        let sides =
            (jump || self.budget_prelude(world)) && self.phase == Phase::Main && reversible(&self.config, world);
        // A clear line is walked first, once a query, in every mode but plain A* (the
        // reference), and not for a repair's detour (which wants the canonical search's path).
        let walk = self.phase == Phase::Main
            && !self.line_read
            && !self.canonical
            && self.config.algorithm != Algorithm::AStar;
        self.line_read |= walk;
        let line = if sides || walk {
            sight::read_line(world, self.config.pass(), self.start, self.target)
        } else {
            Line::Blocked(None)
        };
        self.nearer_end = match line {
            Line::Blocked(end) if sides => end,
            _ => None,
        };
        self.walking = walk && line == Line::Clear;
        if self.walking {
            self.walked.clear();
            self.walked.push(self.start);
        } else {
            self.begin_engines(world, jump);
        }
    }

    /// Whether the current phase runs jump point search (an exact one, with costs and media
    /// it can jump with, that has not fallen back to plain A*). Weighted A*: measured faster
    /// than weighted jump point search on the benchmark.
    fn jumps(&self, world: &VoxelWorld) -> bool {
        self.config.algorithm == Algorithm::Jps
            && !self.plain
            && self.weight == 100
            && self.config.costs.jump_exact()
            && !self.config.priced_media(world)
    }

    /// Whether the budget mode's first phase may begin with the [`PRELUDE`]: costs and media
    /// that canonical successors search exactly, not a repair's detour, and room in the search
    /// limit for the prelude's two page tables beside the weighted A*'s (4 and 8 bytes per
    /// chunk of the world; [`search_table_bytes`](crate::search::memory::search_table_bytes)
    /// counts only the A*'s).
    fn budget_prelude(&self, world: &VoxelWorld) -> bool {
        self.budget_prelude
            && self.phase == Phase::Main
            && !self.canonical
            && !self.plain
            && self.config.costs.jump_exact()
            && !self.config.priced_media(world)
            && world.chunk_count().saturating_mul(PRELUDE_TABLE_BYTES + 8) <= world.limits().max_search_bytes
    }

    /// Begins the current phase's engines: the [`PRELUDE`] if `jump` (an exact jump point
    /// search) or if this is the budget mode's first phase (an exact answer to a small query
    /// is within any weight, and the prelude's pruned expansions are cheaper than the
    /// weighted A*'s), else [`start_search`](Self::start_search)'s.
    fn begin_engines(&mut self, world: &VoxelWorld, jump: bool) {
        let prelude = self.prelude_expansions.unwrap_or(PRELUDE);
        let budget = self.budget_prelude(world);
        self.budget_prelude = false;
        if (jump || budget) && prelude > 0 {
            self.jump = false;
            self.racing = false;
            self.prelude = true;
            self.prelude_jumps = jump;
            self.after_prelude_left = self.phase_left;
            self.phase_left = prelude;
            let left = self.config.max_expansions.map(|m| m.saturating_sub(self.carried.expanded));
            let config = SearchConfig { max_expansions: left, ..self.config };
            self.prelude_both = self.phase == Phase::Main && reversible(&config, world);
            if self.prelude_both {
                // Both sides' expansions count against the query's budget (see `race`).
                let config = SearchConfig { max_expansions: None, ..config };
                // A side that will not take a turn is not begun.
                if self.nearer_end == Some(true) {
                    self.prelude_astar.idle(world);
                } else {
                    self.prelude_astar.begin(world, self.start, self.target, &config, 100, true);
                }
                if self.nearer_end == Some(false) {
                    self.prelude_reverse.idle(world);
                } else {
                    self.prelude_reverse.begin(world, self.target, self.start, &config, 100, true);
                }
                // Two sides that both run share the search limit, as the race's do.
                if self.nearer_end.is_none() {
                    self.prelude_astar.share_limit(2);
                    self.prelude_reverse.share_limit(2);
                }
                // Where an obstacle on the straight line lies clearly nearer one end, the
                // search from that end runs alone. Otherwise the search from the goal takes
                // the first turn, as in the race ([`LEAD`]): on a tie of levels after it the
                // turns alternate, and a start whose side is misled for its first few dozen
                // expansions (its level rising slowly) does not take the whole prelude
                // (docs/benchmarks.md).
                self.turn = (self.nearer_end.unwrap_or(true), self.prelude_turn.unwrap_or(PRELUDE_TURN));
            } else {
                self.prelude_astar.begin(world, self.start, self.target, &config, 100, true);
            }
        } else {
            self.jump = jump;
            self.start_search(world, false);
        }
    }

    /// Starts the search of the current phase on its engine: jump point search (racing from
    /// both ends where it can) if `self.jump`, else A*; `after_prelude`: the [`PRELUDE`]
    /// ran first and did not answer.
    fn start_search(&mut self, world: &VoxelWorld, after_prelude: bool) {
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
            // After the prelude, a short turn for the side it searched less from (the other
            // end of a lone side); without one, the side from the end nearer the line's
            // obstacle first, if one is, else the search from the goal.
            let (lead, turn) = self.race_turns.unwrap_or((LEAD, TURN));
            self.turn = if after_prelude {
                let (from_start, from_goal) =
                    (self.prelude_astar.stats().expanded, self.prelude_reverse.stats().expanded);
                (from_goal < from_start, OTHER_END_FIRST)
            } else if lead == 0 {
                (self.nearer_end.unwrap_or(true), turn)
            } else {
                (false, lead)
            };
        } else if self.jump {
            self.search.begin(world, self.start, self.target, &config, &mut self.scans);
        } else {
            // Jump point search where it cannot jump (media with prices): A* with its pruning
            // rule, where that holds ([`AStar::begin`]).
            let canonical = self.canonical
                || (self.config.algorithm == Algorithm::Jps && !self.plain && self.config.costs.jump_exact());
            self.astar.begin(world, self.start, self.target, &config, self.weight, canonical);
            if self.guided {
                self.astar.follow_guide();
            }
        }
    }

    /// The [`PRELUDE`] spent its expansions without an answer: the jump point search (or the
    /// budget mode's weighted A*) takes over, from scratch.
    fn end_prelude(&mut self, world: &VoxelWorld) {
        if !self.prelude_jumps {
            self.prelude_spent = self.phase_stats().expanded;
        }
        self.carried = self.add(self.phase_stats());
        self.phase_left = self.after_prelude_left;
        self.jump = self.prelude_jumps;
        self.start_search(world, true);
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

    /// The expansions of the budget mode's first phase after which the query is sized up
    /// ([`size_up`](Self::size_up)), if that is still to come (not in the [`PRELUDE`]).
    fn size_up_at(&self) -> Option<usize> {
        match self.config.algorithm {
            Algorithm::Budget { phase_expansions, .. }
                if !self.sized_up && !self.prelude && self.phase == Phase::Main =>
            {
                Some((phase_expansions.max(1) as usize).min(SIZE_UP.saturating_sub(self.prelude_spent).max(1)))
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
                self.phase = Phase::Carried;
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
        if !matches!(self.phase, Phase::Idle | Phase::Done | Phase::Carried)
            && self.world != (world.dims(), world.revision())
        {
            self.phase = Phase::Done;
            return SearchStep::Failed(PathError::WorldChanged);
        }
        loop {
            match self.phase {
                Phase::Idle | Phase::Done | Phase::Carried => {
                    return SearchStep::Failed(PathError::Unreachable { expanded: 0 });
                }
                Phase::Main if self.walking => {
                    if let Some(step) = self.walk_octile(world, &mut left) {
                        return step;
                    }
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
                            if self.prelude {
                                // The prelude's answers are exact, the budget mode's too.
                                path.stats.weight = 100;
                            }
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
                        // Jump point search asks room for its largest expansion (a sweep
                        // into new pages, within half the limit for each side of a race),
                        // and its pruning leads it where A* does not go: where it runs out,
                        // plain A* searches from scratch, within the whole limit and the
                        // whole expansion budget, and answers as `Algorithm::AStar` does,
                        // statistics too. (The attempt's work is not counted: how far it got
                        // depends on the scan events earlier queries left in the shared
                        // cache, and the answer should not.)
                        Err(PathError::MemoryLimit { .. })
                            if self.config.algorithm == Algorithm::Jps && !self.plain && !self.canonical =>
                        {
                            self.carried = self.carried_at_target;
                            self.plain = true;
                            // What the attempt held is given back first, the scan events it
                            // read too (kept across queries, they would sit beside the A*'s
                            // whole limit).
                            self.search.release();
                            self.reverse.release();
                            self.prelude_astar.release();
                            self.prelude_reverse.release();
                            self.scans = ScanCache::default();
                            self.phase_left = usize::MAX;
                            self.start_phase(world, 100);
                        }
                        // The budget mode's prelude ran out of its room (its two sides share
                        // the limit): the weighted phase takes over, with the whole limit.
                        Err(PathError::MemoryLimit { .. }) if self.prelude && !self.prelude_jumps => {
                            self.end_prelude(world);
                            self.prelude_astar.release();
                            self.prelude_reverse.release();
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
                            self.phase = Phase::Carried;
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

    /// Walks on the octile path between the ends (see [`walking`](Self::walking)), one voxel of the
    /// budget `left` a step: the path once it reaches the goal, `Pending` if the budget ran
    /// out, and `None` (the search begun) where a step is not legal.
    fn walk_octile(&mut self, world: &VoxelWorld, left: &mut usize) -> Option<SearchStep> {
        let before = self.walked.len();
        let rules = (self.config.pass(), self.config.diagonal);
        // With prices, only voxels at the base price (weight 100): the octile distance, a
        // bound on every path's cost (weights are at least 100), is then the walk's cost.
        let (media, priced) = (self.config.media, self.config.priced_media(world));
        let base = |v: IVec3| !priced || media.weight(world.get(v)) == Some(100);
        let to = (self.target, base);
        let walked = sight::walk_octile(world, rules, to, &mut self.walked, *left);
        *left -= self.walked.len() - before;
        let steps = self.walked.len() - 1;
        match walked {
            Some(true) => {
                self.walking = false;
                self.phase = Phase::Carried;
                let cost = Heuristic::Octile.estimate(self.target - self.start, &self.config.costs);
                let stats = SearchStats { weight: 100, swept: steps, ..SearchStats::default() };
                let path = Path::new(world, &self.walked, cost, stats);
                debug_assert_eq!(
                    path.voxels
                        .windows(2)
                        .map(|w| self.config.costs.cost((w[1] - w[0]).abs().element_sum() as usize))
                        .sum::<u64>(),
                    cost
                );
                self.carried = stats;
                Some(SearchStep::Found(path))
            }
            Some(false) => Some(SearchStep::Pending),
            None => {
                self.walking = false;
                self.carried.swept += steps;
                let jump = self.jumps(world);
                self.begin_engines(world, jump);
                None
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
            Phase::Flood | Phase::Probe | Phase::Carried => self.carried,
            Phase::Main if self.walking => {
                SearchStats { swept: self.carried.swept + self.walked.len() - 1, ..self.carried }
            }
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

    /// After a query: where its engines together hold more than `limit` (each keeps its tables
    /// for the next queries, within the limit alone), those its last phase did not run give
    /// back all they hold, and those it ran the room they do not use. What the query reports
    /// ([`stats`](Self::stats)) comes from the phases carried and the engines of the last one,
    /// so it does not change; nor does any later answer.
    pub(crate) fn keep_within(&mut self, limit: usize) {
        if self.heap_bytes() <= limit {
            return;
        }
        if !self.prelude {
            self.prelude_astar.release();
            self.prelude_reverse.release();
        }
        if self.prelude || self.jump {
            self.astar.release();
        }
        if self.prelude || !self.jump {
            self.search.release();
            self.reverse.release();
            self.scans = ScanCache::default();
        }
        self.flood = Flood::default();
        if self.heap_bytes() > limit {
            self.astar.give_back();
            self.prelude_astar.give_back();
            self.prelude_reverse.give_back();
            self.search.give_back();
            self.reverse.give_back();
        }
        if self.heap_bytes() > limit {
            self.astar.forget_regions();
        }
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
