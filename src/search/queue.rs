//! [`PathQueue`]: path requests served by priority within a per-frame expansion budget, so
//! hundreds of agents asking at once do not all search in one frame.

use std::time::Instant;

use crate::error::PathError;
use crate::grid::components::Components;
use crate::grid::world::VoxelWorld;
use crate::search::path::{Path, SearchStep};
use crate::search::pathfinder::Pathfinder;
use crate::search::request::PathRequest;

/// Identifies a request given to [`PathQueue::push`]; tickets are never reused by a queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ticket(pub u64);

/// A request not finished: waiting (perhaps paused mid-search) or running.
#[derive(Debug)]
struct Entry {
    priority: u32,
    ticket: Ticket,
    request: PathRequest,
    /// The frame ([`PathQueue::update`] count) it was filed in: its age.
    filed: u64,
    /// A search begun on it: its state and the world (size, revision) it was begun on.
    search: Option<(Pathfinder, (glam::UVec3, u64))>,
    /// Paused: the bytes its pathfinder held when it was paused (0 otherwise).
    paused_bytes: usize,
}

impl Entry {
    /// Bytes its pathfinder holds now.
    fn bytes(&self) -> usize {
        self.search.as_ref().map_or(0, |(f, _)| f.memory_bytes())
    }
}

/// A queue of path requests, worked off a slice per frame.
///
/// [`push`](Self::push) files a request with a priority. Each [`update`](Self::update) spends
/// at most `budget` node expansions and returns the requests it finished. The order:
/// - **Urgent first**: the request with the highest *effective* priority runs. A request that
///   arrives with a higher one pre-empts the running search, which is paused (its search state
///   kept) and later resumed where it stopped, not restarted.
/// - **Bounded memory**: paused searches are kept only while, with the running search and the
///   spare pathfinder the queue reuses, they hold at most the world's
///   [`max_search_bytes`](crate::Limits::max_search_bytes). Past it the spare pathfinder goes
///   first, then paused searches (those begun on an older world first, then the least
///   urgent): such a request begins again when its turn comes, with the same result.
/// - **Nothing starves**: a request's effective priority is its priority plus one per
///   [`ageing`](Self::set_ageing) frames it has been filed (30 by default); among equals, the
///   oldest ticket first.
/// - **Valid at delivery**: a search that was begun, or paused, on a world that has been edited
///   or replaced since starts over on the world as it is; a result is delivered on the world of
///   the frame it finished in, and is exactly the one-shot result of the same request there.
/// - **Cancelling is immediate**: [`cancel`](Self::cancel) drops a queued, paused or running
///   request at once.
///
/// # Examples
/// ```
/// use glam::IVec3;
/// use voxnav::{PathQueue, PathRequest, SearchConfig, VoxelWorld};
/// let world = VoxelWorld::new(glam::Vec3::ZERO, 1.0, glam::UVec3::splat(32)).unwrap();
/// let mut queue = PathQueue::new();
/// let far = queue.push(PathRequest::new(IVec3::ZERO, IVec3::splat(31), SearchConfig::default()), 0);
/// let urgent = queue.push(PathRequest::new(IVec3::ZERO, IVec3::new(3, 0, 0), SearchConfig::default()), 10);
/// let mut done = Vec::new();
/// while !queue.is_empty() {
///     done.extend(queue.update(&world, None, 20)); // 20 expansions per frame
/// }
/// assert_eq!(done[0].0, urgent); // served first
/// assert_eq!(done[1].0, far);
/// assert!(done.iter().all(|(_, r)| r.is_ok()));
/// ```
#[derive(Debug)]
pub struct PathQueue {
    waiting: Vec<Entry>,
    active: Option<Entry>,
    /// The pathfinder of the last finished search, reused (its tables stay allocated).
    spare: Option<Pathfinder>,
    /// Bytes the paused searches held when they were paused (the sum of their `paused_bytes`).
    paused_bytes: usize,
    next: u64,
    frame: u64,
    ageing: u32,
}

impl Default for PathQueue {
    fn default() -> Self {
        Self { waiting: Vec::new(), active: None, spare: None, paused_bytes: 0, next: 0, frame: 0, ageing: 30 }
    }
}

impl PathQueue {
    /// An empty queue.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Every `frames` updates a request has been filed, its effective priority rises by one
    /// (0: never; priorities are then strict and a stream of urgent requests can starve a
    /// lower one). 30 by default.
    pub fn set_ageing(&mut self, frames: u32) {
        self.ageing = frames;
    }

    /// Files `request` with `priority` (higher is served first); returns its ticket.
    pub fn push(&mut self, request: PathRequest, priority: u32) -> Ticket {
        let ticket = Ticket(self.next);
        self.next += 1;
        self.waiting.push(Entry { priority, ticket, request, filed: self.frame, search: None, paused_bytes: 0 });
        ticket
    }

    /// Withdraws a request that has not finished, at once; returns whether it was queued,
    /// paused or running.
    pub fn cancel(&mut self, ticket: Ticket) -> bool {
        if self.active.as_ref().is_some_and(|e| e.ticket == ticket) {
            let entry = self.active.take();
            self.recycle(entry);
            return true;
        }
        match self.waiting.iter().position(|e| e.ticket == ticket) {
            Some(i) => {
                let entry = self.take_waiting(i);
                self.recycle(Some(entry));
                true
            }
            None => false,
        }
    }

    /// Requests not finished yet (queued, paused or running).
    #[must_use]
    pub fn len(&self) -> usize {
        self.waiting.len() + usize::from(self.active.is_some())
    }

    /// Whether every request has finished.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes of heap the queue's searches hold: the running one's, the paused ones' and the
    /// spare pathfinder's (see the type's docs for their limit).
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.active.as_ref().map_or(0, Entry::bytes)
            + self.paused_bytes
            + self.spare.as_ref().map_or(0, Pathfinder::memory_bytes)
    }

    /// Expansions between looks at the clock in [`update_until`](Self::update_until).
    pub const DEADLINE_SLICE: usize = 16;

    /// Keeps a dropped entry's pathfinder for the next search (in place of the spare one).
    fn recycle(&mut self, entry: Option<Entry>) {
        if let Some((finder, _)) = entry.and_then(|e| e.search) {
            self.spare = Some(finder);
        }
    }

    /// Removes waiting entry `i` (paused or not).
    fn take_waiting(&mut self, i: usize) -> Entry {
        let mut entry = self.waiting.swap_remove(i);
        self.paused_bytes -= std::mem::take(&mut entry.paused_bytes);
        entry
    }

    /// Pauses the running search, if any.
    fn pause(&mut self) {
        if let Some(mut entry) = self.active.take() {
            entry.paused_bytes = entry.bytes();
            self.paused_bytes += entry.paused_bytes;
            self.waiting.push(entry);
        }
    }

    /// Keeps the queue within `limit` bytes (see the type's docs): drops the spare pathfinder,
    /// then paused searches, those begun on another world than `stamp` first, then the least
    /// urgent, until the rest fits (or none is left).
    fn trim(&mut self, limit: usize, stamp: (glam::UVec3, u64)) {
        if self.memory_bytes() <= limit {
            return;
        }
        self.spare = None;
        let running = self.active.as_ref().map_or(0, Entry::bytes);
        while running + self.paused_bytes > limit {
            let current = |e: &Entry| e.search.as_ref().is_some_and(|(_, s)| *s == stamp);
            let Some(i) = (0..self.waiting.len())
                .filter(|&i| self.waiting[i].search.is_some())
                .min_by_key(|&i| (current(&self.waiting[i]), self.key(&self.waiting[i])))
            else {
                break;
            };
            let entry = &mut self.waiting[i];
            entry.search = None;
            self.paused_bytes -= std::mem::take(&mut entry.paused_bytes);
        }
    }

    /// Effective priority (see the type's docs), then the older ticket first.
    fn key(&self, e: &Entry) -> (u64, std::cmp::Reverse<Ticket>) {
        let age = if self.ageing == 0 { 0 } else { (self.frame - e.filed) / u64::from(self.ageing) };
        (u64::from(e.priority) + age, std::cmp::Reverse(e.ticket))
    }

    /// Works for one frame: at most `budget` expansions in all (and at least one request
    /// looked at, so a budget of 1 still makes progress). A search that returns
    /// [`SearchStep::Pending`] having expanded fewer nodes than it was given (its open list's
    /// other work took its share, see [`Pathfinder::advance`]) counts as having used them all.
    /// Returns the requests finished this frame, in the order they finished.
    ///
    /// An expansion's time depends on the algorithm: one of jump point search may sweep
    /// thousands of voxels and read chunks it has not read before, so a budget that suits A*
    /// lets jump point search run several times longer in a frame. To bound a frame's time,
    /// use [`update_until`](Self::update_until) (docs/living-worlds.md compares the two).
    ///
    /// # Errors
    /// Each finished request carries its own result; errors are those of [`Pathfinder::find`]
    /// (with the same `components`).
    pub fn update(
        &mut self,
        world: &VoxelWorld,
        components: Option<&Components>,
        budget: usize,
    ) -> Vec<(Ticket, Result<Path, PathError>)> {
        self.update_until(world, components, budget, None)
    }

    /// [`update`](Self::update) that also stops at a wall-clock `deadline`: it works in slices
    /// of [`DEADLINE_SLICE`](Self::DEADLINE_SLICE) expansions and, after each, stops if the
    /// slowest slice of this call would no longer fit before the deadline (at least one slice
    /// is done, so work always moves on). A deadline makes the work
    /// done per frame depend on the machine's speed; the results do not (each is still exactly
    /// the one-shot result of its request on the world of the frame it finished in).
    ///
    /// # Errors
    /// As [`update`](Self::update).
    pub fn update_until(
        &mut self,
        world: &VoxelWorld,
        components: Option<&Components>,
        budget: usize,
        deadline: Option<Instant>,
    ) -> Vec<(Ticket, Result<Path, PathError>)> {
        self.frame += 1;
        let mut done = Vec::new();
        let mut left = budget.max(1);
        let stamp = (world.dims(), world.revision());
        let mut slowest = std::time::Duration::ZERO;
        while left > 0 {
            // The most urgent waiting request takes over if it outranks the running one.
            let best = (0..self.waiting.len()).max_by_key(|&i| self.key(&self.waiting[i]));
            if let Some(b) = best
                && self.active.as_ref().is_none_or(|a| self.key(&self.waiting[b]) > self.key(a))
            {
                self.pause();
                self.active = Some(self.take_waiting(b));
            }
            let Some(mut entry) = self.active.take() else { break };
            let current = entry.search.as_ref().is_some_and(|(_, s)| *s == stamp);
            if !current {
                // Begin (or begin again: the world changed since it was begun or paused).
                let mut finder = entry.search.take().map(|(f, _)| f).or_else(|| self.spare.take()).unwrap_or_default();
                if let Err(e) = finder.begin(world, components, &entry.request) {
                    self.spare = Some(finder);
                    done.push((entry.ticket, Err(e)));
                    left -= 1;
                    continue;
                }
                entry.search = Some((finder, stamp));
            }
            let Some((finder, _)) = entry.search.as_mut() else { break };
            let before = finder.stats().expanded;
            let sliced = Instant::now();
            let slice = if deadline.is_some() { left.min(Self::DEADLINE_SLICE) } else { left };
            let step = finder.advance(world, slice);
            // A search that goes on used its slice, in expansions or in the work a slice may do
            // besides (see `Pathfinder::advance`).
            let used = match step {
                SearchStep::Pending => slice,
                _ => finder.stats().expanded.saturating_sub(before).max(1),
            };
            left = left.saturating_sub(used);
            match step {
                SearchStep::Pending => self.active = Some(entry),
                SearchStep::Found(path) => {
                    done.push((entry.ticket, Ok(path)));
                    self.recycle(Some(entry));
                }
                SearchStep::Failed(e) => {
                    done.push((entry.ticket, Err(e)));
                    self.recycle(Some(entry));
                }
            }
            self.trim(world.limits().max_search_bytes, stamp);
            if let Some(d) = deadline {
                let now = Instant::now();
                slowest = slowest.max(now - sliced);
                if now + slowest >= d {
                    break;
                }
            }
        }
        done
    }
}
