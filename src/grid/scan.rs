//! Straight-scan events along all three axes (jump point search), read lazily from a
//! [`VoxelWorld`] chunk by chunk for one query's media.
//!
//! A straight sweep asks, 16 voxels at a time, which voxels of its row are blocked and which
//! are *candidates*: voxels `x` (entered from the previous voxel `p` of the row) with a lateral
//! neighbour free beside `x` but blocked beside `p` (an obstacle edge; under the strict rule no
//! move is forced anywhere else). The first request for a chunk reads its voxels with a
//! one-voxel halo (x-rows straight from the world's bit layers, transposed for y and z) and
//! stores, for each of the 6 scan directions and 256 rows, both masks in scan order (6 KB);
//! chunks with no blocked voxel in them or their halo (most of a game world) share one page
//! of zeros and cost only the test. Outside the world counts as blocked. The world cannot change under a query. The next query
//! keeps what was read if it searches the same world revision (the same world, unedited) with
//! the same media, and the cache holds at most [`KEEP_PAGES`] chunks; otherwise stamps make it
//! start empty at no cost. Its room stays within the world's search limit: what it keeps
//! across queries within a quarter of it, what it grows into in a query within half (each
//! side of a race counts the pages it uses within its half).

use glam::IVec3;

use super::layer::{CHUNK, CHUNK_MASK, CHUNK_SHIFT};
use super::moves::bit;
use super::pass::Pass;
use super::world::VoxelWorld;

/// Rows of a chunk along one axis.
pub(crate) const ROWS: usize = 256;
/// Edge of a chunk with its one-voxel halo.
const HALO: usize = CHUNK as usize + 2;
/// Scan directions: `axis` toward higher coordinates, then `3 + axis` toward lower ones.
const DIRS: usize = 6;
/// Events of one page.
const PAGE: usize = DIRS * ROWS;

/// The page of every chunk with no blocked voxel in it or its halo (no event): all zero, and
/// shared.
const FREE: usize = 0;

/// Chunks a cache may hold and still be kept for the next query (6 KB each): small queries
/// share what they read, one large query does not pin its memory's worth for the next.
const KEEP_PAGES: usize = 2048;

/// Events of the chunks read since the last reset.
#[derive(Debug, Default, Clone)]
pub(crate) struct ScanCache {
    /// The world revision (unique in the process: it names one state of one world) and the
    /// media the events were read for.
    key: Option<(u64, Pass)>,
    stamp: u32,
    dims: IVec3,
    chunk_dims: IVec3,
    table: Vec<[u32; 2]>,
    /// Pages in use since the last reset, the shared [`FREE`] page included.
    used: usize,
    /// Per page and direction, per row at lateral local `(u, v)` (index `v * 16 + u`): the
    /// blocked voxels (low 16 bits) and the candidates (high 16 bits), bit `i` for the `i`-th
    /// voxel of the chunk's row in scan order.
    events: Vec<u32>,
    /// Chunks read in the current query.
    pub(crate) chunks_read: usize,
    /// The most events the cache may have room for in the current query.
    most_events: usize,
}

impl ScanCache {
    /// Prepares a query of `world` seen with `pass`: keeps the rows read so far if they were
    /// read from the same world revision with the same `pass`, and are few; forgets them
    /// otherwise.
    pub(crate) fn reset(&mut self, world: &VoxelWorld, pass: Pass) {
        let key = (world.revision(), pass);
        self.chunks_read = 0;
        // Room kept across queries: within a quarter of the search limit (the pages of a
        // query may take half of it, see `read_chunk`).
        let limit = world.limits().max_search_bytes;
        let keep_events = (limit / 4 / 4).max(PAGE);
        self.most_events = (limit / 2 / 4).max(PAGE);
        if self.events.capacity() > keep_events {
            // More room than the limit lets it keep (grown in a query, or the limit lowered
            // since): what was read is forgotten and the room given back.
            self.key = None;
            self.events.truncate(keep_events);
            self.events.shrink_to(keep_events);
        }
        if self.key == Some(key) && self.used <= KEEP_PAGES + 1 {
            return;
        }
        self.key = Some(key);
        let dims = world.dims().as_ivec3();
        let chunk_dims = (dims + CHUNK_MASK) >> CHUNK_SHIFT;
        if chunk_dims != self.chunk_dims || self.stamp == u32::MAX {
            self.table.clear();
            self.table.resize(chunk_dims.x as usize * chunk_dims.y as usize * chunk_dims.z as usize, [0, 0]);
            self.chunk_dims = chunk_dims;
            self.stamp = 0;
            // Room for what the cache may keep, so that growing into it across queries never
            // copies the pages read so far (measured: up to 1.6 ms in one query otherwise).
            let keep = ((KEEP_PAGES.min(self.table.len()) + 1) * PAGE).min(keep_events);
            self.events.reserve_exact(keep.saturating_sub(self.events.len()));
        }
        self.dims = dims;
        self.stamp += 1;
        if self.events.len() < PAGE {
            self.events.resize(PAGE, 0);
        }
        self.used = FREE + 1;
    }

    /// The events of the row along `axis` through chunk coordinate `c` (on that axis) at the
    /// lateral voxel coordinates `(u, v)` (the other two axes in x, y, z order; inside the
    /// world), for a scan toward higher (`reversed == false`) or lower coordinates: blocked
    /// voxels in the low 16 bits, candidates in the high 16, bit `i` for voxel `c * 16 + i`
    /// (or `c * 16 + 15 - i` when reversed). A chunk outside the world is all blocked.
    #[inline]
    pub(crate) fn events(&mut self, world: &VoxelWorld, axis: usize, reversed: bool, c: i32, u: i32, v: i32) -> u32 {
        if c < 0 || c >= self.chunk_dims[axis] {
            return 0xFFFF;
        }
        let (ua, va) = LATERAL[axis];
        let mut cc = IVec3::ZERO;
        cc[axis] = c;
        cc[ua] = u >> CHUNK_SHIFT;
        cc[va] = v >> CHUNK_SHIFT;
        let page = self.page_at(world, cc);
        let dir = axis + if reversed { 3 } else { 0 };
        self.events[page * PAGE + dir * ROWS + (((v & CHUNK_MASK) << CHUNK_SHIFT) | (u & CHUNK_MASK)) as usize]
    }

    /// The 3x3x3 mask of the voxels around `v` (inside the world) blocked for the cache's
    /// media, as [`VoxelWorld::blocked_mask`] gives it, from the events' blocked bits (the
    /// chunks read if not yet). For agents with clearance, whose masks the world derives by
    /// dilating the solid voxels around `v` at each call, where the cache dilated each chunk
    /// once.
    pub(crate) fn blocked_mask(&mut self, world: &VoxelWorld, v: IVec3) -> u32 {
        let (cc, l) = (v >> CHUNK_SHIFT, v & CHUNK_MASK);
        if l.cmpgt(IVec3::ZERO).all() && l.cmplt(IVec3::splat(CHUNK_MASK)).all() {
            // Inside its chunk: the nine rows of its page.
            let page = self.page_at(world, cc);
            let rows = &self.events[page * PAGE..][..ROWS];
            let mut mask = 0;
            for dz in -1..=1 {
                for dy in -1..=1 {
                    let row = rows[(((l.z + dz) << CHUNK_SHIFT) | (l.y + dy)) as usize];
                    mask |= (row >> (l.x - 1) & 7) << bit(-1, dy, dz);
                }
            }
            return mask;
        }
        // On a chunk's face, edge or corner: each row from its chunk's page, the at most eight
        // pages looked up once (`None` inside: a chunk outside the world, all blocked).
        let across = |a: usize| if l[a] == 0 { -1 } else { i32::from(l[a] == CHUNK_MASK) };
        let step = IVec3::new(across(0), across(1), across(2));
        let mut pages: [Option<Option<usize>>; 8] = [None; 8];
        let mut mask = 0;
        for dz in -1..=1 {
            for dy in -1..=1 {
                let (ly, lz) = (l.y + dy, l.z + dz);
                let (oy, oz) = (!(0..CHUNK).contains(&ly), !(0..CHUNK).contains(&lz));
                let at = (((lz & CHUNK_MASK) << CHUNK_SHIFT) | (ly & CHUNK_MASK)) as usize;
                let mut row = |ox: bool| -> u32 {
                    let k = usize::from(ox) | usize::from(oy) << 1 | usize::from(oz) << 2;
                    let o = IVec3::new(i32::from(ox), i32::from(oy), i32::from(oz)) * step;
                    match *pages[k].get_or_insert_with(|| self.page_of(world, cc + o)) {
                        Some(page) => self.events[page * PAGE + at] & 0xFFFF,
                        None => 0xFFFF,
                    }
                };
                let bits = if l.x == 0 {
                    row(true) >> CHUNK_MASK & 1 | (row(false) & 3) << 1
                } else if l.x == CHUNK_MASK {
                    row(false) >> (CHUNK - 2) & 3 | (row(true) & 1) << 2
                } else {
                    row(false) >> (l.x - 1) & 7
                };
                mask |= bits << bit(-1, dy, dz);
            }
        }
        mask
    }

    /// The page of chunk `cc` (read if not yet), `None` if it lies outside the world.
    #[inline]
    fn page_of(&mut self, world: &VoxelWorld, cc: IVec3) -> Option<usize> {
        let inside = cc.cmpge(IVec3::ZERO).all() && cc.cmplt(self.chunk_dims).all();
        inside.then(|| self.page_at(world, cc))
    }

    /// The page of chunk `cc` (inside the world), read if not yet.
    #[inline]
    fn page_at(&mut self, world: &VoxelWorld, cc: IVec3) -> usize {
        let chunk = ((cc.z * self.chunk_dims.y + cc.y) * self.chunk_dims.x + cc.x) as usize;
        let entry = self.table[chunk];
        if entry[0] == self.stamp { entry[1] as usize } else { self.read_chunk(world, chunk, cc) }
    }

    /// Reads chunk `cc` with a one-voxel halo and stores its events.
    #[cold]
    fn read_chunk(&mut self, world: &VoxelWorld, chunk: usize, cc: IVec3) -> usize {
        self.chunks_read += 1;
        let (_, pass) = self.key.expect("reset before use");
        if world.chunks_around_free(cc, pass) {
            // No blocked voxel in the chunk or its halo (most of a game world): no event.
            self.table[chunk] = [self.stamp, FREE as u32];
            return FREE;
        }
        let base = cc << CHUNK_SHIFT;
        // An agent with clearance: the solid voxels dilated by its radius, in one pass over the
        // chunk and its halo (row index `halo_index(ly, lz)`).
        let mut near = [0u32; HALO * HALO];
        if pass.radius() > 0 {
            world.near_solid_rows(base - 1, IVec3::splat(HALO as i32), i32::from(pass.radius()), &mut near);
        }
        // Rows of 18 bits (bit `l + 1` for local coordinate `l` in -1..=16) along each axis,
        // at lateral local coordinates `(u, v)` in -1..=16 (index `halo_index(u, v)`).
        let mut ext = [[0u32; HALO * HALO]; 3];
        world.blocked_halo_rows(cc, pass, &mut ext[0]);
        for lz in -1..=CHUNK {
            for ly in -1..=CHUNK {
                let w = ext[0][halo_index(ly, lz)] | near[halo_index(ly, lz)];
                ext[0][halo_index(ly, lz)] = w;
                let mut bits = w;
                while bits != 0 {
                    let b = bits.trailing_zeros() as i32; // lx + 1
                    bits &= bits - 1;
                    // Along y: lateral (x, z); along z: lateral (x, y).
                    ext[1][halo_index(b - 1, lz)] |= 1 << (ly + 1);
                    ext[2][halo_index(b - 1, ly)] |= 1 << (lz + 1);
                }
            }
        }
        if ext[0].iter().all(|&w| w == 0) {
            self.table[chunk] = [self.stamp, FREE as u32];
            return FREE;
        }
        let page = self.used;
        self.used += 1;
        self.table[chunk] = [self.stamp, page as u32];
        let start = page * PAGE;
        if self.events.len() < start + PAGE {
            if self.events.capacity() < start + PAGE {
                // Twice the room, within the query's most (past it the searches' checks,
                // which count the pages used, end the search).
                let room = (2 * self.events.capacity()).min(self.most_events).max(start + PAGE);
                self.events.reserve_exact(room - self.events.len());
            }
            self.events.resize(start + PAGE, 0);
        }
        let events = &mut self.events[start..start + PAGE];
        for (axis, e) in ext.iter().enumerate() {
            // Per row of the halo, the voxels of an obstacle edge toward higher coordinates
            // (blocked, the next one free: low half) and toward lower ones (high half), one
            // bit to the right of where the free voxel is.
            let mut edges = [0u64; HALO * HALO];
            for (edge, &l) in edges.iter_mut().zip(e) {
                *edge = u64::from((l << 1) & !l) | u64::from((l >> 1) & !l) << 32;
            }
            for lv in 0..CHUNK {
                for lu in 0..CHUNK {
                    let c = halo_index(lu, lv);
                    let near = edges[c - HALO - 1]
                        | edges[c - HALO]
                        | edges[c - HALO + 1]
                        | edges[c - 1]
                        | edges[c + 1]
                        | edges[c + HALO - 1]
                        | edges[c + HALO]
                        | edges[c + HALO + 1];
                    let blocked = (e[c] >> 1) & 0xFFFF;
                    let (up, down) = ((near as u32 >> 1) & 0xFFFF, (near >> 33) as u32 & 0xFFFF);
                    let row = ((lv << CHUNK_SHIFT) | lu) as usize;
                    events[axis * ROWS + row] = blocked | up << 16;
                    // Reversed: bit i to bit 31 - i swaps the halves; the rotation swaps them back.
                    events[(3 + axis) * ROWS + row] = (blocked | down << 16).reverse_bits().rotate_left(16);
                }
            }
        }
        page
    }

    /// Bytes of heap held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.table.capacity() * 8 + self.events.capacity() * 4
    }

    /// Bytes in use: the table over the world's chunks and the pages since the last reset
    /// (those kept from earlier queries too, at most [`KEEP_PAGES`]), not the room kept for
    /// more.
    pub(crate) fn bytes_in_use(&self) -> usize {
        self.table.len() * 8 + self.used * PAGE * 4
    }
}

/// Index of the row at lateral local coordinates `(lu, lv)` (each in `-1..=16`) in a halo.
#[inline]
fn halo_index(lu: i32, lv: i32) -> usize {
    (lv + 1) as usize * HALO + (lu + 1) as usize
}

/// The 256 x-rows (`lz * 16 + ly`) of chunk `cc`: bit `lx` set when the voxel is blocked for
/// `pass` or outside the world.
pub(crate) fn read_chunk_rows(world: &VoxelWorld, pass: Pass, cc: IVec3) -> [u16; ROWS] {
    let base = cc << CHUNK_SHIFT;
    let dims = world.dims().as_ivec3();
    let mut x_rows = [u16::MAX; ROWS];
    for lz in 0..CHUNK {
        for ly in 0..CHUNK {
            let (y, z) = (base.y + ly, base.z + lz);
            if y < dims.y && z < dims.z {
                x_rows[((lz << CHUNK_SHIFT) | ly) as usize] = world.blocked_row16(cc.x, y, z, pass);
            }
        }
    }
    x_rows
}

/// The two lateral axes of each axis, in x, y, z order.
pub(crate) const LATERAL: [(usize, usize); 3] = [(1, 2), (0, 2), (0, 1)];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::medium::Media;
    use glam::UVec3;

    /// The cache's masks are the world's, for every voxel, media and a few clearances, on a
    /// world of solid and water across chunk borders on every axis.
    #[test]
    fn masks_match_the_worlds() {
        let w = crate::grid::seeded::Rng(5).media_world(UVec3::new(37, 34, 19), (2, 3), |_| true);
        let mut cache = ScanCache::default();
        let dims = w.dims().as_ivec3();
        let centre = 1 << bit(0, 0, 0);
        let mut mixed = 0;
        for media in [Media::ANY, Media::AIR, Media::WATER] {
            for radius in [0, 1, 2] {
                let pass = Pass::new(&media).with_radius(radius);
                cache.reset(&w, pass);
                for z in 0..dims.z {
                    for y in 0..dims.y {
                        for x in 0..dims.x {
                            let v = IVec3::new(x, y, z);
                            let want = w.blocked_mask(v, pass) & !centre;
                            assert_eq!(cache.blocked_mask(&w, v) & !centre, want, "{v} {media:?} radius {radius}");
                            mixed += usize::from(want != 0 && want != (1 << 27) - 1 - centre);
                        }
                    }
                }
            }
        }
        assert!(mixed > 10_000, "{mixed}");
    }

    #[test]
    fn events_match_voxel_reads_on_every_axis() {
        let w = crate::grid::seeded::Rng(3).media_world(UVec3::new(37, 20, 18), (2, 2), |_| true);
        let mut cache = ScanCache::default();
        let dims = w.dims().as_ivec3();
        for media in [Media::ANY, Media::AIR, Media::WATER] {
            let pass = Pass::new(&media);
            let blocked = |p: IVec3| !w.passable(p, pass);
            cache.reset(&w, pass);
            for axis in 0..3 {
                let (ua, va) = LATERAL[axis];
                for u in 0..dims[ua] {
                    for v in 0..dims[va] {
                        for c in -1..4 {
                            for reversed in [false, true] {
                                let e = cache.events(&w, axis, reversed, c, u, v);
                                for i in 0..16 {
                                    let t = if reversed { c * 16 + 15 - i } else { c * 16 + i };
                                    let mut p = IVec3::ZERO;
                                    p[axis] = t;
                                    p[ua] = u;
                                    p[va] = v;
                                    assert_eq!(e >> i & 1 != 0, blocked(p), "{p} axis {axis} {media:?}");
                                    // A candidate: some lateral neighbour free beside p, blocked
                                    // beside the previous voxel of the scan.
                                    let mut back = IVec3::ZERO;
                                    back[axis] = if reversed { 1 } else { -1 };
                                    let mut cand = false;
                                    for du in -1..=1 {
                                        for dv in -1..=1 {
                                            let mut l = IVec3::ZERO;
                                            l[ua] = du;
                                            l[va] = dv;
                                            if l != IVec3::ZERO && !blocked(p + l) && blocked(p + l + back) {
                                                cand = true;
                                            }
                                        }
                                    }
                                    let in_world = (0..dims[axis]).contains(&t);
                                    if in_world {
                                        assert_eq!(
                                            e >> (16 + i) & 1 != 0,
                                            cand,
                                            "{p} axis {axis} {reversed} {media:?}"
                                        );
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
