//! What a search's tables take, checked against the world's
//! [`Limits::max_search_bytes`](crate::Limits) before anything is allocated: the tables sized
//! by the world, at `begin` ([`search_table_bytes`]), and at each expansion the pages it may
//! add (for A*, the node pages of a voxel's neighbours, `NodeStore::expansion_bytes`; for jump
//! point search, [`EXPANSION_MARGIN`]); and what a search holds, kept near what it uses
//! ([`fit_room`]).

use crate::grid::world::VoxelWorld;
use crate::search::config::{Fallback, SearchConfig};
use crate::search::nodes::{NodeStore, Records};
use crate::search::open_list::OpenList;
use crate::search::radix_heap::Buckets;

/// Bytes of the tables a query of `config` needs sized by the world (not by what it
/// explores): a page-table entry of 8 bytes per 16^3 chunk for A\* (exact, weighted or
/// budget), and 8 more for the closest-voxel flood. Jump point search needs no more: where its
/// own tables ([`JPS_TABLE_BYTES`] per chunk) do not fit the limit, plain A\* answers the
/// query, as it does where the jump point search runs out of room. (The budget mode runs jump
/// point search's prelude only where its two tables fit too.)
pub(crate) fn search_table_bytes(world: &VoxelWorld, config: &SearchConfig) -> usize {
    let per_chunk = 8 + if config.fallback == Fallback::Closest { 8 } else { 0 };
    world.chunk_count().saturating_mul(per_chunk)
}

/// Bytes per chunk of the world of the prelude's tables: the page tables of its two A\*s
/// (pages smaller than a chunk: 4 bytes per chunk each).
pub(crate) const PRELUDE_TABLE_BYTES: usize = 2 * 4;

/// Bytes per chunk of the world of jump point search's tables: its prelude's
/// ([`PRELUDE_TABLE_BYTES`]), the page tables of its race's two sides (4 bytes per chunk
/// each) and the table of its scan events (8 bytes per chunk).
pub(crate) const JPS_TABLE_BYTES: usize = PRELUDE_TABLE_BYTES + 2 * 4 + 8;

/// Whether jump point search's tables ([`JPS_TABLE_BYTES`] per chunk) fit `world`'s search
/// limit.
pub(crate) fn jps_tables_fit(world: &VoxelWorld) -> bool {
    world.chunk_count().saturating_mul(JPS_TABLE_BYTES) <= world.limits().max_search_bytes
}

/// Bytes jump point search may add in one expansion beyond what it holds: a sweep of up
/// to 4,096 voxels, each in a new 2^3 page of 16-byte cells and its origin, in a new 8^3
/// region (a block of 64 page numbers) of a new chunk (a block of 8 region blocks and its
/// chunk), and their chunks' scan events; and, to spare, eight 16^3 chunks of 9-byte records.
pub(crate) const EXPANSION_MARGIN: usize = 4096 * (8 * 16 + 12 + 64 * 4 + 9 * 4 + 64) + 8 * 4096 * 9;

/// Keeps what a search's node pages and open list hold, with the room their vectors keep,
/// within `limit`: room kept from earlier searches is given back once they would pass it, and
/// of what is left the node pages may grow into an eighth, the 4-ary heap into half (the
/// radix heap's blocks follow its entries, which the search's check counts, and it says when
/// they pass that half). The entries and pages a search uses later fill the same room, so the
/// pages' unused room is what passes the limit as a search nears it: an eighth kept it within
/// 0.5 % on FB1 #4300 (half: 2.8 %). A search calls it as it starts and again whenever one of
/// them grew.
#[cold]
#[inline(never)]
pub(crate) fn fit_room<R: Records, const SHIFT: i32, B: Buckets>(
    nodes: &mut NodeStore<R, SHIFT>,
    open: &mut OpenList<B>,
    limit: usize,
) {
    let held = |nodes: &NodeStore<R, SHIFT>, open: &OpenList<B>| nodes.heap_bytes() + open.heap_bytes();
    if held(nodes, open) > limit {
        nodes.give_back();
        open.give_back();
    }
    let spare = limit.saturating_sub(held(nodes, open));
    nodes.set_most_bytes(nodes.heap_bytes() + spare / 8);
    open.set_most_bytes(open.heap_bytes() + spare / 2);
}
