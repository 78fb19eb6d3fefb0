//! Per-search node state, paged by world chunk so memory follows the nodes a search touches.
//!
//! A page holds the state of one 16^3 chunk of voxels: best cost so far (`g`) and one byte of
//! flags and parent move. Pages are handed out on first touch and recycled by the next search:
//! a stamp per chunk says whether its page belongs to the current search, so starting a search
//! costs nothing and no lookup hashes.

use glam::IVec3;

use crate::grid::layer::{CHUNK_MASK, CHUNK_SHIFT, CHUNK_VOXELS};
use crate::grid::moves::{MOVES, OFFSETS};

/// `info` flag: the node is on the open list (or was improved since it last left it).
pub(crate) const OPEN: u8 = 0x40;
/// `info` flag: the node has been expanded.
pub(crate) const CLOSED: u8 = 0x80;
/// `info` low bits: the move that reached the node, or `NO_PARENT`.
pub(crate) const PARENT_MASK: u8 = 0x3F;
/// Parent value of the start node.
pub(crate) const NO_PARENT: u8 = 0x3F;

#[derive(Debug, Default, Clone)]
pub(crate) struct NodeStore {
    stamp: u32,
    chunk_dims: IVec3,
    /// Per chunk: `[stamp, page]`; the page is valid when the stamp is the current one.
    table: Vec<[u32; 2]>,
    /// Min voxel of the chunk each page holds.
    page_origin: Vec<IVec3>,
    used: usize,
    pub(crate) g: Vec<u64>,
    pub(crate) info: Vec<u8>,
}

impl NodeStore {
    /// Forgets every node, sized for a world of `chunk_dims` chunks. Keeps its memory.
    pub(crate) fn reset(&mut self, chunk_dims: IVec3) {
        let chunks = chunk_dims.x as usize * chunk_dims.y as usize * chunk_dims.z as usize;
        if chunk_dims != self.chunk_dims || self.stamp == u32::MAX {
            self.table.clear();
            self.table.resize(chunks, [0, 0]);
            self.chunk_dims = chunk_dims;
            self.stamp = 0;
        }
        self.stamp += 1;
        self.used = 0;
    }

    /// Slot of voxel `v` (inside the world), giving it a cleared page on first touch.
    #[inline]
    pub(crate) fn slot(&mut self, v: IVec3) -> usize {
        let c = v >> CHUNK_SHIFT;
        let chunk = ((c.z * self.chunk_dims.y + c.y) * self.chunk_dims.x + c.x) as usize;
        let entry = &mut self.table[chunk];
        let page = if entry[0] == self.stamp {
            entry[1] as usize
        } else {
            let page = self.used;
            *entry = [self.stamp, page as u32];
            self.new_page(page, c << CHUNK_SHIFT);
            page
        };
        page * CHUNK_VOXELS + local(v)
    }

    /// Slot of `v` if this search touched its chunk.
    #[inline]
    pub(crate) fn find(&self, v: IVec3) -> Option<usize> {
        let c = v >> CHUNK_SHIFT;
        let chunk = ((c.z * self.chunk_dims.y + c.y) * self.chunk_dims.x + c.x) as usize;
        let entry = self.table[chunk];
        (entry[0] == self.stamp).then(|| entry[1] as usize * CHUNK_VOXELS + local(v))
    }

    #[cold]
    fn new_page(&mut self, page: usize, origin: IVec3) {
        self.used += 1;
        let start = page * CHUNK_VOXELS;
        if self.info.len() < start + CHUNK_VOXELS {
            self.info.resize(start + CHUNK_VOXELS, 0);
            self.g.resize(start + CHUNK_VOXELS, 0);
            self.page_origin.push(origin);
        } else {
            self.info[start..start + CHUNK_VOXELS].fill(0);
            self.page_origin[page] = origin;
        }
    }

    /// Voxel of a slot.
    #[inline]
    pub(crate) fn voxel(&self, slot: usize) -> IVec3 {
        let l = (slot % CHUNK_VOXELS) as i32;
        self.page_origin[slot / CHUNK_VOXELS]
            + IVec3::new(l & CHUNK_MASK, (l >> CHUNK_SHIFT) & CHUNK_MASK, l >> (2 * CHUNK_SHIFT))
    }

    /// Bytes of heap held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.table.capacity() * 8 + self.page_origin.capacity() * 12 + self.g.capacity() * 9
    }
}

/// Whether all 26 neighbours of `v` lie in `v`'s own chunk (and so in its page).
#[inline]
pub(crate) fn interior(v: IVec3) -> bool {
    let l = v & CHUNK_MASK;
    l.cmpgt(IVec3::ZERO).all() && l.cmplt(IVec3::splat(CHUNK_MASK)).all()
}

/// Slot offset of each move from an [`interior`] node.
pub(crate) const SLOT_DELTA: [isize; MOVES] = slot_deltas();

const fn slot_deltas() -> [isize; MOVES] {
    let mut out = [0; MOVES];
    let mut m = 0;
    while m < MOVES {
        let d = OFFSETS[m];
        out[m] = (d.x + (d.y << CHUNK_SHIFT) + (d.z << (2 * CHUNK_SHIFT))) as isize;
        m += 1;
    }
    out
}

#[inline]
fn local(v: IVec3) -> usize {
    let l = v & CHUNK_MASK;
    ((l.z << (2 * CHUNK_SHIFT)) | (l.y << CHUNK_SHIFT) | l.x) as usize
}
