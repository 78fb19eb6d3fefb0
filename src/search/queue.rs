//! [`PathQueue`]: path requests served by priority within a per-frame expansion budget, so
//! hundreds of agents asking at once do not all search in one frame.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::error::PathError;
use crate::grid::components::Components;
use crate::grid::world::VoxelWorld;
use crate::search::astar::Pathfinder;
use crate::search::batch::PathRequest;
use crate::search::path::Path;
use crate::search::path::SearchStep;

/// Identifies a request given to [`PathQueue::push`]; tickets are never reused by a queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ticket(pub u64);

#[derive(Debug, Clone, Copy)]
struct Waiting {
    priority: u32,
    ticket: Ticket,
    request: PathRequest,
}

impl PartialEq for Waiting {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Waiting {}
impl Ord for Waiting {
    /// Highest priority first, then oldest ticket first.
    fn cmp(&self, o: &Self) -> Ordering {
        self.priority.cmp(&o.priority).then(o.ticket.cmp(&self.ticket))
    }
}
impl PartialOrd for Waiting {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// A queue of path requests, worked off a slice per frame.
///
/// [`push`](Self::push) files a request with a priority (higher first; equal priorities in
/// arrival order). Each [`update`](Self::update) spends at most `budget` node expansions on the
/// requests at the head of the queue, resuming the one it left unfinished last frame (it is not
/// pre-empted by a later, higher priority), and returns the requests it finished. A result is
/// exactly the one-shot result of the same request. If the world was edited between two
/// frames, the unfinished search starts over on the new world.
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
#[derive(Debug, Default)]
pub struct PathQueue {
    waiting: BinaryHeap<Waiting>,
    active: Option<(Ticket, PathRequest, (glam::UVec3, u64))>,
    finder: Pathfinder,
    next: u64,
}

impl PathQueue {
    /// An empty queue.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Files `request` with `priority` (higher is served first); returns its ticket.
    pub fn push(&mut self, request: PathRequest, priority: u32) -> Ticket {
        let ticket = Ticket(self.next);
        self.next += 1;
        self.waiting.push(Waiting { priority, ticket, request });
        ticket
    }

    /// Withdraws a request that has not finished; returns whether it was queued or running.
    pub fn cancel(&mut self, ticket: Ticket) -> bool {
        if self.active.is_some_and(|(t, ..)| t == ticket) {
            self.active = None;
            return true;
        }
        let before = self.waiting.len();
        self.waiting.retain(|w| w.ticket != ticket);
        self.waiting.len() != before
    }

    /// Requests not finished yet (queued or running).
    #[must_use]
    pub fn len(&self) -> usize {
        self.waiting.len() + usize::from(self.active.is_some())
    }

    /// Whether every request has finished.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Works for one frame: at most `budget` expansions in all (and at least one request
    /// looked at, so a budget of 1 still makes progress). Returns the requests finished this
    /// frame, in the order they finished.
    ///
    /// # Errors
    /// Each finished request carries its own result; errors are those of
    /// [`Pathfinder::find_voxel_path`].
    pub fn update(
        &mut self,
        world: &VoxelWorld,
        components: Option<&Components>,
        budget: usize,
    ) -> Vec<(Ticket, Result<Path, PathError>)> {
        let mut done = Vec::new();
        let mut left = budget.max(1);
        let stamp = (world.dims(), world.revision());
        while left > 0 {
            if self.active.is_none_or(|(.., s)| s != stamp) {
                // Start the next request (or restart one whose world was edited).
                let (ticket, request) = match self.active.take() {
                    Some((t, r, _)) => (t, r),
                    None => match self.waiting.pop() {
                        Some(w) => (w.ticket, w.request),
                        None => break,
                    },
                };
                let begun = match components {
                    Some(c) => self.finder.begin_with(world, c, request.start, request.goal, &request.config),
                    None => self.finder.begin(world, request.start, request.goal, &request.config),
                };
                if let Err(e) = begun {
                    done.push((ticket, Err(e)));
                    left -= 1;
                    continue;
                }
                self.active = Some((ticket, request, stamp));
            }
            let Some((ticket, ..)) = self.active else { break };
            let before = self.finder.stats().expanded;
            let step = self.finder.advance(world, left);
            let used = self.finder.stats().expanded.saturating_sub(before).max(1);
            left = left.saturating_sub(used);
            match step {
                SearchStep::Pending => {}
                SearchStep::Found(path) => {
                    self.active = None;
                    done.push((ticket, Ok(path)));
                }
                SearchStep::Failed(e) => {
                    self.active = None;
                    done.push((ticket, Err(e)));
                }
            }
        }
        done
    }
}
