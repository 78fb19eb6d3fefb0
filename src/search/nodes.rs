//! Per-search node state, paged by world chunk so memory follows the nodes a search touches.
//!
//! A page holds the records of one cube of voxels (for A*, a 16^3 chunk of best costs so far,
//! `g`, and one byte of flags and parent move each; jump point search keeps 16-byte records in
//! 2^3 cubes). Pages are handed out on first touch and recycled by the next search: the table
//! of pages ([`PageTable`]) tells whether a cube's page belongs to the current search, so
//! starting a search costs nothing and no lookup hashes.

use glam::{IVec3, UVec3};

use crate::grid::layer::{CHUNK_MASK, CHUNK_SHIFT};
use crate::grid::moves::{MOVES, OFFSETS};

/// `info` flag: the node is on the open list (or was improved since it last left it).
pub(crate) const OPEN: u8 = 0x40;
/// `info` flag: the node has been expanded.
pub(crate) const CLOSED: u8 = 0x80;
/// `info` low bits: the move that reached the node, or `NO_PARENT`.
pub(crate) const PARENT_MASK: u8 = 0x3F;
/// Parent value of the start node.
pub(crate) const NO_PARENT: u8 = 0x3F;

/// Which page holds each cube of `2^SHIFT` voxels a side (by default a 16^3 chunk) of a
/// world, for one search at a time: pages are handed out on first touch, forgetting them all
/// is free, and no lookup hashes. The owner keeps the pages' contents.
///
/// The table has one entry per 16^3 chunk of the world whatever the page size. For pages of a
/// chunk (A*) the entry is `[stamp, page]` (8 bytes), valid when its stamp is the current
/// search's. For pages smaller than a chunk it is the number of a block (4 bytes), handed out
/// with the chunk's first page, that holds the pages of the chunk's cubes (4 bytes each), or
/// for pages smaller than 4^3 ([`TWO_LEVEL_BELOW`]) the blocks of its 8^3 regions, each handed
/// out with the region's first page and holding the pages of the region's cubes; the entry is
/// valid when that block was handed out in the current search and to this chunk (each block
/// records its chunk), so it needs no stamp. A search's tables so follow the chunks it
/// touches, not the number of cubes in the world (a table per 8^3 cube took 64 bytes per
/// chunk of the world), and the two sides of a race of jump point searches hold 4 bytes per
/// chunk of the world each.
#[derive(Debug, Default, Clone)]
pub(crate) struct PageTable<const SHIFT: i32 = CHUNK_SHIFT> {
    stamp: u32,
    chunk_dims: IVec3,
    /// Pages of a chunk: per chunk, `[stamp, page]`, valid when the stamp is the current one.
    table: Vec<[u32; 2]>,
    /// Pages smaller than a chunk: per chunk, its block, valid when below `blocks_used` and
    /// that block's [`block_chunk`](Self::block_chunk) is the chunk. Never cleared.
    block_of: Vec<u32>,
    /// Per block handed out in the current search: the chunk it holds the pages of.
    block_chunk: Vec<u32>,
    /// Pages smaller than a chunk: per block, the page of each cube of its chunk; for pages
    /// smaller than [`TWO_LEVEL_BELOW`], the region block of each region of its chunk
    /// ([`NO_PAGE`]: none yet).
    blocks: Vec<u32>,
    blocks_used: usize,
    /// Pages smaller than [`TWO_LEVEL_BELOW`]: per region block, the page of each cube of its
    /// region ([`NO_PAGE`]: none yet).
    regions: Vec<u32>,
    regions_used: usize,
    used: usize,
}

/// Pages smaller than `2^TWO_LEVEL_BELOW` voxels a side (4^3: the 2^3 pages of jump point
/// search) are found through a block per chunk of one entry per region (`2^REGION_SHIFT`
/// voxels a side, 8^3) and a block per region touched of one entry per page: a search that
/// touches few voxels of a chunk's regions then holds 64 page numbers per region it touches
/// instead of 512 per chunk. Pages of 4^3 (the prelude's) have a block of 64 per chunk, found
/// with one lookup fewer.
const TWO_LEVEL_BELOW: i32 = 2;
/// The regions of pages smaller than [`TWO_LEVEL_BELOW`]: cubes of `2^REGION_SHIFT` voxels a
/// side.
const REGION_SHIFT: i32 = 3;

/// A cube of a touched chunk that has no page yet.
const NO_PAGE: u32 = u32::MAX;

impl<const SHIFT: i32> PageTable<SHIFT> {
    /// Cubes per chunk.
    const CUBES: usize = 1 << (3 * (CHUNK_SHIFT - SHIFT));
    /// Pages are found through region blocks.
    const TWO_LEVEL: bool = SHIFT < TWO_LEVEL_BELOW;
    /// Entries of a chunk's block: its cubes' pages, or its regions' blocks.
    const BLOCK_LEN: usize = if Self::TWO_LEVEL { 1 << (3 * (CHUNK_SHIFT - REGION_SHIFT)) } else { Self::CUBES };
    /// Cubes per region (two levels).
    const REGION_CUBES: usize = if Self::TWO_LEVEL { 1 << (3 * (REGION_SHIFT - SHIFT)) } else { 1 };

    /// Forgets every page, sized for a world of `dims` voxels. Keeps its memory.
    pub(crate) fn reset(&mut self, dims: UVec3) {
        let chunk_dims = (dims.as_ivec3() + CHUNK_MASK) >> CHUNK_SHIFT;
        let chunks = chunk_dims.x as usize * chunk_dims.y as usize * chunk_dims.z as usize;
        if SHIFT == CHUNK_SHIFT && (chunk_dims != self.chunk_dims || self.stamp == u32::MAX) {
            self.table.clear();
            self.table.resize(chunks, [0, 0]);
            self.stamp = 0;
        } else if SHIFT != CHUNK_SHIFT && chunk_dims != self.chunk_dims {
            // Any value will do: an entry is checked against its block's chunk.
            self.block_of.clear();
            self.block_of.resize(chunks, 0);
        }
        self.chunk_dims = chunk_dims;
        if SHIFT == CHUNK_SHIFT {
            self.stamp += 1;
        }
        self.used = 0;
        self.blocks_used = 0;
        self.regions_used = 0;
    }

    /// Forgets every page without sizing the table for a world: pages smaller than a chunk,
    /// whose lookups then find no block. What a store no search uses holds, and no more.
    fn forget(&mut self) {
        debug_assert!(SHIFT < CHUNK_SHIFT, "pages of a chunk are found by stamps, which `reset` renews");
        self.used = 0;
        self.blocks_used = 0;
        self.regions_used = 0;
    }

    #[inline]
    fn chunk(&self, v: IVec3) -> usize {
        let c = v >> CHUNK_SHIFT;
        ((c.z * self.chunk_dims.y + c.y) * self.chunk_dims.x + c.x) as usize
    }

    /// Index of `v`'s cube in its chunk.
    #[inline]
    fn cube_in_chunk(v: IVec3) -> usize {
        let l = (v & CHUNK_MASK) >> SHIFT;
        let bits = CHUNK_SHIFT - SHIFT;
        ((l.z << (2 * bits)) | (l.y << bits) | l.x) as usize
    }

    /// Index of `v`'s region in its chunk.
    #[inline]
    fn region_in_chunk(v: IVec3) -> usize {
        let l = (v & CHUNK_MASK) >> REGION_SHIFT;
        let bits = CHUNK_SHIFT - REGION_SHIFT;
        ((l.z << (2 * bits)) | (l.y << bits) | l.x) as usize
    }

    /// Index of `v`'s cube in its region.
    #[inline]
    fn cube_in_region(v: IVec3) -> usize {
        let l = (v & ((1 << REGION_SHIFT) - 1)) >> SHIFT;
        let bits = REGION_SHIFT - SHIFT;
        ((l.z << (2 * bits)) | (l.y << bits) | l.x) as usize
    }

    /// Pages smaller than a chunk: the block of `chunk`, if the current search touched it.
    #[inline]
    fn block(&self, chunk: usize) -> Option<usize> {
        // A table not sized for the world (see `forget`) has no block.
        let block = *self.block_of.get(chunk)? as usize;
        (block < self.blocks_used && self.block_chunk[block] == chunk as u32).then_some(block)
    }

    /// The page of `v`'s cube (`v` inside the world), and whether this call handed it out: the
    /// owner must then clear it.
    #[inline]
    pub(crate) fn page(&mut self, v: IVec3) -> (usize, bool) {
        let chunk = self.chunk(v);
        if SHIFT == CHUNK_SHIFT {
            let stamp = self.stamp;
            let entry = &mut self.table[chunk];
            if entry[0] == stamp {
                return (entry[1] as usize, false);
            }
            let page = self.used;
            *entry = [stamp, page as u32];
            self.used += 1;
            return (page, true);
        }
        let block = match self.block(chunk) {
            Some(block) => block,
            None => self.new_block(chunk),
        };
        let entry = if Self::TWO_LEVEL {
            let r = block * Self::BLOCK_LEN + Self::region_in_chunk(v);
            let region = match self.blocks[r] {
                NO_PAGE => self.new_region(r),
                region => region as usize,
            };
            &mut self.regions[region * Self::REGION_CUBES + Self::cube_in_region(v)]
        } else {
            &mut self.blocks[block * Self::CUBES + Self::cube_in_chunk(v)]
        };
        if *entry != NO_PAGE {
            return (*entry as usize, false);
        }
        let page = self.used;
        *entry = page as u32;
        self.used += 1;
        (page, true)
    }

    /// Hands out the next region block to the region whose entry is `blocks[r]`, no cube of
    /// it with a page yet.
    #[cold]
    fn new_region(&mut self, r: usize) -> usize {
        let region = self.regions_used;
        self.regions_used += 1;
        self.blocks[r] = region as u32;
        no_pages(&mut self.regions, region * Self::REGION_CUBES, Self::REGION_CUBES);
        region
    }

    /// Hands out the next block to `chunk`, no cube of it with a page yet.
    #[cold]
    fn new_block(&mut self, chunk: usize) -> usize {
        let block = self.blocks_used;
        self.blocks_used += 1;
        self.block_of[chunk] = block as u32;
        if self.block_chunk.len() <= block {
            self.block_chunk.push(chunk as u32);
        } else {
            self.block_chunk[block] = chunk as u32;
        }
        no_pages(&mut self.blocks, block * Self::BLOCK_LEN, Self::BLOCK_LEN);
        block
    }

    /// The page of `v`'s cube, if this search touched it.
    #[inline]
    pub(crate) fn find(&self, v: IVec3) -> Option<usize> {
        let chunk = self.chunk(v);
        if SHIFT == CHUNK_SHIFT {
            let entry = self.table[chunk];
            return (entry[0] == self.stamp).then_some(entry[1] as usize);
        }
        let block = self.block(chunk)?;
        let page = if Self::TWO_LEVEL {
            let region = self.blocks[block * Self::BLOCK_LEN + Self::region_in_chunk(v)];
            if region == NO_PAGE {
                return None;
            }
            self.regions[region as usize * Self::REGION_CUBES + Self::cube_in_region(v)]
        } else {
            self.blocks[block * Self::CUBES + Self::cube_in_chunk(v)]
        };
        (page != NO_PAGE).then_some(page as usize)
    }

    /// Index of `v` inside its page.
    #[inline]
    pub(crate) fn local(v: IVec3) -> usize {
        let l = v & ((1 << SHIFT) - 1);
        ((l.z << (2 * SHIFT)) | (l.y << SHIFT) | l.x) as usize
    }

    /// The most bytes one expansion may add to the table's use: a new block for each of at
    /// most 8 new pages (and a region block each, for two levels).
    const EXPANSION_BYTES: usize = if SHIFT < CHUNK_SHIFT {
        8 * ((Self::BLOCK_LEN + 1) * 4 + if Self::TWO_LEVEL { Self::REGION_CUBES * 4 } else { 0 })
    } else {
        0
    };

    /// Bytes of heap held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.table.capacity() * 8
            + (self.block_of.capacity()
                + self.block_chunk.capacity()
                + self.blocks.capacity()
                + self.regions.capacity())
                * 4
    }

    /// Bytes the current search uses: the table over the world's chunks and the blocks
    /// and region blocks handed out since the reset (their entries, and a block's chunk).
    pub(crate) fn bytes_in_use(&self) -> usize {
        self.table.len() * 8
            + self.block_of.len() * 4
            + self.blocks_used * (Self::BLOCK_LEN + 1) * 4
            + self.regions_used * Self::REGION_CUBES * 4
    }

    /// Pages handed out since the last reset.
    pub(crate) fn pages_used(&self) -> usize {
        self.used
    }
}

/// What a search keeps per voxel, in pages of equal length that a [`NodeStore`] hands out.
pub(crate) trait Records: Default {
    /// Makes room for `len` records (a page was added at the end), the new ones untouched:
    /// twice the room it had, within room for `most` records (at least `len`).
    fn grow(&mut self, len: usize, most: usize);
    /// Keeps the first `len` records and gives back the room past them.
    fn shrink(&mut self, len: usize);
    /// Marks the records of `range` untouched (a page handed out again).
    fn clear(&mut self, range: std::ops::Range<usize>);
    /// Bytes of one record.
    fn record_bytes() -> usize;
    /// Bytes of heap held.
    fn heap_bytes(&self) -> usize;
}

/// One record per slot, `T::default()` untouched.
impl<T: Copy + Default> Records for Vec<T> {
    fn grow(&mut self, len: usize, most: usize) {
        reserve_within(self, len, most);
        self.resize(len, T::default());
    }

    fn shrink(&mut self, len: usize) {
        self.truncate(len);
        self.shrink_to_fit();
    }

    fn clear(&mut self, range: std::ops::Range<usize>) {
        self[range].fill(T::default());
    }

    fn record_bytes() -> usize {
        std::mem::size_of::<T>()
    }

    fn heap_bytes(&self) -> usize {
        self.capacity() * std::mem::size_of::<T>()
    }
}

/// Records of one kind, one per slot, that a search reads by index and, around a node whose
/// neighbours share its page, through the run of slots stored together that holds the page.
pub(crate) trait Slots<T>:
    Records + std::ops::Index<usize, Output = T> + std::ops::IndexMut<usize> + Clone + std::fmt::Debug
{
    /// The slots stored together with `slot` (a page's slots are among them), and the slot of
    /// the first.
    fn run_mut(&mut self, slot: usize) -> (usize, &mut [T]);
}

impl<T: Copy + Default + std::fmt::Debug> Slots<T> for Vec<T> {
    #[inline(always)]
    fn run_mut(&mut self, _slot: usize) -> (usize, &mut [T]) {
        (0, &mut self[..])
    }
}

impl<T: Copy + Default + std::fmt::Debug> Slots<T> for Paged<T> {
    #[inline(always)]
    fn run_mut(&mut self, slot: usize) -> (usize, &mut [T]) {
        (slot & !(SEGMENT - 1), &mut self.segments[slot >> SEGMENT_SHIFT])
    }
}

/// The records of A* (and of the shared-goal field): per slot the best cost so far (`g`) and
/// one byte of flags ([`OPEN`], [`CLOSED`]) and parent move; `info == 0`: untouched (`g` is
/// then stale). In vectors, or for pages of a chunk in [`Paged`] segments (one a page), which
/// never move as the records grow.
#[derive(Debug, Default, Clone)]
pub(crate) struct Scores<G = Vec<u64>, I = Vec<u8>> {
    pub(crate) g: G,
    pub(crate) info: I,
}

impl<G: Records, I: Records> Records for Scores<G, I> {
    fn grow(&mut self, len: usize, most: usize) {
        self.info.grow(len, most);
        self.g.grow(len, most);
    }

    fn shrink(&mut self, len: usize) {
        self.info.shrink(len);
        self.g.shrink(len);
    }

    fn clear(&mut self, range: std::ops::Range<usize>) {
        self.info.clear(range);
    }

    fn record_bytes() -> usize {
        9
    }

    fn heap_bytes(&self) -> usize {
        self.g.heap_bytes() + self.info.heap_bytes()
    }
}

/// Makes room in `v` for `len` entries: twice its room, within room for `most` (at least
/// `len`), so that a search's growth stays within its limit.
fn reserve_within<T>(v: &mut Vec<T>, len: usize, most: usize) {
    if v.capacity() < len {
        let room = (2 * v.capacity()).min(most).max(len);
        v.reserve_exact(room - v.len());
    }
}

/// Slots of a [`Paged`] segment: a 16^3 chunk's voxels.
const SEGMENT_SHIFT: u32 = 12;
/// [`SEGMENT_SHIFT`]'s slots.
const SEGMENT: usize = 1 << SEGMENT_SHIFT;

/// One record per slot, in segments of [`SEGMENT`] slots that stay where they are once full:
/// room grows by segments, and a full segment is never copied. (A vector that doubles copies
/// all of a search's records at once when it outgrows its room, within one time slice of a
/// large search: docs/living-worlds.md.) The last segment may be shorter, so that the room
/// stays within a search's limit as a vector's did; growing it copies at most one segment.
/// Slots past the ones handed out are `T::default()` (untouched).
#[derive(Debug, Clone, Default)]
pub(crate) struct Paged<T> {
    segments: Vec<Box<[T]>>,
}

impl<T> Paged<T> {
    /// Slots with room.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.segments.last().map_or(0, |last| ((self.segments.len() - 1) << SEGMENT_SHIFT) + last.len())
    }
}

impl<T> std::ops::Index<usize> for Paged<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, slot: usize) -> &T {
        &self.segments[slot >> SEGMENT_SHIFT][slot & (SEGMENT - 1)]
    }
}

impl<T> std::ops::IndexMut<usize> for Paged<T> {
    #[inline(always)]
    fn index_mut(&mut self, slot: usize) -> &mut T {
        &mut self.segments[slot >> SEGMENT_SHIFT][slot & (SEGMENT - 1)]
    }
}

impl<T: Copy + Default> Paged<T> {
    /// Room for exactly `room` slots: the last segment lengthened or shortened (copied), full
    /// segments added or dropped, new slots untouched.
    fn set_room(&mut self, room: usize) {
        self.segments.truncate(room.div_ceil(SEGMENT));
        let full = self.segments.len().saturating_sub(1) << SEGMENT_SHIFT;
        if let Some(last) = self.segments.last_mut() {
            let want = (room - full).min(SEGMENT);
            if last.len() != want {
                let mut longer = vec![T::default(); want];
                let kept = last.len().min(want);
                longer[..kept].copy_from_slice(&last[..kept]);
                *last = longer.into_boxed_slice();
            }
        }
        // The table holds no more entries than segments (its room is counted in the heap).
        self.segments.reserve_exact(room.div_ceil(SEGMENT).saturating_sub(self.segments.len()));
        while self.len() < room {
            let want = (room - self.len()).min(SEGMENT);
            self.segments.push(vec![T::default(); want].into_boxed_slice());
        }
    }
}

/// One record per slot, `T::default()` untouched. The room is the vector's: within the
/// first segment it doubles (within `most`), past it whole segments are added (within
/// `most`), and never less than `len`.
impl<T: Copy + Default> Records for Paged<T> {
    fn grow(&mut self, len: usize, most: usize) {
        let have = self.len();
        if have >= len {
            return;
        }
        // The table of segments is part of the heap too: its entries come out of `most`.
        let entry = std::mem::size_of::<Box<[T]>>().div_ceil(std::mem::size_of::<T>().max(1));
        let most = most.saturating_sub(most.div_ceil(SEGMENT).saturating_mul(entry));
        let room = if have < SEGMENT { 2 * have } else { len.next_multiple_of(SEGMENT) };
        self.set_room(room.min(most).max(len));
    }

    fn shrink(&mut self, len: usize) {
        self.set_room(len.min(self.len()));
        self.segments.shrink_to_fit();
    }

    /// `range` lies in one segment, as a node page does.
    fn clear(&mut self, range: std::ops::Range<usize>) {
        let Some(first) = range.clone().next() else { return };
        let (segment, from) = (first >> SEGMENT_SHIFT, first & (SEGMENT - 1));
        self.segments[segment][from..from + range.len()].fill(T::default());
    }

    fn record_bytes() -> usize {
        std::mem::size_of::<T>()
    }

    fn heap_bytes(&self) -> usize {
        self.len() * std::mem::size_of::<T>() + self.segments.capacity() * std::mem::size_of::<Box<[T]>>()
    }
}

/// Node state of one search: the records `R` of the voxels it touches, in pages of cubes of
/// `2^SHIFT` voxels a side (by default a 16^3 chunk), handed out on first touch and forgotten
/// all at once by [`reset`](Self::reset). A* and jump point search share it, each with its own
/// records and page size.
#[derive(Debug, Clone)]
pub(crate) struct NodeStore<R = Scores, const SHIFT: i32 = CHUNK_SHIFT> {
    pages: PageTable<SHIFT>,
    /// Min voxel of the cube each page holds.
    page_origin: Vec<IVec3>,
    /// The records, page after page.
    pub(crate) rec: R,
    /// The most records the pages may have room for.
    most_records: usize,
    /// The records grew since [`set_most_bytes`](Self::set_most_bytes).
    grew: bool,
}

impl<R: Default, const SHIFT: i32> Default for NodeStore<R, SHIFT> {
    fn default() -> Self {
        Self {
            pages: PageTable::default(),
            page_origin: Vec::new(),
            rec: R::default(),
            most_records: usize::MAX,
            grew: false,
        }
    }
}

impl<R: Records, const SHIFT: i32> NodeStore<R, SHIFT> {
    /// Voxels (records) per page.
    pub(crate) const PAGE_VOXELS: usize = 1 << (3 * SHIFT);
    const MASK: i32 = (1 << SHIFT) - 1;
    /// Slot offset of each move from an [`interior`](Self::interior) node.
    pub(crate) const SLOT_DELTA: [isize; MOVES] = slot_deltas(SHIFT);

    /// Forgets every node, sized for a world of `dims` voxels. Keeps its memory.
    pub(crate) fn reset(&mut self, dims: UVec3) {
        self.pages.reset(dims);
    }

    /// Forgets every node without sizing its page table for a world (pages smaller than a
    /// chunk): a store that no search uses until the next [`reset`](Self::reset) so allocates
    /// nothing. Keeps its memory.
    pub(crate) fn forget(&mut self) {
        self.pages.forget();
    }

    /// Slot of voxel `v` (inside the world), giving it a cleared page on first touch.
    #[inline]
    pub(crate) fn slot(&mut self, v: IVec3) -> usize {
        let (page, new) = self.pages.page(v);
        if new {
            self.new_page(page, (v >> SHIFT) << SHIFT);
        }
        page * Self::PAGE_VOXELS + PageTable::<SHIFT>::local(v)
    }

    /// Slot of `v` if this search touched its page.
    #[inline]
    pub(crate) fn find(&self, v: IVec3) -> Option<usize> {
        self.pages.find(v).map(|page| page * Self::PAGE_VOXELS + PageTable::<SHIFT>::local(v))
    }

    /// Slot of `v - OFFSETS[m]`, the voxel the node of `v` (in `slot`) was reached from by
    /// move `m`: a fixed offset back when both lie in one page, else looked up (`None` if the
    /// search never touched it).
    #[inline]
    pub(crate) fn parent(&self, slot: usize, v: IVec3, m: usize) -> Option<usize> {
        let p = v - OFFSETS[m];
        if (p >> SHIFT) == (v >> SHIFT) { Some(slot.wrapping_add_signed(-Self::SLOT_DELTA[m])) } else { self.find(p) }
    }

    #[cold]
    fn new_page(&mut self, page: usize, origin: IVec3) {
        let start = page * Self::PAGE_VOXELS;
        if self.page_origin.len() <= page {
            self.rec.grow(start + Self::PAGE_VOXELS, self.most_records);
            self.page_origin.push(origin);
            self.grew = true;
        } else {
            self.rec.clear(start..start + Self::PAGE_VOXELS);
            self.page_origin[page] = origin;
        }
    }

    /// Voxel of a slot.
    #[inline]
    pub(crate) fn voxel(&self, slot: usize) -> IVec3 {
        let l = (slot % Self::PAGE_VOXELS) as i32;
        self.page_origin[slot / Self::PAGE_VOXELS]
            + IVec3::new(l & Self::MASK, (l >> SHIFT) & Self::MASK, l >> (2 * SHIFT))
    }

    /// Bytes of heap held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.pages.heap_bytes() + self.page_origin.capacity() * 12 + self.rec.heap_bytes()
    }

    /// Pages handed out to the current search.
    pub(crate) fn pages_used(&self) -> usize {
        self.pages.pages_used()
    }

    /// Keeps the room of the records within about `bytes` from now on (one more page always
    /// fits): a search sets it to what its limit leaves.
    pub(crate) fn set_most_bytes(&mut self, bytes: usize) {
        let other = self.heap_bytes() - self.rec.heap_bytes();
        self.most_records = bytes.saturating_sub(other) / R::record_bytes();
        self.grew = false;
    }

    /// Gives back the pages the current search has not used (kept from earlier searches).
    #[cold]
    pub(crate) fn give_back(&mut self) {
        let used = self.pages_used();
        self.rec.shrink(used * Self::PAGE_VOXELS);
        self.page_origin.truncate(used);
        self.page_origin.shrink_to_fit();
    }

    /// Whether the records grew since [`set_most_bytes`](Self::set_most_bytes).
    #[inline]
    pub(crate) fn grew(&self) -> bool {
        self.grew
    }

    /// Bytes the current search uses: the page table (sized by the world) and the pages
    /// handed out to it (their records and origins). Pages kept from earlier searches for
    /// reuse are not counted.
    pub(crate) fn bytes_in_use(&self) -> usize {
        self.pages.bytes_in_use() + self.pages_used() * (Self::PAGE_VOXELS * R::record_bytes() + 12)
    }

    /// The most bytes one expansion may add to [`bytes_in_use`](Self::bytes_in_use): the
    /// pages of the voxel's 26 neighbours (at most 8 new ones) and their tables' blocks.
    pub(crate) fn expansion_bytes() -> usize {
        8 * (Self::PAGE_VOXELS * R::record_bytes() + 12) + PageTable::<SHIFT>::EXPANSION_BYTES
    }

    /// Whether all 26 neighbours of `v` lie in `v`'s own page.
    #[inline]
    pub(crate) fn interior(v: IVec3) -> bool {
        let l = v & Self::MASK;
        // Each coordinate within 1 ..= MASK - 1, tested without a branch per axis (whether a
        // voxel is interior follows no pattern a branch predictor could learn).
        let inner = |c: i32| ((c - 1) as u32) < (Self::MASK - 1) as u32;
        inner(l.x) & inner(l.y) & inner(l.z)
    }

    /// Slot of `n`, the neighbour of the voxel in `slot` by move `m`: a fixed offset from
    /// `slot` when both lie in one page (always when that voxel is
    /// [`interior`](Self::interior), `inside`), else looked up (and
    /// its page made).
    #[inline(always)]
    pub(crate) fn neighbour(&mut self, slot: usize, inside: bool, n: IVec3, m: usize) -> usize {
        // Off the page's interior, most moves still stay in the page: the voxels lie in one
        // page when their coordinates (never negative) differ in no bit of the page's
        // number. One branch, not one per test and axis.
        let apart = (n - OFFSETS[m]) ^ n;
        if inside | ((apart.x | apart.y | apart.z) >> SHIFT == 0) {
            slot.wrapping_add_signed(Self::SLOT_DELTA[m])
        } else {
            self.slot(n)
        }
    }
}

/// Whether all 26 neighbours of `v` lie in `v`'s own chunk (and so in its page, for pages of
/// a chunk).
#[inline]
pub(crate) fn interior(v: IVec3) -> bool {
    NodeStore::<Scores, CHUNK_SHIFT>::interior(v)
}

/// Slot offset of each move from a node whose neighbours all lie in its page, for pages of
/// `2^shift` voxels a side.
const fn slot_deltas(shift: i32) -> [isize; MOVES] {
    let mut out = [0; MOVES];
    let mut m = 0;
    while m < MOVES {
        let d = OFFSETS[m];
        out[m] = (d.x + (d.y << shift) + (d.z << (2 * shift))) as isize;
        m += 1;
    }
    out
}

/// Index of `v` inside its chunk's page.
#[inline]
pub(crate) fn local(v: IVec3) -> usize {
    PageTable::<CHUNK_SHIFT>::local(v)
}
/// Sets `len` entries of `table` from `start` to [`NO_PAGE`], growing it if they are past its
/// end.
fn no_pages(table: &mut Vec<u32>, start: usize, len: usize) {
    if table.len() < start + len {
        table.resize(start + len, NO_PAGE);
    }
    table[start..start + len].fill(NO_PAGE);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Growing adds segments and moves no record of a full segment, within the room `most`
    /// allows; shrinking keeps the records below its length, and a slot past it reads
    /// untouched when the room grows again.
    #[test]
    fn paged_records_grow_without_moving() {
        let mut rec = Paged::<u64>::default();
        rec.grow(100, usize::MAX);
        assert_eq!(rec.len(), 100, "the first room is what is asked");
        for slot in 0..100 {
            rec[slot] = slot as u64 + 1;
        }
        rec.grow(101, usize::MAX);
        assert_eq!(rec.len(), 200, "within the first segment the room doubles");
        rec.grow(SEGMENT, 150);
        assert_eq!(rec.len(), SEGMENT, "never less than asked");
        let first: *const u64 = &rec[0];
        rec.grow(40 * SEGMENT + 1, usize::MAX);
        assert_eq!(rec.len(), 41 * SEGMENT, "past the first segment, whole segments");
        assert!(std::ptr::eq(first, &rec[0]), "a record of a full segment moved");
        assert!((0..100).all(|s| rec[s] == s as u64 + 1));
        assert!((100..41 * SEGMENT).all(|s| rec[s] == 0));
        rec.grow(42 * SEGMENT + 1, 41 * SEGMENT + 10);
        assert_eq!(rec.len(), 42 * SEGMENT + 1, "within `most`, or what is asked");
        let mut tight = Paged::<u64>::default();
        for len in (1..3 * SEGMENT).step_by(37) {
            tight.grow(len, 2 * SEGMENT + 100);
            let room = 8 * (2 * SEGMENT + 100);
            assert!(tight.heap_bytes() <= room.max(8 * len + 3 * 16), "{len}: {} bytes", tight.heap_bytes());
        }
        rec[3 * SEGMENT + 7] = 9;
        rec[3 * SEGMENT + 70] = 9;
        rec.shrink(3 * SEGMENT + 50);
        assert_eq!(rec.len(), 3 * SEGMENT + 50);
        assert_eq!(rec[3 * SEGMENT + 7], 9);
        rec.grow(5 * SEGMENT, usize::MAX);
        assert_eq!(rec[3 * SEGMENT + 70], 0, "past the kept length: untouched");
        rec.clear(3 * SEGMENT..3 * SEGMENT + 8);
        assert_eq!(rec[3 * SEGMENT + 7], 0);
        assert_eq!(rec[99], 100);
        rec.shrink(0);
        assert_eq!((rec.len(), rec.heap_bytes()), (0, 0));
    }
}
