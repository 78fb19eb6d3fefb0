//! Canonical successors: which moves a search must still try from a voxel it entered by a given
//! move, so that at least one optimal path survives. The pruning rule of jump point search.
//!
//! Order the optimal paths between two voxels by (cost, number of moves, then move by move: more
//! axes first). Take the smallest one, `pi`. If `pi` enters `x` from `p = x - d` and leaves it to
//! `n = x + e`, no *better* replacement of the two moves `p -> x -> n` can be legal: not one move
//! `p -> n` of at most the same cost, and not two moves `p -> q -> n` that are cheaper, or as
//! cheap and start with a move of more axes. (Otherwise swapping it in gives an optimal path
//! smaller than `pi`; a replacement that revisits a voxel would make a cheaper path.) Every such
//! replacement considered stays inside the 3x3x3 neighbourhood of `x`, so whether `e` survives after `d` is
//! a function of `d` and the neighbourhood mask alone: this module tabulates it. (Replacements
//! that leave the neighbourhood are not considered: that only prunes less.)
//!
//! In free space the survivors are the *natural* moves of `d` (the moves whose changed axes are
//! a subset of `d`'s, same signs: diagonal first, then straight); anything else that survives is
//! *forced* by an obstacle. A search that, after entering `x` by `d`, tries only the survivors
//! still finds an optimal path (every move of `pi` survives); jump point search then skips the
//! voxels that have no forced move.

use crate::grid::moves::{MOVES, OFFSETS, REQUIRED, axes, bit, index_of, legal_moves};
use crate::search::config::{CostModel, DiagonalRule, SearchConfig};
use glam::IVec3;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Pseudo-direction of a voxel entered by no move (the start): every legal move survives.
pub(crate) const START: usize = MOVES;

/// All 27 bits of a neighbourhood mask.
const ALL: u32 = (1 << 27) - 1;

/// A move that may be forced after some incoming direction: its legality mask and the masks of
/// its better replacements (each must have a blocked voxel for the move to survive).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Candidate {
    mv: u8,
    legal: u32,
    alts: [u32; 8],
    len: u8,
}

/// Candidates tested together by [`Canon::forced_uncached`]: one a lane, in fixed-size rows
/// the compiler turns into vector instructions, without a branch per candidate.
const LANES: usize = 16;

/// A row entry no neighbourhood mask misses: [`Canon::forced_uncached`] sets this bit (above
/// the 27 of a mask) in the mask it tests, so a lane's rows past its last replacement pass.
const NO_ALT: u32 = 1 << 31;

/// Up to [`LANES`] candidates after one incoming direction, by rows: per lane its move's bit
/// (0 in an empty lane), its legality mask, and its replacements' masks ([`NO_ALT`] past its
/// last).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Lanes {
    moves: [u32; LANES],
    legal: [u32; LANES],
    alts: [[u32; LANES]; 8],
}

impl Lanes {
    fn new(candidates: &[Candidate]) -> Self {
        let mut lanes = Lanes { moves: [0; LANES], legal: [0; LANES], alts: [[NO_ALT; LANES]; 8] };
        for (i, c) in candidates.iter().enumerate() {
            lanes.moves[i] = 1 << c.mv;
            lanes.legal[i] = c.legal;
            for (row, &alt) in lanes.alts.iter_mut().zip(&c.alts[..c.len as usize]) {
                row[i] = alt;
            }
        }
        lanes
    }
}

/// How a cost model orders the costs of single moves and of pairs of moves: all the tables
/// read of it. Each entry is the number of the nine costs (face, edge, corner, then the six sums
/// of two of them) strictly below that one, so two models with equal shapes compare every pair
/// alike and get the same tables ([`CostModel::GAME`] and [`CostModel::PRECISE`] do).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct CostShape([u8; 9]);

impl CostShape {
    fn of(costs: &CostModel) -> Self {
        let (f, e, c) = (costs.face, costs.edge, costs.corner);
        // Saturating: validated costs are below 2^40, others must not overflow either.
        let sum = u64::saturating_add;
        let v = [f, e, c, sum(f, f), sum(f, e), sum(f, c), sum(e, e), sum(e, c), sum(c, c)];
        Self(std::array::from_fn(|i| v.iter().filter(|&&w| w < v[i]).count() as u8))
    }
}

/// The successor tables for one diagonal rule and cost model (and every cost model of the
/// same [`CostShape`]).
#[derive(Debug)]
pub(crate) struct Canon {
    pub(crate) rule: DiagonalRule,
    shape: CostShape,
    /// Natural moves of each incoming direction (all moves for [`START`]).
    natural: [u32; MOVES + 1],
    /// The moves that may be forced, in blocks of [`LANES`] tested together:
    /// `lanes[range[d].0..range[d].1]` after `d`.
    lanes: Vec<Lanes>,
    range: [(u16, u16); MOVES],
    /// The most replacements a candidate after `d` has: the rows of its lanes to test.
    rows: [u8; MOVES],
    /// Bits of the neighbourhood some candidate of `d` reads: a mask without any is not forced.
    relevant: [u32; MOVES],
    /// Bits of the neighbourhood the successors of `d` read: [`relevant`](Self::relevant) and
    /// the voxels its natural moves need free. The memo's keys.
    read: [u32; MOVES],
    /// No natural move has a replacement as cheap (true for every model without ties, see
    /// [`CostModel::jump_exact`], and for some with ties). Where one has, two orders of the same
    /// moves may each prune the other, and the pruned searches are not exact: they then search
    /// every move.
    exact: bool,
    /// The successors of `d` on `mask` (the natural moves legal and the forced ones; the forced
    /// moves are these less the natural) by key `d << 27 | mask & read[d]`, as
    /// `key << 32 | answer` (0: none yet), at a hash of the key: a pure function, so threads
    /// sharing the tables may fill it in any order. One lookup answers both, with no test of
    /// the natural moves one by one.
    memo: Box<[AtomicU64]>,
}

/// Shared tables with the diagonal rule and cost model a search asked them for: a search
/// compares its next query's rule and costs with these, not with the tables' shape.
pub(crate) type CanonFor = ((DiagonalRule, CostModel), Arc<Canon>);

/// Makes `held` the tables of `config`'s diagonal rule and cost model (built once per process,
/// [`Canon::shared`]), unless they already are.
pub(crate) fn hold(held: &mut Option<CanonFor>, config: &SearchConfig) {
    if !holds(held.as_ref(), config) {
        *held = Some(((config.diagonal, config.costs), Canon::shared(config.diagonal, config.costs)));
    }
}

/// Whether `held` are the tables of `config`'s diagonal rule and cost model.
pub(crate) fn holds(held: Option<&CanonFor>, config: &SearchConfig) -> bool {
    held.is_some_and(|c| c.0 == (config.diagonal, config.costs))
}

/// Whether the tables of `base` serve moves priced at `percent` (each cost times `percent / 100`,
/// rounded down, as a medium's price makes it): the priced model orders single moves and pairs
/// of moves as `base` does and prunes exactly, so within a neighbourhood of one price the
/// tables' verdicts hold.
pub(crate) fn serves_price(base: &CostModel, percent: u32) -> bool {
    let p = u64::from(percent.max(100));
    let price = |c: u64| c.saturating_mul(p) / 100;
    let priced = CostModel { face: price(base.face), edge: price(base.edge), corner: price(base.corner) };
    priced.jump_exact() && CostShape::of(&priced) == CostShape::of(base)
}

/// Per face move: the bits of the neighbourhood plane behind `x` (the parent's side), the bit
/// shift that carries that plane onto `x`'s plane, and `x`'s plane without `x`.
const fn face_planes() -> [(u32, i32, u32); 6] {
    let mut out = [(0, 0, 0); 6];
    let mut m = 0;
    while m < 6 {
        let d = OFFSETS[m];
        let (axis, sign) = if d.x != 0 {
            (0, d.x)
        } else if d.y != 0 {
            (1, d.y)
        } else {
            (2, d.z)
        };
        let stride = [1, 3, 9][axis];
        let (mut behind, mut lateral) = (0u32, 0u32);
        let mut b = 0;
        while b < 27 {
            let c = [b % 3 - 1, (b / 3) % 3 - 1, b / 9 - 1][axis];
            if c == -sign {
                behind |= 1 << b;
            } else if c == 0 && b != 13 {
                lateral |= 1 << b;
            }
            b += 1;
        }
        out[m] = (behind, sign * stride, lateral);
        m += 1;
    }
    out
}
const FACE_PLANES: [(u32, i32, u32); 6] = face_planes();

/// Whether, for face move `m` into a voxel with neighbourhood `mask`, some voxel beside the
/// parent is blocked while the voxel beside `x` in the same direction is free. Under the strict
/// rule no move is forced without such an obstacle edge (tested against the tables for the
/// cost shapes that prune exactly), so a straight scan of jump point search only consults
/// [`Canon::forced`] where this holds.
#[inline]
pub(crate) fn falling_edge(m: usize, mask: u32) -> bool {
    let (behind, shift, lateral) = FACE_PLANES[m];
    let b = mask & behind;
    let moved = if shift > 0 { b << shift } else { b >> -shift };
    moved & !mask & lateral != 0
}

/// Entries of [`Canon::memo`].
const MEMO: usize = 1 << 12;

/// The voxels (as bits of `x`'s neighbourhood) that `rule` requires free for move `m` from `q`
/// (an offset from `x`); `None` if one falls outside the neighbourhood.
fn required_at(rule: DiagonalRule, m: usize, q: IVec3) -> Option<u32> {
    let mut req = REQUIRED[rule as usize][m];
    let mut out = 0;
    while req != 0 {
        let b = req.trailing_zeros() as i32;
        req &= req - 1;
        let o = IVec3::new(b % 3 - 1, (b / 3) % 3 - 1, b / 9 - 1) + q;
        if o.abs().max_element() > 1 {
            return None;
        }
        out |= 1 << bit(o.x, o.y, o.z);
    }
    Some(out)
}

/// Whether `e`'s changed axes are a subset of `d`'s, with the same signs.
fn is_natural(d: IVec3, e: IVec3) -> bool {
    (0..3).all(|a| e[a] == 0 || e[a] == d[a])
}

impl Canon {
    /// Builds the tables (a few thousand cheap steps; callers cache the result).
    pub(crate) fn new(rule: DiagonalRule, costs: CostModel) -> Self {
        let mut natural = [0u32; MOVES + 1];
        natural[START] = (1 << MOVES) - 1;
        let mut lanes = Vec::new();
        let mut range = [(0u16, 0u16); MOVES];
        let mut rows = [0u8; MOVES];
        let mut relevant = [0u32; MOVES];
        let mut exact = true;
        for (di, &d) in OFFSETS.iter().enumerate() {
            let mut candidates = Vec::new();
            // Voxels known free when `x` was entered by `d`: `p`, and `p -> x` was legal.
            let known_free = required_at(rule, di, -d).expect("inside") | 1 << bit(-d.x, -d.y, -d.z) | 1 << 13;
            for (ei, &e) in OFFSETS.iter().enumerate() {
                let legal = REQUIRED[rule as usize][ei];
                let alts = Self::better_replacements(rule, &costs, di, ei);
                if is_natural(d, e) {
                    // Natural moves are always kept. Without ties none has a better
                    // replacement; with ties (an edge move as dear as a corner move, say) one
                    // may have an equal one, and keeping the move only prunes less.
                    natural[di] |= 1 << ei;
                    debug_assert!(alts.is_empty() || !costs.jump_exact(), "a natural move has no better replacement");
                    exact &= alts.is_empty();
                    continue;
                }
                // Can `e` survive at all? Block everything not known or required free.
                let worst = ALL & !(legal | known_free);
                if alts.iter().any(|&a| a & worst == 0) {
                    continue;
                }
                let mut c = Candidate { mv: ei as u8, legal, len: alts.len() as u8, ..Default::default() };
                assert!(alts.len() <= c.alts.len(), "more replacements than expected");
                c.alts[..alts.len()].copy_from_slice(&alts);
                relevant[di] |= alts.iter().fold(legal, |acc, &a| acc | a);
                candidates.push(c);
            }
            let first = lanes.len();
            lanes.extend(candidates.chunks(LANES).map(Lanes::new));
            range[di] = (first as u16, lanes.len() as u16);
            rows[di] = candidates.iter().map(|c| c.len).max().unwrap_or(0);
        }
        let required = &REQUIRED[rule as usize];
        let read = std::array::from_fn(|d| {
            (0..MOVES).filter(|&m| natural[d] >> m & 1 != 0).fold(relevant[d], |acc, m| acc | required[m])
        });
        let memo = (0..MEMO).map(|_| AtomicU64::new(0)).collect();
        Self { rule, shape: CostShape::of(&costs), natural, lanes, range, rows, relevant, read, exact, memo }
    }

    /// The tables for `rule` and `costs`, built once per process for each diagonal rule and
    /// [`CostShape`] and shared (building them costs more than many whole searches).
    pub(crate) fn shared(rule: DiagonalRule, costs: CostModel) -> Arc<Self> {
        static BUILT: Mutex<Vec<Arc<Canon>>> = Mutex::new(Vec::new());
        let shape = CostShape::of(&costs);
        let mut built = BUILT.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(c) = built.iter().find(|c| c.rule == rule && c.shape == shape) {
            return Arc::clone(c);
        }
        let c = Arc::new(Self::new(rule, costs));
        // A program with many cost shapes keeps only the latest few.
        if built.len() >= 16 {
            built.remove(0);
        }
        built.push(Arc::clone(&c));
        c
    }

    /// Masks (relative to `x`) of the better replacements of `p -> x -> n` for `d`, `e`.
    fn better_replacements(rule: DiagonalRule, costs: &CostModel, di: usize, ei: usize) -> Vec<u32> {
        let (d, e) = (OFFSETS[di], OFFSETS[ei]);
        let p = -d;
        let total = d + e;
        let cost = costs.cost(axes(di)) + costs.cost(axes(ei));
        if total == IVec3::ZERO {
            return vec![0]; // straight back: never part of an optimal path
        }
        let mut out = Vec::new();
        if let Some(m) = index_of(total) {
            // One move p -> n: never dearer (the cost model's metric rules).
            if costs.cost(axes(m)) <= cost {
                out.push(required_at(rule, m, p).expect("inside"));
            }
        }
        for (d2, &dd) in OFFSETS.iter().enumerate() {
            let Some(e2) = index_of(total - dd) else { continue };
            if d2 == di {
                continue;
            }
            let c2 = costs.cost(axes(d2)) + costs.cost(axes(e2));
            if c2 < cost || (c2 == cost && axes(d2) > axes(di)) {
                // Detours leaving the neighbourhood are ignored: pruning less is always safe.
                if let (Some(a), Some(b)) = (required_at(rule, d2, p), required_at(rule, e2, p + dd)) {
                    out.push(a | b);
                }
            }
        }
        // A replacement needing a superset of another's voxels adds nothing.
        let mut kept: Vec<u32> = Vec::new();
        for &a in &out {
            if !out.iter().any(|&b| b != a && b & a == b) && !kept.contains(&a) {
                kept.push(a);
            }
        }
        kept
    }

    /// Whether searches pruned by these tables stay exact (see [`Canon::exact`]).
    pub(crate) fn prunes_exactly(&self) -> bool {
        self.exact
    }

    /// Natural moves of incoming direction `d` (or [`START`]), legal or not.
    #[cfg(test)]
    pub(crate) fn natural(&self, d: usize) -> u32 {
        self.natural[d]
    }

    /// The forced moves after entering a voxel with neighbourhood `mask` by move `d`: the
    /// remembered successors ([`successors`](Self::successors)) less the natural moves.
    #[inline]
    pub(crate) fn forced(&self, d: usize, mask: u32) -> u32 {
        if d == START || mask & self.relevant[d] == 0 {
            return 0;
        }
        self.remembered(d, mask) & !self.natural[d]
    }

    /// The successors of `d` (not [`START`]) on `mask` (some voxel of
    /// [`read`](Self::read) blocked, so that no key is 0, an empty entry's), looked up in the
    /// tables once per key and then remembered ([`memo`](Self::memo)).
    #[inline]
    fn remembered(&self, d: usize, mask: u32) -> u32 {
        let key = (d as u32) << 27 | mask & self.read[d];
        let at = (key.wrapping_mul(0x9E37_79B1) >> (32 - MEMO.trailing_zeros())) as usize;
        let entry = self.memo[at].load(Ordering::Relaxed);
        if (entry >> 32) as u32 == key {
            return entry as u32;
        }
        let out = (legal_moves(mask, self.rule) & self.natural[d]) | self.forced_uncached(d, mask);
        self.memo[at].store(u64::from(key) << 32 | u64::from(out), Ordering::Relaxed);
        out
    }

    /// [`forced`](Self::forced) from the tables.
    ///
    /// A candidate is forced where its move is legal (`mask & legal == 0`) and each of its
    /// replacements has a blocked voxel (`mask & alt != 0`): tested for all lanes of a block at
    /// once, row by row.
    fn forced_uncached(&self, d: usize, mask: u32) -> u32 {
        let (a, b) = self.range[d];
        let rows = usize::from(self.rows[d]);
        let marked = mask | NO_ALT;
        let mut out = 0;
        // All ones where `hit`, zero elsewhere.
        let all = |hit: bool| 0u32.wrapping_sub(u32::from(hit));
        for lanes in &self.lanes[usize::from(a)..usize::from(b)] {
            let mut kept: [u32; LANES] = std::array::from_fn(|i| lanes.moves[i] & all(mask & lanes.legal[i] == 0));
            for row in &lanes.alts[..rows] {
                for (k, &alt) in kept.iter_mut().zip(row) {
                    *k &= all(marked & alt != 0);
                }
            }
            out |= kept.iter().fold(0, |acc, &k| acc | k);
        }
        out
    }

    /// The moves to try after entering a voxel with neighbourhood `mask` by any of the moves
    /// in `entered` (bit [`START`] for a voxel entered by none: every legal move). A search
    /// that prunes with this must keep every move a voxel is reached by at its best cost, and
    /// try the new successors of a settled voxel reached again at its cost: with one move kept
    /// per voxel, ties lose optimal paths and can even cut voxels off (`tests/field.rs`).
    #[inline]
    pub(crate) fn successors_of_any(&self, entered: u32, mask: u32) -> u32 {
        let mut out = 0;
        let mut dirs = entered;
        while dirs != 0 {
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            out |= self.successors(d, mask);
        }
        out
    }

    /// A settled voxel with neighbourhood `mask`, whose moves in `tried` were tried, is reached
    /// again at its cost by move `d`: the successors of `d` not tried yet, now added to
    /// `tried` (to be tried at once; see [`successors_of_any`](Self::successors_of_any)).
    #[inline]
    pub(crate) fn untried(&self, d: usize, mask: u32, tried: &mut u32) -> u32 {
        let extra = self.successors(d, mask) & !*tried;
        *tried |= extra;
        extra
    }

    /// The moves to try after entering a voxel with neighbourhood `mask` by `d`: the legal
    /// natural moves and the forced ones.
    #[inline]
    pub(crate) fn successors(&self, d: usize, mask: u32) -> u32 {
        if d == START {
            return if mask == 0 { self.natural[d] } else { legal_moves(mask, self.rule) };
        }
        if mask & self.read[d] == 0 {
            // Nothing it reads is blocked: every natural move is legal and none is forced.
            return self.natural[d];
        }
        self.remembered(d, mask)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(seed: &mut u64) -> u32 {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (*seed >> 33) as u32
    }

    #[test]
    fn free_space_successors_are_the_natural_moves() {
        for rule in [DiagonalRule::Strict, DiagonalRule::Faces, DiagonalRule::Unchecked] {
            for costs in [CostModel::GAME, CostModel::PRECISE, CostModel { face: 10, edge: 20, corner: 30 }] {
                let canon = Canon::new(rule, costs);
                for d in 0..MOVES {
                    assert_eq!(canon.successors(d, 0), canon.natural(d), "{rule:?} {d}");
                    let n = canon.natural(d).count_ones();
                    assert_eq!(n, [1, 3, 7][axes(d) - 1]);
                }
            }
        }
    }

    /// Brute force: `e` survives after `d` iff no better two-step or one-step detour is legal.
    fn survives(rule: DiagonalRule, costs: &CostModel, d: IVec3, e: IVec3, mask: u32) -> bool {
        let free = |o: IVec3| o.abs().max_element() <= 1 && mask >> bit(o.x, o.y, o.z) & 1 == 0;
        let legal = |from: IVec3, m: IVec3| {
            let mi = index_of(m).unwrap();
            (0..27).all(|b| {
                REQUIRED[rule as usize][mi] >> b & 1 == 0
                    || free(from + IVec3::new(b % 3 - 1, (b / 3) % 3 - 1, b / 9 - 1))
            })
        };
        let ax = |m: IVec3| (m.x != 0) as usize + (m.y != 0) as usize + (m.z != 0) as usize;
        if !legal(IVec3::ZERO, e) {
            return false;
        }
        let (p, total) = (-d, d + e);
        if total == IVec3::ZERO {
            return false;
        }
        let cost = costs.cost(ax(d)) + costs.cost(ax(e));
        if total.abs().max_element() <= 1 && costs.cost(ax(total)) <= cost && legal(p, total) {
            return false;
        }
        for &dd in &OFFSETS {
            let ee = total - dd;
            if dd == d || ee == IVec3::ZERO || ee.abs().max_element() > 1 {
                continue;
            }
            let c2 = costs.cost(ax(dd)) + costs.cost(ax(ee));
            if (c2 < cost || (c2 == cost && ax(dd) > ax(d))) && legal(p, dd) && legal(p + dd, ee) {
                return false;
            }
        }
        true
    }

    #[test]
    fn tables_match_brute_force_on_random_neighbourhoods() {
        let mut seed = 7;
        for rule in [DiagonalRule::Strict, DiagonalRule::Faces, DiagonalRule::Unchecked] {
            for costs in [CostModel::GAME, CostModel::PRECISE] {
                let canon = Canon::new(rule, costs);
                for _ in 0..4000 {
                    let density = lcg(&mut seed) % 4;
                    let mut mask = 0;
                    for b in 0..27 {
                        if lcg(&mut seed) % 8 < density * 2 {
                            mask |= 1 << b;
                        }
                    }
                    mask &= !(1 << 13);
                    for (di, &d) in OFFSETS.iter().enumerate() {
                        // Only masks where `x` can be entered by `d`.
                        let m = mask & !(required_at(rule, di, -d).unwrap() | 1 << bit(-d.x, -d.y, -d.z));
                        let got = canon.successors(di, m);
                        for (ei, &e) in OFFSETS.iter().enumerate() {
                            assert_eq!(
                                got >> ei & 1 != 0,
                                survives(rule, &costs, d, e, m),
                                "{rule:?} d={d} e={e} {m:027b}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Tables built for one cost model serve every model of the same [`CostShape`]: on random
    /// valid models, the tables of the first model of each shape equal the model's own, and
    /// agree with the brute force of the model asking. Models of other shapes get other
    /// tables, and the shared tables of the two built-in models are one.
    #[test]
    fn models_of_one_shape_share_tables() {
        let tables = |c: &Canon| (c.natural, c.lanes.clone(), c.range, c.rows, c.relevant);
        let rules = [DiagonalRule::Strict, DiagonalRule::Faces, DiagonalRule::Unchecked];
        let mut seed = 11;
        let mut shapes: Vec<(CostShape, CostModel)> = Vec::new();
        let (mut served, mut brute_forced) = (0, 0);
        for _ in 0..400 {
            let face = 1 + u64::from(lcg(&mut seed) % 60);
            let edge = face + u64::from(lcg(&mut seed)) % (face + 1);
            let corner = edge + u64::from(lcg(&mut seed)) % (face + 1);
            let costs = CostModel { face, edge, corner };
            if costs.validate().is_err() {
                continue;
            }
            let shape = CostShape::of(&costs);
            let Some(&(_, first)) = shapes.iter().find(|(s, _)| *s == shape) else {
                shapes.push((shape, costs));
                continue;
            };
            for rule in rules {
                let (shared, own) = (Canon::new(rule, first), Canon::new(rule, costs));
                assert!(tables(&shared) == tables(&own), "{rule:?}: {first:?} and {costs:?} differ");
                if brute_forced < 30 {
                    for _ in 0..40 {
                        let mask = lcg(&mut seed) & lcg(&mut seed) & ALL & !(1 << 13);
                        for (di, &d) in OFFSETS.iter().enumerate() {
                            let m = mask & !(required_at(rule, di, -d).unwrap() | 1 << bit(-d.x, -d.y, -d.z));
                            let got = shared.successors(di, m);
                            for (ei, &e) in OFFSETS.iter().enumerate() {
                                assert_eq!(got >> ei & 1 != 0, survives(rule, &costs, d, e, m), "{rule:?} {costs:?}");
                            }
                        }
                    }
                    brute_forced += 1;
                }
            }
            served += 1;
        }
        assert!(shapes.len() >= 4 && served >= 100, "{} shapes, {served} models served", shapes.len());
        for rule in [DiagonalRule::Strict, DiagonalRule::Unchecked] {
            let differ =
                shapes.iter().filter(|(_, c)| tables(&Canon::new(rule, *c)) != tables(&Canon::new(rule, shapes[0].1)));
            assert!(differ.count() >= 1, "{rule:?}: every shape gave the same tables");
        }
        assert_eq!(CostShape::of(&CostModel::GAME), CostShape::of(&CostModel::PRECISE));
        let (game, precise) = (
            Canon::shared(DiagonalRule::Strict, CostModel::GAME),
            Canon::shared(DiagonalRule::Strict, CostModel::PRECISE),
        );
        assert!(Arc::ptr_eq(&game, &precise));
    }

    /// Tables prune exactly unless a natural move has a replacement as cheap: for every valid
    /// model without ties and for the ties that keep the canonical order (an edge move as dear
    /// as two face moves; a corner and a face move as dear as two edge moves), but not where an
    /// edge move costs as much as a corner move (all valid models with `face == edge` are such).
    #[test]
    fn ties_of_edge_and_corner_turn_the_pruning_off() {
        for rule in [DiagonalRule::Strict, DiagonalRule::Faces, DiagonalRule::Unchecked] {
            for (face, edge, corner) in
                [(10, 14, 17), (10, 20, 30), (10, 15, 20), (10, 12, 14), (6, 8, 8), (10, 10, 10)]
            {
                let costs = CostModel { face, edge, corner };
                assert!(costs.validate().is_ok());
                assert_eq!(Canon::new(rule, costs).prunes_exactly(), edge < corner, "{rule:?} {costs:?}");
            }
        }
        let mut seed = 3;
        for _ in 0..2000 {
            let face = 1 + u64::from(lcg(&mut seed) % 40);
            let costs = CostModel { face, edge: face + u64::from(lcg(&mut seed)) % (face + 1), corner: 0 };
            let costs = CostModel { corner: costs.edge + u64::from(lcg(&mut seed)) % (face + 1), ..costs };
            if costs.validate().is_ok() && costs.jump_exact() {
                assert!(Canon::new(DiagonalRule::Strict, costs).prunes_exactly(), "{costs:?}");
            }
        }
    }

    /// The memo of successors answers as the tables do, for the forced moves and all: for every
    /// direction, on masks seen before and new ones, more than it has entries (so that keys
    /// share entries), from several threads at once.
    #[test]
    fn remembered_forced_moves_match_the_tables() {
        let canon = Canon::new(DiagonalRule::Strict, CostModel::PRECISE);
        let mut seed = 5;
        // Sparse masks (a few blocked voxels), as near walls, where keys repeat.
        let masks: Vec<u32> =
            (0..3 * MEMO).map(|_| (lcg(&mut seed) & lcg(&mut seed) & lcg(&mut seed)) & ALL & !(1 << 13)).collect();
        std::thread::scope(|scope| {
            for t in 0..4 {
                let (canon, masks) = (&canon, &masks);
                scope.spawn(move || {
                    let mut forced = 0;
                    for round in 0..2 {
                        for (i, &mask) in masks.iter().enumerate() {
                            let d = (i * 7 + t) % MOVES;
                            let want = canon.forced_uncached(d, mask);
                            if mask & canon.relevant[d] == 0 {
                                assert_eq!(want, 0);
                            }
                            assert_eq!(canon.forced(d, mask), want, "d={d} {mask:027b} round {round}");
                            let all = (legal_moves(mask, DiagonalRule::Strict) & canon.natural[d]) | want;
                            assert_eq!(canon.successors(d, mask), all, "d={d} {mask:027b} round {round}");
                            forced += usize::from(want != 0);
                        }
                    }
                    assert!(forced > 1000, "only {forced} masks with a forced move");
                });
            }
        });
    }

    /// The scan pre-filter of jump point search ([`falling_edge`]) drops no forced move. Under
    /// the strict rule, for each face move and random settings of the 25 bits its candidates
    /// read, sparse to dense (the other bits set against the filter: behind the voxel free,
    /// beside it blocked), a move the tables force comes with a falling edge; for the cost
    /// shapes of random valid models that prune exactly.
    #[test]
    fn strict_face_moves_are_forced_only_past_an_obstacle_edge() {
        let mut seed = 99;
        let mut models = vec![CostModel::PRECISE];
        for _ in 0..4000 {
            let face = 1 + u64::from(lcg(&mut seed) % 40);
            let edge = face + u64::from(lcg(&mut seed)) % (face + 1);
            let corner = edge + u64::from(lcg(&mut seed)) % (face + 1);
            models.push(CostModel { face, edge, corner });
        }
        let (mut shapes, mut forced) = (Vec::new(), 0usize);
        for costs in models {
            let shape = CostShape::of(&costs);
            if costs.validate().is_err() || shapes.contains(&shape) {
                continue;
            }
            shapes.push(shape);
            let canon = Canon::new(DiagonalRule::Strict, costs);
            if !canon.prunes_exactly() {
                continue;
            }
            for (d, o) in OFFSETS.iter().enumerate().take(6) {
                let (behind, _, lateral) = FACE_PLANES[d];
                let parent = 1 << bit(-o.x, -o.y, -o.z);
                let read = canon.relevant[d] & !parent & !(1 << 13);
                let against = lateral & !read;
                for i in 0..40_000 {
                    let random = match i % 4 {
                        0 => lcg(&mut seed) & lcg(&mut seed) & lcg(&mut seed),
                        1 => lcg(&mut seed) & lcg(&mut seed),
                        2 => lcg(&mut seed),
                        _ => lcg(&mut seed) | lcg(&mut seed),
                    };
                    let mask = random & read | against;
                    debug_assert_eq!(mask & parent & behind, 0);
                    if canon.forced_uncached(d, mask) != 0 {
                        assert!(falling_edge(d, mask), "{costs:?} d={d} {mask:027b}");
                        forced += 1;
                    }
                }
            }
        }
        assert!(shapes.len() >= 3 && forced > 1000, "{} shapes, {forced} forced", shapes.len());
    }
}
