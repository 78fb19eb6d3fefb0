//! [`GoalField`]: one backward exact search from a goal that serves every agent heading there.

use glam::{IVec3, UVec3};
use thiserror::Error;

use crate::grid::moves::{MOVES, OFFSETS, axes, legal_moves};
use crate::grid::pass::Pass;
use crate::grid::world::VoxelWorld;
use crate::search::canonical::{Canon, START};
use crate::search::nodes::{CLOSED, NO_PARENT, NodeStore, OPEN, PARENT_MASK, interior};
use crate::search::path::{Path, SearchStats, voxel_length};
use crate::search::radix_heap::{RadixHeap, VecBuckets};
use crate::search::request::Endpoint;
use crate::{DiagonalRule, Heuristic, SearchConfig};

/// Why a [`GoalField`] could not be built or could not answer.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum FieldError {
    /// The goal was a world-space point with a NaN or infinite coordinate.
    #[error("goal point is not finite")]
    NonFinite,
    /// The cost model cannot be used: see [`CostModel::validate`](crate::CostModel::validate).
    #[error("invalid cost model: {0}")]
    InvalidCosts(&'static str),
    /// The goal is outside the world's bounds.
    #[error("goal voxel {0} is outside the world")]
    GoalOutOfBounds(IVec3),
    /// The goal voxel is solid, or of a medium the field's media do not allow.
    #[error("goal voxel {0} is blocked for this field")]
    GoalBlocked(IVec3),
    /// A start is outside the world's bounds.
    #[error("start voxel {0} is outside the world")]
    StartOutOfBounds(IVec3),
    /// A start voxel is solid, or of a medium the field's media do not allow.
    #[error("start voxel {0} is blocked for this field")]
    StartBlocked(IVec3),
    /// The field grew over the whole region connected to the goal and `start` is not in it.
    #[error("voxel {0} cannot reach the goal")]
    Unreachable(IVec3),
    /// Growing further would take the field's memory past its limit (see
    /// [`GoalField::with_max_bytes`]). The field stays valid: what it settled is still exact.
    #[error("the field needs more than its limit of {limit} bytes")]
    MemoryLimit {
        /// The limit, in bytes.
        limit: usize,
    },
    /// The field settled [`SearchConfig::max_expansions`] voxels without reaching the start.
    #[error("field budget exhausted after {settled} voxels")]
    BudgetExhausted {
        /// Voxels settled.
        settled: usize,
    },
    /// The world given is not the one the field was built on, or was edited since: build a new
    /// field.
    #[error("the world changed since the field was built")]
    WorldChanged,
}

/// Bytes one 16^3 page of field state costs (8 bytes of cost and 1 of flags per voxel).
const PAGE_BYTES: usize = crate::grid::layer::CHUNK_VOXELS * 13 + 12;

/// Bit of [`GoalField::moves`] standing for "entered by no move" (the goal).
const FROM_GOAL: u32 = 1 << START;

/// [`GoalField::grow_to`] aims at cubes of `2^CLUSTER_SHIFT` voxels a side, one at a time
/// (tuned on Complex, of the tuning half; docs/crowds.md has the measurements).
const CLUSTER_SHIFT: i32 = 2;

/// Index of the move with the opposite offset.
const OPPOSITE: [u8; MOVES] = opposite();

const fn opposite() -> [u8; MOVES] {
    let mut out = [0; MOVES];
    let mut m = 0;
    while m < MOVES {
        let d = OFFSETS[m];
        let mut n = 0;
        while n < MOVES {
            let e = OFFSETS[n];
            if e.x == -d.x && e.y == -d.y && e.z == -d.z {
                out[m] = n as u8;
            }
            n += 1;
        }
        m += 1;
    }
    out
}

/// The octile distance from `v` to the box `lo..=hi`: consistent, as a distance to a set.
#[inline]
fn estimate(config: &SearchConfig, (lo, hi): (IVec3, IVec3), v: IVec3) -> u64 {
    Heuristic::Octile.estimate(v.clamp(lo, hi) - v, &config.costs)
}

/// A shared-goal field: the exact cost to one goal, and the next step toward it, for every
/// voxel of a region that grows on demand.
///
/// It runs one exact search *backward* from the goal under the moves, costs, diagonal rule and
/// media of a [`SearchConfig`]: a voxel `p` gets the cheapest cost of a *forward* path
/// `p -> goal`, each move priced as the forward move is (the medium of the voxel it enters)
/// and legal as the forward move is (under [`DiagonalRule::Faces`] a corner move may be legal
/// one way only). The search is best-first toward the voxels asked for: its estimate is the
/// octile distance to the box of the starts it is serving (consistent, so each voxel it
/// settles has its exact cost), re-aimed as the starts change; [`grow_to`](Self::grow_to)
/// serves its starts by cubes of 4 voxels a side, nearest first (those not yet settled). A group of agents then costs
/// about one search plus the group's region. A voxel once settled never changes: every answer
/// is exact, and asking for more starts only grows the region.
///
/// The field ignores [`SearchConfig::algorithm`], [`SearchConfig::heuristic`] and
/// [`SearchConfig::fallback`] (it is always exact, with its own estimate);
/// [`SearchConfig::max_expansions`] caps the voxels it settles.
///
/// # Memory
/// Field state is paged by 16^3 chunk (about 36 KiB per chunk the search touches) plus 8 bytes
/// per world chunk and the open list. Before it touches a new chunk the field checks its
/// memory against its limit (the world's [`Limits::max_search_bytes`](crate::Limits), or the one
/// given to [`with_max_bytes`](Self::with_max_bytes)) and stops with [`FieldError::MemoryLimit`] instead
/// (the open list may pass the limit by its last growth).
///
/// # Examples
/// ```
/// use glam::IVec3;
/// use voxnav::{GoalField, PathRequest, Pathfinder, SearchConfig, Voxel, VoxelWorld};
/// let mut world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::new(24, 8, 24)).unwrap();
/// world.fill_voxels(IVec3::new(12, 0, 0), IVec3::new(12, 7, 20), Voxel::Solid).unwrap(); // a wall
/// let config = SearchConfig::default();
/// let goal = IVec3::new(20, 3, 3);
/// let mut field = GoalField::new(&world, goal, &config).unwrap();
/// let starts = [IVec3::new(2, 3, 2), IVec3::new(3, 5, 20), IVec3::new(1, 1, 10)];
/// field.grow_to(&world, &starts).unwrap();
/// let mut finder = Pathfinder::new();
/// for s in starts {
///     let path = field.path_from(&world, s).unwrap();
///     assert_eq!(path.voxels.last(), Some(&goal));
///     assert_eq!(path.cost, finder.find(&world, None, &PathRequest::new(s, goal, config)).unwrap().cost);
/// }
/// ```
#[derive(Debug, Clone)]
pub struct GoalField {
    goal: IVec3,
    config: SearchConfig,
    pass: Pass,
    weighted: bool,
    /// The world's dims and revision when the field was built.
    world: (UVec3, u64),
    /// `g`: cost to the goal; `info`: flags, and the move to the next step (`NO_PARENT` at the goal).
    nodes: NodeStore,
    open: RadixHeap<VecBuckets>,
    /// Inclusive box the estimate aims at.
    target: (IVec3, IVec3),
    settled: usize,
    max_bytes: usize,
    /// The cost of each move at weight 100.
    move_cost: [u64; MOVES],
    /// Reused buffer for re-aiming the open list.
    spare: Vec<(u64, u32)>,
    /// Successor tables when the search may prune (symmetric moves, no media prices, a cost
    /// model whose ties keep the canonical order: see `Canon::prunes_exactly`).
    canon: Option<std::sync::Arc<Canon>>,
    /// Per slot (beside `nodes`): for an open voxel, the moves it was reached by at its cost
    /// ([`FROM_GOAL`] for the goal); for a settled one, the moves already tried from it.
    moves: Vec<u32>,
    /// Settled voxels reached again at their cost by a new move (late successors to try).
    late: Vec<(usize, u32)>,
}

impl GoalField {
    /// A field toward `goal` in `world` (a voxel index, [`IVec3`], or a world-space point,
    /// [`Vec3`](glam::Vec3): see [`Endpoint`]), under `config`'s costs, diagonal rule and media,
    /// with a memory limit of the world's [`Limits::max_search_bytes`](crate::Limits). It holds
    /// the goal only; [`grow_to`](Self::grow_to) and [`path_from`](Self::path_from) grow it.
    ///
    /// # Errors
    /// As [`with_max_bytes`](Self::with_max_bytes).
    pub fn new(world: &VoxelWorld, goal: impl Into<Endpoint>, config: &SearchConfig) -> Result<Self, FieldError> {
        Self::with_max_bytes(world, goal, config, world.limits().max_search_bytes)
    }

    /// [`new`](Self::new) with a memory limit of `max_bytes` instead of the world's (see
    /// [`GoalField`]'s memory section).
    ///
    /// # Errors
    /// [`FieldError::NonFinite`], [`FieldError::InvalidCosts`], [`FieldError::GoalOutOfBounds`],
    /// [`FieldError::GoalBlocked`], and [`FieldError::MemoryLimit`] if the world's page table
    /// and the goal's page alone pass `max_bytes` (checked before allocating them).
    pub fn with_max_bytes(
        world: &VoxelWorld,
        goal: impl Into<Endpoint>,
        config: &SearchConfig,
        max_bytes: usize,
    ) -> Result<Self, FieldError> {
        let goal = goal.into().voxel(world).ok_or(FieldError::NonFinite)?;
        config.validate().and_then(|()| config.check_costs_fit(world)).map_err(|e| match e {
            crate::PathError::InvalidCosts(why) | crate::PathError::InvalidConfig(why) => FieldError::InvalidCosts(why),
            _ => FieldError::InvalidCosts("invalid search configuration"),
        })?;
        let pass = config.pass();
        if !world.contains(goal) {
            return Err(FieldError::GoalOutOfBounds(goal));
        }
        if !world.passable(goal, pass) {
            return Err(FieldError::GoalBlocked(goal));
        }
        let chunks = world.dims().as_u64vec3().map(|d| d.div_ceil(16));
        let table_bytes = chunks.x * chunks.y * chunks.z * 8;
        if table_bytes + PAGE_BYTES as u64 > max_bytes as u64 {
            return Err(FieldError::MemoryLimit { limit: max_bytes });
        }
        let mut field = Self {
            goal,
            config: *config,
            pass,
            weighted: config.priced_media(world),
            world: (world.dims(), world.revision()),
            nodes: NodeStore::default(),
            open: RadixHeap::default(),
            target: (goal, goal),
            settled: 0,
            max_bytes,
            move_cost: std::array::from_fn(|m| config.costs.cost(axes(m))),
            spare: Vec::new(),
            canon: (config.diagonal != DiagonalRule::Faces && !config.priced_media(world))
                .then(|| Canon::shared(config.diagonal, config.costs))
                .filter(|c| c.prunes_exactly()),
            moves: Vec::new(),
            late: Vec::new(),
        };
        field.nodes.reset(world.dims());
        let slot = field.nodes.slot(goal);
        field.nodes.rec.g[slot] = 0;
        field.nodes.rec.info[slot] = OPEN | NO_PARENT;
        field.moves.resize(field.nodes.rec.info.len(), 0);
        field.moves[slot] = FROM_GOAL;
        field.open.push(0, slot as u32);
        Ok(field)
    }

    /// The goal voxel.
    #[must_use]
    pub fn goal(&self) -> IVec3 {
        self.goal
    }

    /// How many voxels have their exact cost and next step.
    #[must_use]
    pub fn settled(&self) -> usize {
        self.settled
    }

    /// Bytes of heap this field holds.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.nodes.heap_bytes() + self.open.heap_bytes() + self.spare.capacity() * 16 + self.moves.capacity() * 4
    }

    /// The exact cost from `v` to the goal, if the field has settled `v` (else `None`: see
    /// [`cost_from`](Self::cost_from), which grows the field).
    #[must_use]
    pub fn settled_cost(&self, v: IVec3) -> Option<u64> {
        self.closed_slot(v).map(|slot| self.nodes.rec.g[slot])
    }

    /// The next voxel from `v` on a cheapest path to the goal, if the field has settled `v`
    /// and `v` is not the goal.
    #[must_use]
    pub fn next_step(&self, v: IVec3) -> Option<IVec3> {
        let slot = self.closed_slot(v)?;
        let m = self.nodes.rec.info[slot] & PARENT_MASK;
        (m != NO_PARENT).then(|| v + OFFSETS[m as usize])
    }

    fn closed_slot(&self, v: IVec3) -> Option<usize> {
        if !self.world_contains(v) {
            return None;
        }
        let slot = self.nodes.find(v)?;
        (self.nodes.rec.info[slot] & CLOSED != 0).then_some(slot)
    }

    fn world_contains(&self, v: IVec3) -> bool {
        v.cmpge(IVec3::ZERO).all() && v.cmplt(self.world.0.as_ivec3()).all()
    }

    /// Grows the field until every voxel of `starts` is settled (or proved unreachable), aiming
    /// the search at their bounding box. Returns how many of them can reach the goal; ask
    /// [`path_from`](Self::path_from) or [`cost_from`](Self::cost_from) for the reason of the others.
    ///
    /// # Errors
    /// [`FieldError::WorldChanged`], [`FieldError::StartOutOfBounds`],
    /// [`FieldError::StartBlocked`], [`FieldError::MemoryLimit`],
    /// [`FieldError::BudgetExhausted`].
    pub fn grow_to(&mut self, world: &VoxelWorld, starts: &[IVec3]) -> Result<usize, FieldError> {
        self.check_world(world)?;
        for &s in starts {
            self.check_start(world, s)?;
        }
        if starts.is_empty() {
            return Ok(0);
        }
        // Aim at one small cube of starts at a time, nearest cubes first: the estimate stays
        // tight for each, so the field grows little beyond what each start needs.
        let mut order: Vec<(u64, [i32; 3], usize)> = starts
            .iter()
            .enumerate()
            .map(|(i, &s)| {
                let cube = s >> CLUSTER_SHIFT;
                let centre = (cube << CLUSTER_SHIFT) + (1 << (CLUSTER_SHIFT - 1));
                (Heuristic::Octile.estimate(centre - self.goal, &self.config.costs), cube.to_array(), i)
            })
            .collect();
        order.sort_unstable();
        let mut reached = 0;
        let mut pending = Vec::new();
        for group in order.chunk_by(|a, b| a.1 == b.1) {
            // Starts the field reached while serving earlier groups need no aim of their own.
            let (mut lo, mut hi) = (IVec3::MAX, IVec3::MIN);
            pending.clear();
            for &(_, _, i) in group {
                if self.closed_slot(starts[i]).is_none() {
                    lo = lo.min(starts[i]);
                    hi = hi.max(starts[i]);
                    pending.push(i);
                } else {
                    reached += 1;
                }
            }
            if pending.is_empty() {
                continue;
            }
            self.aim(lo, hi);
            for &i in &pending {
                match self.settle(world, starts[i]) {
                    Ok(_) => reached += 1,
                    Err(FieldError::Unreachable(_)) => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(reached)
    }

    /// The exact cost from `start` to the goal, growing the field toward `start` if needed.
    ///
    /// # Errors
    /// As [`grow_to`](Self::grow_to), and [`FieldError::Unreachable`].
    pub fn cost_from(&mut self, world: &VoxelWorld, start: IVec3) -> Result<u64, FieldError> {
        self.check_world(world)?;
        self.check_start(world, start)?;
        if let Some(cost) = self.settled_cost(start) {
            return Ok(cost);
        }
        self.aim(start, start);
        let slot = self.settle(world, start)?;
        Ok(self.nodes.rec.g[slot])
    }

    /// A cheapest path from `start` to the goal, read by following next steps (growing the
    /// field toward `start` if needed). Its cost is [`cost_from`](Self::cost_from)'s; its
    /// stats count the voxels the field has settled in all.
    ///
    /// # Errors
    /// As [`cost_from`](Self::cost_from).
    pub fn path_from(&mut self, world: &VoxelWorld, start: IVec3) -> Result<Path, FieldError> {
        let cost = self.cost_from(world, start)?;
        let mut voxels = vec![start];
        let mut v = start;
        while let Some(next) = self.next_step(v) {
            voxels.push(next);
            v = next;
        }
        debug_assert_eq!(v, self.goal);
        let points = voxels.iter().map(|&v| world.voxel_center(v)).collect();
        let length = voxel_length(&voxels) * f64::from(world.voxel_size());
        let stats = SearchStats {
            expanded: self.settled,
            generated: self.settled,
            peak_open: self.open.len(),
            weight: 100,
            ..SearchStats::default()
        };
        Ok(Path { voxels, points, cost, length, stats, made_on: crate::search::path::WorldStamp::of(world) })
    }

    fn check_world(&self, world: &VoxelWorld) -> Result<(), FieldError> {
        if self.world != (world.dims(), world.revision()) {
            return Err(FieldError::WorldChanged);
        }
        Ok(())
    }

    fn check_start(&self, world: &VoxelWorld, s: IVec3) -> Result<(), FieldError> {
        if !world.contains(s) {
            return Err(FieldError::StartOutOfBounds(s));
        }
        if !world.passable(s, self.pass) {
            return Err(FieldError::StartBlocked(s));
        }
        Ok(())
    }

    /// The estimate from `v` to the target box.
    #[inline]
    fn estimate(&self, v: IVec3) -> u64 {
        estimate(&self.config, self.target, v)
    }

    /// Aims the search at the box `lo..=hi`: re-keys the open list by the new estimate.
    fn aim(&mut self, lo: IVec3, hi: IVec3) {
        if self.target == (lo, hi) {
            return;
        }
        self.spare.clear();
        self.open.drain_into(&mut self.spare);
        let old = self.target;
        self.target = (lo, hi);
        for i in 0..self.spare.len() {
            let (key, slot) = self.spare[i];
            let slot = slot as usize;
            let (g, v) = (self.nodes.rec.g[slot], self.nodes.voxel(slot));
            // Keep the one live entry of each open node: the one keyed by its current cost.
            let live =
                self.nodes.rec.info[slot] & CLOSED == 0 && key == g.saturating_add(estimate(&self.config, old, v));
            if live {
                self.open.push(g.saturating_add(self.estimate(v)), slot as u32);
            }
        }
    }

    /// Grows the field until `v` (inside the world) is settled; returns its slot.
    fn settle(&mut self, world: &VoxelWorld, v: IVec3) -> Result<usize, FieldError> {
        let rule = self.config.diagonal;
        let max_settled = self.config.max_expansions.unwrap_or(usize::MAX);
        if let Some(slot) = self.closed_slot(v) {
            return Ok(slot);
        }
        loop {
            let Some((_, slot)) = self.open.peek() else {
                return Err(FieldError::Unreachable(v));
            };
            let slot = slot as usize;
            if self.nodes.rec.info[slot] & CLOSED != 0 {
                self.open.pop();
                continue;
            }
            if self.settled >= max_settled {
                return Err(FieldError::BudgetExhausted { settled: self.settled });
            }
            let u = self.nodes.voxel(slot);
            self.reserve_around(u)?;
            self.open.pop();
            self.nodes.rec.info[slot] |= CLOSED;
            self.settled += 1;
            let g = self.nodes.rec.g[slot];
            let preds = if rule == DiagonalRule::Faces {
                self.faces_predecessors(world, u)
            } else {
                // Strict and Unchecked are symmetric: p -> u is legal exactly when u -> p is.
                let mask = world.blocked_mask(u, self.pass);
                match self.canon.as_deref() {
                    // Only the canonical successors of the moves `u` was reached by (the
                    // pruning rule of jump point search; the reversed grid is the same grid).
                    Some(canon) => {
                        let tried = canon.successors_of_any(self.moves[slot], mask);
                        self.moves[slot] = tried;
                        tried
                    }
                    None => legal_moves(mask, rule),
                }
            };
            self.relax_from(world, slot, u, g, preds);
            // Settled voxels reached again at their cost by a new move try its successors now.
            while let Some((ls, extra)) = self.late.pop() {
                let (lu, lg) = (self.nodes.voxel(ls), self.nodes.rec.g[ls]);
                self.relax_from(world, ls, lu, lg, extra);
            }
            if u == v {
                return Ok(slot);
            }
        }
    }

    /// Relaxes the voxels `p = u + OFFSETS[m]` for the moves `m` in `preds` from the settled
    /// voxel `u` (cost `g`), at the forward move's price.
    fn relax_from(&mut self, world: &VoxelWorld, slot: usize, u: IVec3, g: u64, mut preds: u32) {
        // Every forward move p -> u enters u: one price for all of them.
        let weight = if self.weighted { u64::from(self.config.media.weight(world.get(u)).unwrap_or(100)) } else { 100 };
        let inside = interior(u);
        while preds != 0 {
            let m = preds.trailing_zeros() as usize;
            preds &= preds - 1;
            let p = u + OFFSETS[m];
            let base = self.move_cost[m];
            let cost = if weight == 100 { base } else { base * weight / 100 };
            let ps = self.nodes.neighbour(slot, inside, p, m);
            // A new node page may have been made: `moves` follows it.
            if !inside {
                self.moves.resize(self.nodes.rec.info.len().max(self.moves.len()), 0);
            }
            let info = self.nodes.rec.info[ps];
            let ng = g + cost;
            if info & CLOSED != 0 {
                // Reached again at its (final) cost by a move whose successors it has not
                // tried: those are tried too, so that no tie loses a canonical path.
                if let Some(canon) = self.canon.as_deref()
                    && ng == self.nodes.rec.g[ps]
                {
                    let extra = canon.untried(m, world.blocked_mask(p, self.pass), &mut self.moves[ps]);
                    if extra != 0 {
                        self.late.push((ps, extra));
                    }
                }
                continue;
            }
            if info & OPEN == 0 || ng < self.nodes.rec.g[ps] {
                self.nodes.rec.g[ps] = ng;
                self.nodes.rec.info[ps] = OPEN | OPPOSITE[m];
                self.moves[ps] = 1 << m;
                self.open.push(ng.saturating_add(self.estimate(p)), ps as u32);
            } else if ng == self.nodes.rec.g[ps] {
                self.moves[ps] |= 1 << m;
            }
        }
    }

    /// Under [`DiagonalRule::Faces`]: bit `m` set when `p = u + OFFSETS[m]` is passable and the
    /// forward move `p -> u` is legal.
    fn faces_predecessors(&self, world: &VoxelWorld, u: IVec3) -> u32 {
        let mut preds = 0;
        for (m, &d) in OFFSETS.iter().enumerate() {
            let p = u + d;
            if world.passable(p, self.pass)
                && legal_moves(world.blocked_mask(p, self.pass), DiagonalRule::Faces) >> OPPOSITE[m] & 1 != 0
            {
                preds |= 1 << m;
            }
        }
        preds
    }

    /// Checks the memory limit before expanding `u` may touch new chunks.
    fn reserve_around(&self, u: IVec3) -> Result<(), FieldError> {
        if interior(u) {
            return Ok(());
        }
        let mut missing = [None; 8];
        let mut count = 0;
        for i in 0..8 {
            let n = u + IVec3::new(
                if i & 1 == 0 { -1 } else { 1 },
                if i & 2 == 0 { -1 } else { 1 },
                if i & 4 == 0 { -1 } else { 1 },
            );
            let n = n.clamp(IVec3::ZERO, self.world.0.as_ivec3() - 1);
            if self.nodes.find(n).is_none() {
                let chunk = n >> 4;
                if !missing[..count].contains(&Some(chunk)) {
                    missing[count] = Some(chunk);
                    count += 1;
                }
            }
        }
        if count > 0 && self.memory_bytes() + count * PAGE_BYTES > self.max_bytes {
            return Err(FieldError::MemoryLimit { limit: self.max_bytes });
        }
        Ok(())
    }
}
