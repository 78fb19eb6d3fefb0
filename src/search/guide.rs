//! [`Guide`]: an estimate of the cost to the goal that knows where the openings are, for the
//! budget mode once it has sized a query up (see `Dispatch::size_up` in `dispatch/mod.rs`).
//!
//! The octile estimate sees through walls: toward a goal behind a wall with a few small
//! windows, a weighted search fills everything in front of the wall whose estimate is below a
//! window's before it turns. The guide searches the coarse graph of [`Regions`] (pieces of
//! 8^3 blocks, linked where a move joins them) backward from the goal, lazily: an A* toward
//! the start's piece, its estimate weighted by 1.5 (paths through centres zigzag, and an exact
//! coarse search would settle most pieces nearer the goal than the start is), that resumes
//! whenever a piece it has not reached yet is asked for (after "reverse resumable A*", Silver
//! 2005), for at most [`PIECES`] pieces a query. A piece's distance is the cost from its centre
//! along centres of linked pieces to the goal's piece or a piece linked to it, and from that
//! piece's centre straight to the goal (final once the piece is settled, an upper bound while
//! it is open). A voxel's estimate is the least, over its own piece and the pieces linked to
//! it, of the octile cost to the piece's centre plus the piece's distance (or the octile cost
//! to the goal itself, from the goal's piece and its neighbours).
//!
//! The guide is not admissible (paths through centres are not shortest), so a search that
//! follows it is not bounded by its weight: the budget mode bounds such a path by a lower
//! bound its unguided phases proved instead. Where the guide knows nothing (a piece it cannot
//! reach, or past its cap or its memory share) it gives no estimate.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::IVec3;

use crate::grid::moves::DiagonalRule;
use crate::grid::pass::Pass;
use crate::grid::regions::Regions;
use crate::grid::world::VoxelWorld;
use crate::search::config::CostModel;
use crate::search::heuristic::Heuristic;

/// Most pieces the coarse search of one query settles: past it the guide knows no more. (The
/// first query on a world labels the blocks it reaches: a few milliseconds on the Warframe
/// maps, docs/benchmarks.md.)
const PIECES: usize = 8192;

/// What the coarse search found between the goal's piece and the start's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reach {
    /// It reached the start's piece: a path joins start and goal.
    Start,
    /// It settled every piece linked to the goal's without reaching the start's: no path of
    /// face moves joins them (under [`DiagonalRule::Strict`], no path at all).
    Dry,
    /// It stopped at its cap, or a piece was past the memory share.
    Unknown,
}

/// Per piece, for the current query: stamps (the query they belong to) and values.
#[derive(Debug, Default, Clone, Copy)]
struct Entry {
    /// Query stamp when `dist` was set (open or settled).
    reached: u32,
    /// Query stamp when `dist` became final.
    settled: u32,
    dist: u64,
    /// Query stamp when `cands` was filled.
    listed: u32,
    /// Range of the piece's candidates in [`Guide::candidates`].
    cands: (u32, u32),
}

/// The coarse search and its per-piece estimates for one query; the [`Regions`] it reads are
/// kept across queries. See the module's docs.
#[derive(Debug, Default, Clone)]
pub(crate) struct Guide {
    regions: Regions,
    entries: Vec<Entry>,
    /// Candidate targets of the pieces listed so far: a centre (or the goal) and its cost to
    /// the goal.
    candidates: Vec<(IVec3, u64)>,
    /// The coarse search's open list: `(f, u64::MAX - g, order, piece)`. Of equal `f`, the
    /// piece farthest from the goal first (toward the start, not around the goal), then by
    /// [`Regions::order`] (not by piece id, which depends on what earlier queries labelled).
    open: BinaryHeap<Reverse<(u64, u64, u64, u32)>>,
    stamp: u32,
    goal: IVec3,
    /// Where the coarse search heads: the start's piece's centre.
    toward: IVec3,
    goal_piece: Option<u32>,
    costs: CostModel,
    /// The start's piece.
    start_piece: Option<u32>,
    /// Pieces settled and reached by this query's coarse search, and its open list's
    /// largest length.
    settled: usize,
    reached: usize,
    open_most: usize,
    /// A piece this query settled had no links for want of memory (a dead end to the coarse
    /// search, which so cannot tell that it ran dry).
    short: bool,
    /// Links being relaxed (reused).
    scratch: Vec<u32>,
}

impl Guide {
    /// Begins guiding a search from `start` to `goal` over `world` seen through `pass` and
    /// `rule`.
    pub(crate) fn begin(
        &mut self,
        world: &VoxelWorld,
        start: IVec3,
        goal: IVec3,
        pass: Pass,
        rule: DiagonalRule,
        costs: CostModel,
    ) {
        self.regions.prepare(world, pass, rule);
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.entries.iter_mut().for_each(|e| *e = Entry::default());
            self.stamp = 1;
        }
        self.candidates.clear();
        self.open.clear();
        self.settled = 0;
        self.reached = 0;
        self.open_most = 0;
        self.short = false;
        self.goal = goal;
        self.costs = costs;
        self.start_piece = self.regions.piece(world, start);
        self.toward = self.start_piece.map_or(start, |p| self.regions.centre(p));
        self.goal_piece = self.regions.piece(world, goal);
        // The goal's piece and the pieces linked to it head for the goal itself.
        if let Some(g) = self.goal_piece {
            let near = self.regions.links(world, g).map(<[u32]>::to_vec).unwrap_or_default();
            for p in std::iter::once(g).chain(near) {
                let d = self.octile(self.regions.centre(p) - goal);
                self.reach(p, d);
            }
        }
    }

    /// The guide's estimate of the cost from `v` to the goal: `None` where it knows nothing.
    pub(crate) fn estimate(&mut self, world: &VoxelWorld, v: IVec3) -> Option<u64> {
        let p = self.regions.piece(world, v)?;
        let (from, to) = self.listed(world, p)?;
        let mut best = u64::MAX;
        for &(c, d) in &self.candidates[from as usize..to as usize] {
            best = best.min(self.octile(v - c).saturating_add(d));
        }
        (best != u64::MAX).then_some(best)
    }

    /// Gives back its regions (a cache of the world's coarse graph, labelled again as a later
    /// query asks); what the current query's coarse search found is kept.
    pub(crate) fn forget_regions(&mut self) {
        self.regions = Regions::default();
    }

    /// Bytes the guide holds, its regions with them.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.regions.heap_bytes()
            + self.entries.capacity() * std::mem::size_of::<Entry>()
            + self.candidates.capacity() * 16
            + self.open.capacity() * 32
            + self.scratch.capacity() * 4
    }

    /// Bytes the current query's coarse search uses: an entry per piece it reached, its
    /// candidates and its open list (at its largest). The regions are a cache kept across
    /// queries, as the jump point search's scan events are, and not counted here.
    pub(crate) fn bytes_in_use(&self) -> usize {
        self.reached * std::mem::size_of::<Entry>() + self.candidates.len() * 16 + self.open_most * 32
    }

    fn octile(&self, d: IVec3) -> u64 {
        Heuristic::Octile.estimate(d, &self.costs)
    }

    fn entry(&mut self, p: u32) -> &mut Entry {
        let i = p as usize;
        if i >= self.entries.len() {
            self.entries.resize(self.regions.len().max(i + 1), Entry::default());
        }
        &mut self.entries[i]
    }

    /// Piece `p` reached at cost `d`: opened, or its cost lowered.
    fn reach(&mut self, p: u32, d: u64) {
        let stamp = self.stamp;
        let e = self.entry(p);
        if e.settled == stamp || (e.reached == stamp && e.dist <= d) {
            return;
        }
        let e_was_new = e.reached != stamp;
        e.reached = stamp;
        e.dist = d;
        // Weighted toward the start: paths through centres zigzag, and an exact coarse search
        // would settle most pieces nearer the goal than the start is.
        let f = d.saturating_add(self.octile(self.regions.centre(p) - self.toward) * 3 / 2);
        if e_was_new {
            self.reached += 1;
        }
        self.open.push(Reverse((f, u64::MAX - d, self.regions.order(p), p)));
        self.open_most = self.open_most.max(self.open.len());
    }

    /// The cost of piece `p` to the goal, as far as the coarse search knows it: resumed until
    /// `p` is reached (its cost then final, or an upper bound while it is open); `None` if it
    /// never is (not linked to the goal's piece, or past [`PIECES`]).
    fn distance(&mut self, world: &VoxelWorld, p: u32) -> Option<u64> {
        loop {
            let e = *self.entry(p);
            if e.reached == self.stamp {
                return Some(e.dist);
            }
            if !self.settle_next(world)? {
                return None;
            }
        }
    }

    /// Settles the next piece of the coarse search: `Some(true)` if it did, `Some(false)` if
    /// the search ran dry (every piece linked to the goal's is settled), `None` at the cap.
    fn settle_next(&mut self, world: &VoxelWorld) -> Option<bool> {
        let stamp = self.stamp;
        loop {
            if self.settled >= PIECES {
                return None;
            }
            let Some(Reverse((_, far, _, u))) = self.open.pop() else { return Some(false) };
            let d = u64::MAX - far;
            let e = self.entry(u);
            if e.settled == stamp || e.dist != d {
                continue;
            }
            e.settled = stamp;
            self.settled += 1;
            // Past the memory share a piece has no links: it is settled, a dead end, and the
            // search can no longer tell that it ran dry.
            let Some(links) = self.regions.links(world, u) else {
                self.short = true;
                return Some(true);
            };
            self.scratch.clear();
            self.scratch.extend_from_slice(links);
            let centre = self.regions.centre(u);
            for k in 0..self.scratch.len() {
                let w = self.scratch[k];
                let step = self.octile(self.regions.centre(w) - centre);
                self.reach(w, d.saturating_add(step));
            }
            return Some(true);
        }
    }

    /// Runs the coarse search until it reaches the start's piece: what it found.
    pub(crate) fn reach_start(&mut self, world: &VoxelWorld) -> Reach {
        let Some(start) = self.start_piece else { return Reach::Unknown };
        match self.distance(world, start) {
            Some(_) => Reach::Start,
            None if self.settled < PIECES && self.goal_piece.is_some() && !self.short => Reach::Dry,
            None => Reach::Unknown,
        }
    }

    /// The range of piece `p`'s candidates, listing them first if they were not.
    fn listed(&mut self, world: &VoxelWorld, p: u32) -> Option<(u32, u32)> {
        let stamp = self.stamp;
        let e = *self.entry(p);
        if e.listed == stamp {
            return Some(e.cands);
        }
        let from = self.candidates.len() as u32;
        let links = self.regions.links(world, p).map(<[u32]>::to_vec).unwrap_or_default();
        let mut near_goal = self.goal_piece == Some(p);
        for q in std::iter::once(p).chain(links) {
            near_goal |= self.goal_piece == Some(q);
            if let Some(d) = self.distance(world, q) {
                let centre = self.regions.centre(q);
                self.candidates.push((centre, d));
            }
        }
        if near_goal {
            self.candidates.push((self.goal, 0));
        }
        let cands = (from, self.candidates.len() as u32);
        let e = self.entry(p);
        e.listed = stamp;
        e.cands = cands;
        (cands.0 < cands.1).then_some(cands)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::medium::{Media, Voxel};
    use glam::{UVec3, Vec3};

    /// Behind a wall with one window near a corner, the guide's estimate from in front of the
    /// wall's middle counts the way round through the window (within -20 % and +50 % of it,
    /// far above the octile cost through the wall), and near the window it falls.
    #[test]
    fn the_estimate_goes_round_through_the_window() {
        let n = 64;
        let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(n as u32)).unwrap();
        world.fill_voxels(IVec3::new(32, 0, 0), IVec3::new(32, n - 1, n - 1), Voxel::Solid).unwrap();
        world.fill_voxels(IVec3::new(32, 2, 2), IVec3::new(32, 3, 3), Voxel::Air).unwrap();
        let (start, goal) = (IVec3::new(16, 32, 32), IVec3::new(48, 32, 32));
        let mut guide = Guide::default();
        let costs = CostModel::GAME;
        guide.begin(&world, start, goal, Pass::new(&Media::ANY), DiagonalRule::Strict, costs);
        let through_wall = Heuristic::Octile.estimate(goal - start, &costs);
        // The shortest way: to the window and on to the goal (a lower bound of it).
        let round = Heuristic::Octile.estimate(IVec3::new(32, 2, 2) - start, &costs)
            + Heuristic::Octile.estimate(goal - IVec3::new(32, 2, 2), &costs);
        let at_start = guide.estimate(&world, start).unwrap();
        let near_round = at_start >= round * 4 / 5 && at_start <= round * 3 / 2;
        assert!(near_round && at_start > 2 * through_wall, "{at_start} vs {round} (octile {through_wall})");
        let by_window = guide.estimate(&world, IVec3::new(30, 3, 3)).unwrap();
        assert!(by_window < at_start * 2 / 3, "{by_window} vs {at_start}");
        assert_eq!(guide.estimate(&world, goal), Some(0));
        assert_eq!(guide.estimate(&world, IVec3::new(32, 20, 20)), None, "in the wall");
        // A sealed pocket: no estimate.
        world.fill_voxels(IVec3::new(0, 40, 0), IVec3::new(8, 40, 8), Voxel::Solid).unwrap();
        world.fill_voxels(IVec3::new(8, 32, 0), IVec3::new(8, 40, 8), Voxel::Solid).unwrap();
        world.fill_voxels(IVec3::new(0, 32, 8), IVec3::new(8, 40, 8), Voxel::Solid).unwrap();
        world.fill_voxels(IVec3::new(0, 32, 0), IVec3::new(8, 32, 8), Voxel::Solid).unwrap();
        guide.begin(&world, start, goal, Pass::new(&Media::ANY), DiagonalRule::Strict, costs);
        assert_eq!(guide.estimate(&world, IVec3::new(0, 35, 0)), None);
        assert!(guide.estimate(&world, start).is_some());
    }
}
