//! [`Regions`]: a coarse map of where the openings are. The free voxels of each 8^3 block
//! are cut into *pieces* (their 6-connected sets inside the block), and each piece knows the
//! pieces of the 26 neighbouring blocks that a legal move joins it to. A wall through a block
//! cuts it in two pieces; a window in the wall is a link between them (or, inside one block,
//! a piece wrapped round the wall's edge: blocks are small, so that such a piece stays small).
//! Built lazily: a block is labelled the first time one of its voxels is asked for, a piece's
//! links the first time they are asked for, and everything is kept until the world (or the
//! view of it) changes.
//!
//! Coordinates: voxel indices, as everywhere in the grid; a piece's [`centre`](Regions::centre)
//! is the voxel nearest the mean of its voxels (it may be blocked, for a piece that is not
//! convex).

use glam::{IVec3, UVec3};

use super::layer::CHUNK_SHIFT;
use super::moves::{DiagonalRule, OFFSETS, REQUIRED};
use super::pass::Pass;
use super::pieces::{NO_PIECE, label_pieces};
use super::scan::LATERAL;
use super::world::VoxelWorld;

/// Edge of a block in voxels, and its log2.
const BLOCK: i32 = 8;
const BLOCK_SHIFT: i32 = 3;
/// Voxels of a block.
const CELLS: usize = (BLOCK * BLOCK * BLOCK) as usize;
/// x-rows of a block (`lz * 8 + ly`).
const ROWS: usize = (BLOCK * BLOCK) as usize;

/// Block table entry: not labelled yet.
const UNSEEN: u32 = u32::MAX;
/// Block table entry: labelling it would pass the memory share (no pieces, ever).
const REFUSED: u32 = u32::MAX - 1;

/// Share of the world's [`Limits::max_search_bytes`](crate::Limits) the regions may hold
/// (one part in this many), beside the search tables they guide.
const MEMORY_SHARE: usize = 4;

/// One labelled block's pieces.
#[derive(Debug, Clone)]
struct BlockPieces {
    /// Index of its first piece in [`Regions::pieces`].
    first: u32,
    /// Number of pieces (0: nothing free).
    count: u32,
    /// How its voxels map to pieces.
    voxels: Voxels,
}

/// Which piece each voxel of a block is in.
#[derive(Debug, Clone)]
enum Voxels {
    /// Every voxel is free: all in the first piece.
    Free,
    /// One piece: the free voxels, as x-rows of blocked bits (`lz * 8 + ly`).
    Rows(Box<[u8; ROWS]>),
    /// Several pieces: a piece index per voxel (`(lz * 8 + ly) * 8 + lx`, [`NO_PIECE`]
    /// blocked).
    Labels(Box<[u16; CELLS]>),
}

/// One piece: its centre and, once asked for, the pieces it is linked to.
#[derive(Debug, Clone)]
struct Piece {
    centre: IVec3,
    links: Option<Box<[u32]>>,
}

impl BlockPieces {
    /// The piece of the voxel at local coordinates `l` (inside the world), `None` if blocked.
    #[inline]
    fn piece(&self, l: IVec3) -> Option<u32> {
        match &self.voxels {
            _ if self.count == 0 => None,
            Voxels::Free => Some(self.first),
            Voxels::Rows(rows) => (rows[(l.z * BLOCK + l.y) as usize] >> l.x & 1 == 0).then_some(self.first),
            Voxels::Labels(labels) => {
                let k = labels[((l.z * BLOCK + l.y) * BLOCK + l.x) as usize];
                (k != NO_PIECE).then(|| self.first + u32::from(k))
            }
        }
    }

    /// The free voxels of the block's face across `axis` at local coordinate `at`, within
    /// `extent` (the block's size inside the world): row `w`, bit `u`, for the other two axes
    /// `(u, w)` in [`LATERAL`] order.
    fn face(&self, axis: usize, at: i32, extent: IVec3) -> [u8; BLOCK as usize] {
        let (u_axis, w_axis) = LATERAL[axis];
        let mut out = [0u8; BLOCK as usize];
        if self.count == 0 {
            return out;
        }
        if let Voxels::Free = self.voxels {
            let full = ((1u32 << extent[u_axis]) - 1) as u8;
            out.iter_mut().take(extent[w_axis] as usize).for_each(|row| *row = full);
            return out;
        }
        for (w, row) in out.iter_mut().enumerate().take(extent[w_axis] as usize) {
            for u in 0..extent[u_axis] {
                let mut l = IVec3::ZERO;
                (l[axis], l[u_axis], l[w_axis]) = (at, u, w as i32);
                *row |= u8::from(self.piece(l).is_some()) << u;
            }
        }
        out
    }
}

/// The world's free space as pieces of blocks and the links between them, for one view
/// ([`Pass`] and diagonal rule) of one state of one world. See the module's docs.
#[derive(Debug, Default, Clone)]
pub(crate) struct Regions {
    /// The world's lineage, revision and dims, the pass and the rule the pieces are for.
    key: Option<(u64, u64, UVec3, Pass, DiagonalRule)>,
    block_dims: IVec3,
    /// Per block: [`UNSEEN`], [`REFUSED`] or an index into `blocks`.
    table: Vec<u32>,
    blocks: Vec<BlockPieces>,
    /// The block of each piece (an index into `table`) and the piece.
    pieces: Vec<(u32, Piece)>,
    /// Bytes held by the blocks' voxel maps and the pieces' links.
    bytes: usize,
}

impl Regions {
    /// Makes the regions describe `world` seen through `pass` and `rule`: kept if they
    /// already do, else emptied (to be built again as asked).
    pub(crate) fn prepare(&mut self, world: &VoxelWorld, pass: Pass, rule: DiagonalRule) {
        let key = (world.lineage(), world.revision(), world.dims(), pass, rule);
        // Past half the memory share the regions start afresh, so that one query has at least
        // that half to itself.
        let half = world.limits().max_search_bytes / MEMORY_SHARE / 2;
        if self.key == Some(key) && self.heap_bytes() <= half {
            return;
        }
        self.key = Some(key);
        self.block_dims = (world.dims().as_ivec3() + BLOCK - 1) >> BLOCK_SHIFT;
        let d = self.block_dims;
        let blocks = d.x as usize * d.y as usize * d.z as usize;
        self.table = Vec::new();
        // A table past the memory share (a vast world, or a tight limit): no regions, every
        // voxel's piece unknown.
        if blocks.saturating_mul(4) <= world.limits().max_search_bytes / MEMORY_SHARE {
            self.table.resize(blocks, UNSEEN);
        }
        self.blocks.clear();
        self.pieces.clear();
        self.bytes = 0;
    }

    /// Number of pieces labelled so far (piece ids are below it).
    pub(crate) fn len(&self) -> usize {
        self.pieces.len()
    }

    /// A key of piece `p` that does not depend on the order blocks were labelled in: its
    /// block's index, then its index among the block's pieces.
    pub(crate) fn order(&self, p: u32) -> u64 {
        let (block, _) = &self.pieces[p as usize];
        let first = self.blocks[self.table[*block as usize] as usize].first;
        u64::from(*block) << 16 | u64::from(p - first)
    }

    /// The centre of piece `p`.
    pub(crate) fn centre(&self, p: u32) -> IVec3 {
        self.pieces[p as usize].1.centre
    }

    /// The piece of voxel `v`: `None` if it is outside, blocked, or its block could not be
    /// labelled within the memory share.
    pub(crate) fn piece(&mut self, world: &VoxelWorld, v: IVec3) -> Option<u32> {
        if !world.contains(v) {
            return None;
        }
        let entry = self.block(world, v >> BLOCK_SHIFT)?;
        self.blocks[entry as usize].piece(v & (BLOCK - 1))
    }

    /// The pieces linked to piece `p` (each once, `p` not among them): `None` if a
    /// neighbouring block could not be labelled within the memory share.
    pub(crate) fn links(&mut self, world: &VoxelWorld, p: u32) -> Option<&[u32]> {
        if self.pieces[p as usize].1.links.is_none() {
            self.link_block(world, self.pieces[p as usize].0)?;
        }
        self.pieces[p as usize].1.links.as_deref()
    }

    /// Bytes of heap held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.table.capacity() * 4
            + self.blocks.capacity() * std::mem::size_of::<BlockPieces>()
            + self.pieces.capacity() * std::mem::size_of::<(u32, Piece)>()
            + self.bytes
    }

    fn block_index(&self, b: IVec3) -> usize {
        ((b.z * self.block_dims.y + b.y) * self.block_dims.x + b.x) as usize
    }

    /// The entry of block `b` (inside the world), labelling it if it was not.
    fn block(&mut self, world: &VoxelWorld, b: IVec3) -> Option<u32> {
        let index = self.block_index(b);
        match *self.table.get(index)? {
            REFUSED => None,
            UNSEEN => {
                let entry = self.label(world, b);
                self.table[index] = entry.unwrap_or(REFUSED);
                entry
            }
            entry => Some(entry),
        }
    }

    /// Labels block `b` into pieces; `None` past the memory share.
    fn label(&mut self, world: &VoxelWorld, b: IVec3) -> Option<u32> {
        let (pass, limit) = (self.key.expect("prepared").3, world.limits().max_search_bytes / MEMORY_SHARE);
        let dims = world.dims().as_ivec3();
        let base = b << BLOCK_SHIFT;
        let top = (base + BLOCK).min(dims) - 1;
        let inside = top - base == IVec3::splat(BLOCK - 1);
        let mut rows = [0u8; ROWS];
        if !(inside && world.chunk_free(base >> CHUNK_SHIFT, pass)) {
            for (r, row) in rows.iter_mut().enumerate() {
                let (y, z) = (base.y + (r as i32 & 7), base.z + (r as i32 >> 3));
                // Outside the world: blocked (the row's bits past the world's x end are set).
                *row = if y < dims.y && z < dims.z {
                    (world.blocked_row16(base.x >> CHUNK_SHIFT, y, z, pass) >> (base.x & 8)) as u8
                } else {
                    u8::MAX
                };
            }
        }
        let (voxels, count, centres) = if rows.iter().all(|&r| r == u8::MAX) {
            (Voxels::Free, 0, Vec::new())
        } else if rows.iter().all(|&r| r == 0) {
            (Voxels::Free, 1, vec![(base + top) / 2])
        } else {
            let mut labels = Box::new([0; CELLS]);
            let count = label_pieces::<{ BLOCK as usize }>(&rows.map(u16::from), &mut labels[..]);
            // Each piece's sum of local coordinates and its voxel count.
            let mut sums = vec![(IVec3::ZERO, 0); count];
            for (i, &k) in labels.iter().enumerate() {
                if k != NO_PIECE {
                    let i = i as i32;
                    let sum = &mut sums[usize::from(k)];
                    sum.0 += IVec3::new(i & 7, i >> 3 & 7, i >> 6);
                    sum.1 += 1;
                }
            }
            let centres: Vec<IVec3> = sums.iter().map(|&(s, n)| base + (s * 2 + n) / (2 * n)).collect();
            if sums.len() == 1 {
                (Voxels::Rows(Box::new(rows)), 1, centres)
            } else {
                (Voxels::Labels(labels), sums.len(), centres)
            }
        };
        let bytes = match voxels {
            Voxels::Free => 0,
            Voxels::Rows(_) => ROWS,
            Voxels::Labels(_) => CELLS * 2,
        } + count * std::mem::size_of::<(u32, Piece)>();
        if self.heap_bytes() + bytes > limit {
            return None;
        }
        self.bytes += bytes;
        let block = self.block_index(b) as u32;
        let first = self.pieces.len() as u32;
        self.pieces.extend(centres.into_iter().map(|centre| (block, Piece { centre, links: None })));
        self.blocks.push(BlockPieces { first, count: count as u32, voxels });
        Some(self.blocks.len() as u32 - 1)
    }

    /// Whether diagonal move `m` from the free voxel `v` is legal under `rule`: every voxel the
    /// rule requires is free, the destination among them (read from the pieces, labelling the
    /// blocks they are in); `None` if a block could not be labelled within the memory share.
    fn move_legal(&mut self, world: &VoxelWorld, v: IVec3, m: usize, rule: DiagonalRule) -> Option<bool> {
        let mut required = REQUIRED[rule as usize][m];
        while required != 0 {
            let b = required.trailing_zeros() as i32;
            required &= required - 1;
            let u = v + IVec3::new(b % 3 - 1, b / 3 % 3 - 1, b / 9 - 1);
            if !world.contains(u) {
                return Some(false);
            }
            let entry = self.block(world, u >> BLOCK_SHIFT)?;
            if self.blocks[entry as usize].piece(u & (BLOCK - 1)).is_none() {
                return Some(false);
            }
        }
        Some(true)
    }

    /// Finds the links of every piece of the block with table index `index`: for each of the
    /// 26 neighbouring blocks, every pair of free voxels across the border that a legal move
    /// joins (across edges and corners, the voxels the rule requires free too). `None` (no
    /// links kept) if this block or one it reads could not be labelled within the memory
    /// share: links that miss a block would show a way round as a dead end.
    fn link_block(&mut self, world: &VoxelWorld, index: u32) -> Option<()> {
        let bd = self.block_dims;
        let i = index as i32;
        let b = IVec3::new(i % bd.x, (i / bd.x) % bd.y, i / (bd.x * bd.y));
        let rule = self.key.expect("prepared").4;
        let entry = self.block(world, b)?;
        let BlockPieces { first, count, .. } = self.blocks[entry as usize];
        let mut found: Vec<Vec<u32>> = vec![Vec::new(); count as usize];
        let base = b << BLOCK_SHIFT;
        for (m, &d) in OFFSETS.iter().enumerate() {
            let nb = b + d;
            if nb.cmplt(IVec3::ZERO).any() || nb.cmpge(bd).any() {
                continue;
            }
            let other = self.block(world, nb)?;
            if self.blocks[other as usize].count == 0 {
                continue;
            }
            let (this, that) = (&self.blocks[entry as usize], &self.blocks[other as usize]);
            let mut pairs = Vec::new();
            if d.abs().element_sum() == 1 {
                // Across a face: the free voxels of both faces, a row at a time. A face move
                // between free voxels is always legal; two blocks of one piece each need one
                // pair.
                let axis = d.abs().max_position();
                let (at, other_at) = if d[axis] > 0 { (BLOCK - 1, 0) } else { (0, BLOCK - 1) };
                let extent = (world.dims().as_ivec3() - base).min(IVec3::splat(BLOCK));
                let (mine, theirs) = (this.face(axis, at, extent), that.face(axis, other_at, extent));
                let (u_axis, w_axis) = LATERAL[axis];
                'face: for (w, (a, b)) in mine.iter().zip(&theirs).enumerate() {
                    let mut both = a & b;
                    while both != 0 {
                        let mut l = IVec3::ZERO;
                        (l[axis], l[u_axis], l[w_axis]) = (at, both.trailing_zeros() as i32, w as i32);
                        both &= both - 1;
                        let mut n = l;
                        n[axis] = other_at;
                        let (Some(a), Some(b)) = (this.piece(l), that.piece(n)) else { continue };
                        let list = &mut found[(a - first) as usize];
                        if !list.contains(&b) {
                            list.push(b);
                        }
                        if this.count == 1 && that.count == 1 {
                            break 'face;
                        }
                    }
                }
            } else {
                // Across an edge or a corner: the pairs of free voxels, each move checked.
                let range = |a: usize| {
                    if d[a] < 0 {
                        0..=0
                    } else if d[a] > 0 {
                        BLOCK - 1..=BLOCK - 1
                    } else {
                        0..=BLOCK - 1
                    }
                };
                for z in range(2) {
                    for y in range(1) {
                        for x in range(0) {
                            let l = IVec3::new(x, y, z);
                            let (v, n) = (base + l, base + l + d);
                            if !world.contains(v) || !world.contains(n) {
                                continue;
                            }
                            if let (Some(a), Some(b)) = (this.piece(l), that.piece(n & (BLOCK - 1))) {
                                pairs.push((v, a, b));
                            }
                        }
                    }
                }
            }
            for (v, a, b) in pairs {
                if found[(a - first) as usize].contains(&b) || !self.move_legal(world, v, m, rule)? {
                    continue;
                }
                found[(a - first) as usize].push(b);
            }
        }
        for (k, list) in found.into_iter().enumerate() {
            self.bytes += list.len() * 4;
            self.pieces[(first as usize) + k].1.links = Some(list.into_boxed_slice());
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::medium::{Media, Voxel};
    use glam::Vec3;

    /// A wall across a world cuts the blocks it passes through in two pieces, linked across
    /// the wall only where a window is; a piece's links are symmetric and every link joins
    /// pieces that a voxel-level flood finds connected through that border.
    #[test]
    fn a_wall_cuts_pieces_and_a_window_links_them() {
        let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(48, 40, 40)).unwrap();
        world.fill_voxels(IVec3::new(20, 0, 0), IVec3::new(20, 39, 39), Voxel::Solid).unwrap();
        world.fill_voxels(IVec3::new(20, 3, 3), IVec3::new(20, 4, 4), Voxel::Air).unwrap();
        let mut regions = Regions::default();
        let pass = Pass::new(&Media::ANY);
        regions.prepare(&world, pass, DiagonalRule::Strict);
        let (west, east) = (IVec3::new(18, 30, 30), IVec3::new(22, 30, 30));
        let (a, b) = (regions.piece(&world, west).unwrap(), regions.piece(&world, east).unwrap());
        assert_ne!(a, b, "the wall cuts its block");
        assert!(!regions.links(&world, a).unwrap().contains(&b), "no opening here");
        assert_eq!(regions.piece(&world, IVec3::new(20, 30, 30)), None, "the wall is blocked");
        let (wa, wb) = (
            regions.piece(&world, IVec3::new(19, 3, 3)).unwrap(),
            regions.piece(&world, IVec3::new(21, 3, 3)).unwrap(),
        );
        // Same block (16..24 on x): the window joins the two sides inside it, one piece.
        assert_eq!(wa, wb);
        for p in 0..regions.len() as u32 {
            for &q in regions.links(&world, p).unwrap().to_vec().iter() {
                assert!(regions.links(&world, q).unwrap().contains(&p), "{p} -> {q} one way");
                assert_ne!(p, q);
            }
        }
        // Prepared again for the same world: kept; after an edit: emptied.
        let len = regions.len();
        regions.prepare(&world, pass, DiagonalRule::Strict);
        assert_eq!(regions.len(), len);
        world.set(IVec3::new(20, 30, 30), Voxel::Air).unwrap();
        regions.prepare(&world, pass, DiagonalRule::Strict);
        assert_eq!(regions.len(), 0);
        assert_eq!(regions.piece(&world, west), regions.piece(&world, east), "opened");
    }

    /// A diagonal link across a chunk's corner is made only when the diagonal rule allows the
    /// move: under the strict rule a blocked edge voxel refuses it.
    #[test]
    fn corner_links_follow_the_diagonal_rule() {
        let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(32)).unwrap();
        world.fill_voxels(IVec3::ZERO, IVec3::splat(31), Voxel::Solid).unwrap();
        world.set(IVec3::splat(15), Voxel::Air).unwrap();
        world.set(IVec3::splat(16), Voxel::Air).unwrap();
        let pass = Pass::new(&Media::ANY);
        for (rule, linked) in [(DiagonalRule::Strict, false), (DiagonalRule::Unchecked, true)] {
            let mut regions = Regions::default();
            regions.prepare(&world, pass, rule);
            let a = regions.piece(&world, IVec3::splat(15)).unwrap();
            let b = regions.piece(&world, IVec3::splat(16)).unwrap();
            assert_eq!(regions.links(&world, a).unwrap().contains(&b), linked, "{rule:?}");
        }
    }

    /// Past the memory share nothing is labelled, and nothing fails; a block table past it is
    /// not allocated.
    #[test]
    fn the_memory_share_is_kept() {
        let limits = crate::Limits { max_search_bytes: 4 * 1024, ..crate::Limits::DEFAULT };
        let mut world = VoxelWorld::with_limits(Vec3::ZERO, 1.0, UVec3::splat(64), limits).unwrap();
        world.fill_voxels(IVec3::new(5, 0, 0), IVec3::new(5, 63, 63), Voxel::Solid).unwrap();
        let mut regions = Regions::default();
        regions.prepare(&world, Pass::new(&Media::ANY), DiagonalRule::Strict);
        assert_eq!(regions.piece(&world, IVec3::new(1, 1, 1)), None);
        assert!(regions.heap_bytes() <= 4 * 1024 / MEMORY_SHARE + 8 * 8 * 8 * 4);
        // A world of 2^36 voxels, nearly all empty: 2^27 blocks would take 512 MB of table.
        let vast = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::splat(4096)).unwrap();
        regions.prepare(&vast, Pass::new(&Media::ANY), DiagonalRule::Strict);
        assert_eq!(regions.piece(&vast, IVec3::splat(7)), None);
        assert!(regions.heap_bytes() < 1024, "{}", regions.heap_bytes());
    }
}
