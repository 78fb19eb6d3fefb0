//! Breadth-first floods of the voxels reachable from one voxel, over a sparse visited set:
//! [`Fallback::Closest`](crate::Fallback::Closest)'s flood of the start's component (for the
//! reachable voxel closest to the goal), and the budget mode's probe from the goal.

use glam::{IVec3, UVec3};

use crate::grid::moves::{DiagonalRule, OFFSETS, legal_moves};
use crate::grid::pass::Pass;
use crate::grid::world::VoxelWorld;
use crate::search::heuristic::Heuristic;
use crate::search::nodes::{PageTable, local};

const WORDS: usize = crate::grid::layer::CHUNK_VOXELS / 64;

/// A set of voxels, one bit each in pages of 16^3 chunks, so clearing it is free and its memory
/// follows the voxels inserted.
#[derive(Debug, Default, Clone)]
pub(crate) struct SeenSet {
    pages: PageTable,
    bits: Vec<u64>,
}

impl SeenSet {
    /// Empties the set, sized for a world of `dims` voxels.
    pub(crate) fn reset(&mut self, dims: UVec3) {
        self.pages.reset(dims);
    }

    /// Inserts `v` (inside the world); whether it was new.
    #[inline]
    pub(crate) fn insert(&mut self, v: IVec3) -> bool {
        let (page, fresh) = self.pages.page(v);
        let start = page * WORDS;
        if fresh {
            if self.bits.len() < start + WORDS {
                self.bits.resize(start + WORDS, 0);
            } else {
                self.bits[start..start + WORDS].fill(0);
            }
        }
        let i = local(v);
        let word = &mut self.bits[start + i / 64];
        let new = *word >> (i % 64) & 1 == 0;
        *word |= 1 << (i % 64);
        new
    }

    /// Bytes of heap held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.pages.heap_bytes() + self.bits.capacity() * 8
    }

    /// Bytes the current set uses: its page table and the pages handed out since the reset.
    pub(crate) fn bytes_in_use(&self) -> usize {
        self.pages.bytes_in_use() + self.pages.pages_used() * WORDS * 8
    }
}

/// Breadth-first flood of the voxels reachable from the start, keeping the one closest to the
/// goal ([`Fallback::Closest`](crate::Fallback::Closest)'s order: octile distance, then lowest `(z, y, x)`).
#[derive(Debug, Default, Clone)]
pub(crate) struct Flood {
    pub(crate) seen: SeenSet,
    queue: std::collections::VecDeque<IVec3>,
    goal: IVec3,
    pass: Option<Pass>,
    rule: DiagonalRule,
    best: Option<(u64, [i32; 3])>,
    /// Voxels visited since [`begin`](Self::begin).
    pub(crate) visited: usize,
}

impl Flood {
    /// Starts a flood from `start`, keeping the voxel closest to `goal`.
    pub(crate) fn begin(&mut self, world: &VoxelWorld, start: IVec3, goal: IVec3, pass: Pass, rule: DiagonalRule) {
        self.seen.reset(world.dims());
        self.queue.clear();
        self.seen.insert(start);
        self.queue.push_back(start);
        self.goal = goal;
        self.pass = Some(pass);
        self.rule = rule;
        self.best = None;
        self.visited = 0;
    }

    /// Visits at most `budget` voxels; `Err` when more than `max` in all.
    pub(crate) fn advance(&mut self, world: &VoxelWorld, budget: usize, max: usize) -> Result<Option<IVec3>, ()> {
        let pass = self.pass.expect("begun");
        let mut left = budget;
        // Under the strict rule the face moves reach everything the diagonals do.
        let moves = if self.rule == DiagonalRule::Strict { 0x3F } else { u32::MAX };
        while let Some(&v) = self.queue.front() {
            if left == 0 {
                return Ok(None);
            }
            if self.visited >= max {
                return Err(());
            }
            self.queue.pop_front();
            left -= 1;
            self.visited += 1;
            let key = (Heuristic::Octile.estimate(self.goal - v, &crate::CostModel::PRECISE), [v.z, v.y, v.x]);
            if self.best.is_none_or(|b| key < b) {
                self.best = Some(key);
            }
            let mut legal = legal_moves(world.blocked_mask(v, pass), self.rule) & moves;
            while legal != 0 {
                let m = legal.trailing_zeros() as usize;
                legal &= legal - 1;
                let n = v + OFFSETS[m];
                if self.seen.insert(n) {
                    self.queue.push_back(n);
                }
            }
        }
        Ok(self.best.map(|(_, [z, y, x])| IVec3::new(x, y, z)))
    }

    /// Bytes of heap held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.seen.heap_bytes() + self.queue.capacity() * 12
    }
}
