//! [`Components`]: connectivity labels ("islands") of a world's free space, so a query for a
//! goal in another component is answered at once, with no node expanded.

use glam::IVec3;

use super::layer::{CHUNK, CHUNK_MASK, CHUNK_SHIFT};
use super::moves::DiagonalRule;
use super::pass::Pass;
use super::pieces::label_pieces;
use super::scan::{ROWS, read_chunk_rows};
use super::world::VoxelWorld;
use crate::error::WorldError;
use crate::medium::Media;

/// Chunk entry: no free voxel.
const BLOCKED: u32 = u32::MAX;
/// Chunk entry flag: several components; the low bits index `locals`.
const SPLIT: u32 = 1 << 31;

/// The connected components of the free space of a [`VoxelWorld`] for one set of [`Media`]
/// and one diagonal rule (by default the strict one): two voxels are in the same component
/// exactly when a path joins them. (Under the strict rule a diagonal move's whole bounding box
/// is free, so face moves connect the same voxels: components are the 6-connected ones. For
/// the other rules see [`with_rule`](Self::with_rule).)
///
/// Labels are sparse: one per 16^3 chunk whose free voxels are all connected inside it, and a
/// byte per voxel only for chunks cut into several pieces (see
/// [`memory_bytes`](Self::memory_bytes)). Building reads the whole world once, skipping chunks
/// the chunk table shows free; most of its time is labelling the chunks that hold geometry. [`update`](Self::update) rebuilds after the world
/// was edited; until then the labels are *stale* and every query ignores them (searching as
/// usual), so they are never wrong for a world edited through its API. Keep one `Components`
/// per world: they recognise their world by its [`revision`](VoxelWorld::revision) and size.
///
/// # Examples
/// ```
/// use glam::IVec3;
/// use voxnav::{Components, Media, PathError, PathRequest, Pathfinder, SearchConfig, Voxel, VoxelWorld};
/// let mut world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::splat(40)).unwrap();
/// world.fill_voxels(IVec3::new(20, 0, 0), IVec3::new(20, 39, 39), Voxel::Solid).unwrap(); // sealed halves
/// let mut islands = Components::new(&world, Media::ANY).unwrap();
/// let (a, b) = (IVec3::new(2, 2, 2), IVec3::new(30, 2, 2));
/// assert_eq!(islands.connected(&world, a, b), Some(false));
/// let mut finder = Pathfinder::new();
/// let config = SearchConfig::default();
/// let err = finder.find(&world, Some(&islands), &PathRequest::new(a, b, config)).unwrap_err();
/// assert_eq!(err, PathError::Unreachable { expanded: 0 }); // no search at all
///
/// world.set(IVec3::new(20, 5, 5), Voxel::Air).unwrap(); // open a hole
/// assert_eq!(islands.connected(&world, a, b), None); // stale: refresh first
/// assert!(islands.update(&world).unwrap());
/// assert_eq!(islands.connected(&world, a, b), Some(true));
/// assert!(finder.find(&world, Some(&islands), &PathRequest::new(a, b, config)).is_ok());
/// ```
#[derive(Debug, Clone)]
pub struct Components {
    media: Media,
    pass: Pass,
    rule: DiagonalRule,
    revision: u64,
    /// The [`VoxelWorld::lineage`] the labels were built for.
    lineage: u64,
    dims: IVec3,
    chunk_dims: IVec3,
    /// Per chunk: [`BLOCKED`], a label, or [`SPLIT`] | index into `locals`.
    chunks: Vec<u32>,
    /// Per split chunk: the label of each local piece, and a piece index per voxel
    /// ([`NO_PIECE`](super::pieces::NO_PIECE): blocked). A 16^3 chunk has at most 2,048 pieces, so `u16` holds them all.
    locals: Vec<(Vec<u32>, Box<[u16]>)>,
    count: usize,
}

/// Union-find over chunk pieces.
struct Union(Vec<u32>);

impl Union {
    fn find(&mut self, mut a: u32) -> u32 {
        while self.0[a as usize] != a {
            let p = self.0[self.0[a as usize] as usize];
            self.0[a as usize] = p;
            a = p;
        }
        a
    }
    fn join(&mut self, a: u32, b: u32) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            let (lo, hi) = (a.min(b), a.max(b));
            self.0[hi as usize] = lo;
        }
    }
}

impl Components {
    /// Labels the components of `world`'s voxels that `media` allows, under the strict diagonal
    /// rule (the default).
    ///
    /// # Errors
    /// [`WorldError::MemoryLimit`] if the labels' tables would pass the world's
    /// [`Limits::max_search_bytes`](crate::Limits) (checked before allocating them).
    pub fn new(world: &VoxelWorld, media: Media) -> Result<Self, WorldError> {
        Self::with_rule(world, media, DiagonalRule::Strict)
    }

    /// Labels the components under another diagonal rule; such labels apply only to searches
    /// with that rule. With [`DiagonalRule::Unchecked`] any diagonal between two free voxels
    /// joins them, and labels are exact as under the strict rule. With [`DiagonalRule::Faces`]
    /// a corner move can join voxels that no face-connected path does, but it may have no way
    /// back (moving back needs the other three voxels of the cube free): the labels join a
    /// corner move's ends either way, so different labels still mean "unreachable", while the
    /// same label only means "maybe". Building costs more than under the strict rule (the
    /// diagonals are checked around every chunk that holds geometry, at every build and
    /// update).
    ///
    /// # Errors
    /// As [`new`](Self::new).
    pub fn with_rule(world: &VoxelWorld, media: Media, rule: DiagonalRule) -> Result<Self, WorldError> {
        let mut c = Self {
            media,
            rule,
            pass: Pass::new(&media),
            revision: 0,
            lineage: 0,
            dims: IVec3::ZERO,
            chunk_dims: IVec3::ZERO,
            chunks: Vec::new(),
            locals: Vec::new(),
            count: 0,
        };
        c.check_memory(world)?;
        c.rebuild(world, false);
        Ok(c)
    }

    /// Rebuilds the labels if `world` changed since they were built; returns whether it did.
    /// For the same world object (not a clone or another world), chunks not edited since keep
    /// their local labelling and only the joins between chunks are redone, a fraction of a
    /// full build.
    ///
    /// # Errors
    /// As [`new`](Self::new) (for a larger world than before); the labels are then left as
    /// they were, stale, and searches ignore them.
    pub fn update(&mut self, world: &VoxelWorld) -> Result<bool, WorldError> {
        if self.is_current(world) {
            return Ok(false);
        }
        self.check_memory(world)?;
        let reuse = world.lineage() == self.lineage && world.dims().as_ivec3() == self.dims;
        self.rebuild(world, reuse);
        Ok(true)
    }

    /// Checks a build's tables against the world's limit: per 16^3 chunk, the label (4 bytes)
    /// and, while building, the first piece and piece count (8), a voxel-label pointer (16) and
    /// the six boundary faces (192); the per-voxel labels of split chunks are counted as they
    /// come (8 KB each, at most one per chunk that holds geometry).
    fn check_memory(&self, world: &VoxelWorld) -> Result<(), WorldError> {
        let chunks = world.chunk_count();
        let needed = chunks.saturating_mul(4 + 8 + 16 + 192);
        let limit = world.limits().max_search_bytes;
        if needed > limit {
            return Err(WorldError::MemoryLimit { needed, limit });
        }
        Ok(())
    }

    /// Whether the labels describe `world` as it is (same size, no edit since).
    #[must_use]
    pub fn is_current(&self, world: &VoxelWorld) -> bool {
        world.revision() == self.revision && world.dims().as_ivec3() == self.dims
    }

    /// The media these components are for.
    #[must_use]
    pub fn media(&self) -> Media {
        self.media
    }

    /// The diagonal rule these components are for.
    #[must_use]
    pub fn rule(&self) -> DiagonalRule {
        self.rule
    }

    /// Number of components.
    #[must_use]
    pub fn count(&self) -> usize {
        self.count
    }

    /// Bytes of heap held: 4 per chunk, plus about 8 KB per chunk cut into several pieces.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.chunks.capacity() * 4
            + self.locals.capacity() * std::mem::size_of::<(Vec<u32>, Box<[u16]>)>()
            + self.locals.iter().map(|(l, v)| l.capacity() * 4 + v.len()).sum::<usize>()
    }

    /// Labels `world`; with `reuse`, chunks not edited since the last build take their local
    /// pieces from it instead of labelling their voxels again.
    fn rebuild(&mut self, world: &VoxelWorld, reuse: bool) {
        let since = self.revision;
        let old_chunks = std::mem::take(&mut self.chunks);
        let mut old_locals = std::mem::take(&mut self.locals);
        self.revision = world.revision();
        self.lineage = world.lineage();
        self.dims = world.dims().as_ivec3();
        self.chunk_dims = (self.dims + CHUNK_MASK) >> CHUNK_SHIFT;
        let cd = self.chunk_dims;
        let n = cd.x as usize * cd.y as usize * cd.z as usize;
        // Pieces: per chunk its first node and piece count; labels per voxel for split chunks.
        let mut first = vec![0u32; n];
        let mut pieces_of = vec![0u32; n];
        let mut voxel_pieces: Vec<Option<Box<[u16]>>> = vec![None; n];
        // Boundary faces, for joining neighbours: per chunk its 6 faces' free bits.
        let mut nodes = 0u32;
        let mut faces: Vec<[[u16; 16]; 6]> = vec![[[0; 16]; 6]; n];
        for cz in 0..cd.z {
            for cy in 0..cd.y {
                for cx in 0..cd.x {
                    let cc = IVec3::new(cx, cy, cz);
                    let i = self.chunk_index(cc);
                    first[i] = nodes;
                    // The chunk's entry of the last build, if it still holds.
                    let old = (reuse && world.chunk_edited(i) <= since).then(|| old_chunks[i]);
                    if old == Some(BLOCKED) {
                        continue;
                    }
                    if world.chunk_free(cc, self.pass) {
                        faces[i] = [[u16::MAX; 16]; 6];
                        pieces_of[i] = 1;
                        nodes += 1;
                        continue;
                    }
                    let rows = read_chunk_rows(world, self.pass, cc);
                    if old.is_none() && rows.iter().all(|&r| r == u16::MAX) {
                        continue;
                    }
                    let f = &mut faces[i];
                    for a in 0..16 {
                        for b in 0..16 {
                            // -x / +x faces: rows (ly=a, lz=b), bits 0 / 15.
                            let r = !rows[b * 16 + a];
                            f[0][b] |= (r & 1) << a;
                            f[1][b] |= (r >> 15 & 1) << a;
                        }
                        // -y / +y faces: rows ly = 0 / 15 at lz = a: bits x.
                        f[2][a] = !rows[a * 16];
                        f[3][a] = !rows[a * 16 + 15];
                        // -z / +z faces: rows lz = 0 / 15 at ly = a.
                        f[4][a] = !rows[a];
                        f[5][a] = !rows[15 * 16 + a];
                    }
                    match old {
                        Some(e) if e & SPLIT != 0 => {
                            let (table, labels) = std::mem::take(&mut old_locals[(e & !SPLIT) as usize]);
                            pieces_of[i] = table.len() as u32;
                            nodes += table.len() as u32;
                            voxel_pieces[i] = Some(labels);
                            continue;
                        }
                        Some(_) => {
                            pieces_of[i] = 1;
                            nodes += 1;
                            continue;
                        }
                        None => {}
                    }
                    if rows.iter().all(|&r| r == 0) {
                        pieces_of[i] = 1;
                        nodes += 1;
                        continue;
                    }
                    let mut labels = vec![0; ROWS * 16].into_boxed_slice();
                    let pieces = label_pieces::<16>(&rows, &mut labels);
                    pieces_of[i] = pieces as u32;
                    nodes += pieces as u32;
                    if pieces > 1 {
                        voxel_pieces[i] = Some(labels);
                    }
                }
            }
        }
        let mut union = Union((0..nodes).collect());
        let piece = |i: usize, l: IVec3, vp: &[Option<Box<[u16]>>]| -> u32 {
            match &vp[i] {
                None => first[i],
                Some(labels) => first[i] + u32::from(labels[((l.z * 16 + l.y) * 16 + l.x) as usize]),
            }
        };
        for cz in 0..cd.z {
            for cy in 0..cd.y {
                for cx in 0..cd.x {
                    let cc = IVec3::new(cx, cy, cz);
                    let i = self.chunk_index(cc);
                    if pieces_of[i] == 0 {
                        continue;
                    }
                    for axis in 0..3 {
                        let mut nc = cc;
                        nc[axis] += 1;
                        if nc[axis] >= cd[axis] {
                            continue;
                        }
                        let j = self.chunk_index(nc);
                        if pieces_of[j] == 0 {
                            continue;
                        }
                        let (fa, fb) = (&faces[i][axis * 2 + 1], &faces[j][axis * 2]);
                        if voxel_pieces[i].is_none() && voxel_pieces[j].is_none() {
                            if fa.iter().zip(fb).any(|(a, b)| a & b != 0) {
                                union.join(first[i], first[j]);
                            }
                            continue;
                        }
                        for (row, (a, b)) in fa.iter().zip(fb).enumerate() {
                            let mut both = a & b;
                            while both != 0 {
                                let col = both.trailing_zeros() as i32;
                                both &= both - 1;
                                // Face coordinates back to local voxels.
                                let (la, lb) = match axis {
                                    0 => (IVec3::new(15, col, row as i32), IVec3::new(0, col, row as i32)),
                                    1 => (IVec3::new(col, 15, row as i32), IVec3::new(col, 0, row as i32)),
                                    _ => (IVec3::new(col, row as i32, 15), IVec3::new(col, row as i32, 0)),
                                };
                                union.join(piece(i, la, &voxel_pieces), piece(j, lb, &voxel_pieces));
                            }
                        }
                    }
                }
            }
        }
        if self.rule != DiagonalRule::Strict {
            self.join_diagonals(world, &mut union, &pieces_of, &|i, l| piece(i, l, &voxel_pieces));
        }
        // Dense labels in first-seen order: deterministic.
        let mut dense = vec![u32::MAX; nodes as usize];
        let mut count = 0u32;
        let mut label_of = |node: u32, union: &mut Union| -> u32 {
            let root = union.find(node) as usize;
            if dense[root] == u32::MAX {
                dense[root] = count;
                count += 1;
            }
            dense[root]
        };
        self.chunks = vec![BLOCKED; n];
        self.locals.clear();
        for i in 0..n {
            match (pieces_of[i], voxel_pieces[i].take()) {
                (0, _) => {}
                (_, None) => self.chunks[i] = label_of(first[i], &mut union),
                (p, Some(labels)) => {
                    let table = (0..p).map(|k| label_of(first[i] + k, &mut union)).collect();
                    self.chunks[i] = SPLIT | self.locals.len() as u32;
                    self.locals.push((table, labels));
                }
            }
        }
        self.count = count as usize;
    }

    #[inline]
    fn chunk_index(&self, c: IVec3) -> usize {
        ((c.z * self.chunk_dims.y + c.y) * self.chunk_dims.x + c.x) as usize
    }

    /// The component of voxel `v`: `None` if `v` is outside, blocked for the media, or the
    /// labels are stale (see [`update`](Self::update)).
    #[must_use]
    pub fn label(&self, world: &VoxelWorld, v: IVec3) -> Option<u32> {
        if !self.is_current(world) || !world.contains(v) || !world.passable(v, self.pass) {
            return None;
        }
        let entry = self.chunks[self.chunk_index(v >> CHUNK_SHIFT)];
        if entry == BLOCKED {
            return None;
        }
        if entry & SPLIT == 0 {
            return Some(entry);
        }
        let (table, labels) = &self.locals[(entry & !SPLIT) as usize];
        let l = v & CHUNK_MASK;
        let piece = labels[((l.z * 16 + l.y) * 16 + l.x) as usize];
        table.get(usize::from(piece)).copied()
    }

    /// Whether a path joins `a` and `b` (both free for the media): `Some(true)` or
    /// `Some(false)`, or `None` if either is blocked or outside, or the labels are stale.
    #[must_use]
    pub fn connected(&self, world: &VoxelWorld, a: IVec3, b: IVec3) -> Option<bool> {
        Some(self.label(world, a)? == self.label(world, b)?)
    }

    /// Whether these labels describe `world` as seen by an agent with `media` moving under
    /// `rule`: current, same media, same diagonal rule.
    #[must_use]
    pub fn describes(&self, world: &VoxelWorld, media: &Media, rule: DiagonalRule) -> bool {
        self.is_current(world) && Pass::new(media) == self.pass && rule == self.rule
    }

    /// Joins the pieces that a diagonal move legal under the (non-strict) rule connects: under
    /// the strict rule a diagonal's whole box is free, so face moves already join its ends.
    /// Chunks whose 26 neighbours and themselves are all free are skipped (everything around
    /// them is one piece already), and inside a chunk of one piece only moves that leave it
    /// are checked.
    fn join_diagonals(
        &self,
        world: &VoxelWorld,
        union: &mut Union,
        pieces_of: &[u32],
        piece: &dyn Fn(usize, IVec3) -> u32,
    ) {
        // One of each pair of opposite diagonals; under `Faces` only corner moves add joins.
        let moves: Vec<IVec3> = crate::grid::moves::OFFSETS
            .iter()
            .copied()
            .filter(|d| {
                let axes = d.abs().element_sum();
                let first = [d.x, d.y, d.z].into_iter().find(|&c| c != 0).unwrap_or(0);
                first > 0 && axes >= if self.rule == DiagonalRule::Faces { 3 } else { 2 }
            })
            .collect();
        let cd = self.chunk_dims;
        let mut last = (u32::MAX, u32::MAX);
        for cz in 0..cd.z {
            for cy in 0..cd.y {
                for cx in 0..cd.x {
                    let cc = IVec3::new(cx, cy, cz);
                    let i = self.chunk_index(cc);
                    if pieces_of[i] == 0 || world.chunks_around_free(cc, self.pass) {
                        continue;
                    }
                    let one_piece = pieces_of[i] == 1;
                    let mut joined = 0u32; // neighbour chunks of one piece already joined
                    let base = cc << CHUNK_SHIFT;
                    // Free voxels of the chunk and a one-voxel halo: halo[z + 1][y + 1] bit
                    // `x + 1` for local (x, y, z) in -1..=16 (outside the world: blocked).
                    let mut halo = [[0u32; CHUNK as usize + 2]; CHUNK as usize + 2];
                    for (hz, plane) in halo.iter_mut().enumerate() {
                        for (hy, row) in plane.iter_mut().enumerate() {
                            let (y, z) = (base.y + hy as i32 - 1, base.z + hz as i32 - 1);
                            if y < 0 || z < 0 || y >= self.dims.y || z >= self.dims.z {
                                continue;
                            }
                            let free = |cx: i32| -> u64 {
                                if cx < 0 || cx >= self.chunk_dims.x {
                                    0
                                } else {
                                    u64::from(!world.blocked_row16(cx, y, z, self.pass))
                                }
                            };
                            let wide = free(cx - 1) | free(cx) << 16 | free(cx + 1) << 32;
                            *row = (wide >> 15) as u32 & 0x3_FFFF;
                        }
                    }
                    // Free voxels (local x + dx, y, z) for x in 0..16.
                    let free16 = |dx: i32, y: i32, z: i32| -> u16 {
                        (halo[(z + 1) as usize][(y + 1) as usize] >> (1 + dx)) as u16
                    };
                    for lz in 0..CHUNK {
                        for ly in 0..CHUNK {
                            let (y, z) = (ly, lz);
                            let here = free16(0, y, z);
                            if here == 0 {
                                continue;
                            }
                            for &d in &moves {
                                let mut cand = here & free16(d.x, y + d.y, z + d.z);
                                if self.rule == DiagonalRule::Faces {
                                    // A corner move needs the three face neighbours of where it
                                    // starts: from `a`, or (moving back) from `a + d`.
                                    let (x0, x1) = (0, d.x);
                                    let (y1, z1) = (y + d.y, z + d.z);
                                    let forward = free16(x1, y, z) & free16(x0, y1, z) & free16(x0, y, z1);
                                    let back = free16(x0, y1, z1) & free16(x1, y, z1) & free16(x1, y1, z);
                                    cand &= forward | back;
                                }
                                let (ny, nz) = (ly + d.y, lz + d.z);
                                if one_piece && (0..CHUNK).contains(&ny) && (0..CHUNK).contains(&nz) {
                                    // Same chunk rows: only the move out of the chunk along x.
                                    cand &= match d.x {
                                        1 => 1 << 15,
                                        -1 => 1,
                                        _ => 0,
                                    };
                                }
                                // By destination chunk (`d.x` is 0 or 1): bits 0..=14, and bit 15.
                                let (oy, oz) = (ny.div_euclid(CHUNK), nz.div_euclid(CHUNK));
                                let groups = if d.x == 1 {
                                    [(cand & 0x7FFF, 0), (cand & 0x8000, 1)]
                                } else {
                                    [(cand, 0), (0, 0)]
                                };
                                for (mut bits, ox) in groups {
                                    if bits == 0 {
                                        continue;
                                    }
                                    let o = IVec3::new(ox, oy, oz);
                                    let j = self.chunk_index(cc + o);
                                    if one_piece && pieces_of[j] == 1 {
                                        // Two chunks of one piece each: join them once.
                                        let k = 1u32 << ((o.z + 1) * 9 + (o.y + 1) * 3 + (o.x + 1));
                                        if joined & k == 0 {
                                            joined |= k;
                                            let lx = bits.trailing_zeros() as i32;
                                            let a = IVec3::new(lx, ly, lz);
                                            union.join(piece(i, a), piece(j, (base + a + d) & CHUNK_MASK));
                                        }
                                        continue;
                                    }
                                    while bits != 0 {
                                        let lx = bits.trailing_zeros() as i32;
                                        bits &= bits - 1;
                                        let a = IVec3::new(lx, ly, lz);
                                        let pair = (piece(i, a), piece(j, (base + a + d) & CHUNK_MASK));
                                        // Neighbouring candidates mostly join the same two pieces.
                                        if pair.0 != pair.1 && pair != last {
                                            union.join(pair.0, pair.1);
                                            last = pair;
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The inclusive voxel box of the chunk with index `i` (clipped to the world).
    fn chunk_box(&self, i: usize) -> (IVec3, IVec3) {
        let i = i as i32;
        let d = self.chunk_dims;
        let lo = IVec3::new(i % d.x, (i / d.x) % d.y, i / (d.x * d.y)) << CHUNK_SHIFT;
        (lo, (lo + CHUNK - 1).min(self.dims - 1))
    }

    /// The voxel of component `label` least far from `goal` by `dist`, ties broken by the lowest
    /// `(z, y, x)`. `dist` must not decrease away from the goal along any axis (as the octile
    /// distance): chunks are visited nearest first, by the distance of their point nearest the
    /// goal, and the visit stops once that bound passes the best found.
    pub(crate) fn closest_by(
        &self,
        world: &VoxelWorld,
        label: u32,
        goal: IVec3,
        dist: impl Fn(IVec3) -> u64,
    ) -> Option<IVec3> {
        let mut candidates: Vec<(u64, usize)> = Vec::new();
        for (i, &entry) in self.chunks.iter().enumerate() {
            // BLOCKED has the SPLIT bit set too: test it first.
            let has = if entry == BLOCKED {
                false
            } else if entry & SPLIT == 0 {
                entry == label
            } else {
                self.locals[(entry & !SPLIT) as usize].0.contains(&label)
            };
            if has {
                let (lo, hi) = self.chunk_box(i);
                candidates.push((dist(goal.clamp(lo, hi)), i));
            }
        }
        candidates.sort_unstable();
        let mut best: Option<(u64, [i32; 3])> = None;
        for (bound, i) in candidates {
            if best.is_some_and(|(d, _)| bound > d) {
                break;
            }
            let (lo, hi) = self.chunk_box(i);
            for z in lo.z..=hi.z {
                for y in lo.y..=hi.y {
                    for x in lo.x..=hi.x {
                        let v = IVec3::new(x, y, z);
                        let key = (dist(v), [z, y, x]);
                        if best.is_none_or(|b| key < b) && self.label(world, v) == Some(label) {
                            best = Some(key);
                        }
                    }
                }
            }
        }
        best.map(|(_, [z, y, x])| IVec3::new(x, y, z))
    }
}
