//! One checked query, decoded from bytes: shared by the `query` fuzz target and the stable
//! property test (`tests/properties.rs`). Every input must give a typed answer, never a panic,
//! and the answer must agree with a plain Dijkstra oracle.
//!
//! The bytes choose a small seeded world (at most 12^3, solid, water and air), endpoints (some
//! outside the world), a cost model (some invalid), a diagonal rule, an algorithm, a fallback,
//! media with prices (some absurd), an expansion cap, optional connectivity labels, and a way to
//! run it: one shot, time-sliced, time-sliced with an edit or a replaced world between slices,
//! or through a `PathQueue` (in one queue run of two with an edit after the first frame). A
//! one-shot answer must also be what `find_paths` answers, on the pathfinders it kept from
//! earlier inputs. Jump point searches (and exact A* inputs, as jump point searches) also run
//! without the prelude (which answers every query of worlds this small), so that the race of
//! jump searches is checked too.
//!
//! One input in four, and every one of an agent with clearance, also checks a shared-goal
//! field's cost from the start and its path. One found path in four, and every one of an agent
//! with clearance, is smoothed (with that clearance) and the curve checked clear by dense
//! sampling, and an agent flying it rejoins, from a pose on the flight, the voxel it is in and
//! (where it can) its own path (the curves from its pose checked clear, the continued flights
//! finite); one in four is repaired after an edit and the answer checked against the oracle on
//! the edited world (more of both where the bytes run out).

use glam::{IVec3, UVec3};
use voxnav::prelude::*;
use voxnav::{FieldError, GoalField, PathCheck, PathQueue, PathRequest, SearchStep};

use super::{check_steps, distances, find_sliced, index, rng, walled_world};

/// Reads bytes as numbers, then zeros once they run out.
pub struct Bytes<'a>(pub &'a [u8]);

impl Bytes<'_> {
    /// The next byte (0 past the end).
    pub fn byte(&mut self) -> u8 {
        let (&b, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        b
    }
    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: u32) -> u32 {
        let v = u32::from_le_bytes([self.byte(), self.byte(), 0, 0]);
        v % n
    }
    /// A full `u32`.
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }
}

/// How the query is run.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Run {
    Once,
    Sliced(usize),
    Edited(usize),
    Replaced(usize),
    Queue(usize),
}

/// What one check did, for counting in tests.
#[derive(Debug, Default, Clone, Copy)]
pub struct Outcome {
    /// A path was returned and checked against the oracle.
    pub paths: usize,
    /// A typed error was returned and checked.
    pub errors: usize,
    /// The search noticed an edit or a replaced world.
    pub world_changed: usize,
    /// Paths checked for an agent with a clearance radius.
    pub clearance_paths: usize,
    /// Field costs checked for agents with a clearance radius.
    pub field_with_clearance: usize,
    /// Smoothed paths of agents with a clearance radius.
    pub smoothed_with_clearance: usize,
    /// Paths checked in a world wider than a 16-voxel chunk along some axis.
    pub paths_across_chunks: usize,
    /// Costs from the start read off a shared-goal field and checked.
    pub field_costs: usize,
    /// Found paths smoothed and the curve checked clear.
    pub smoothed: usize,
    /// Of those, flights on the curve that rejoined their own path from a pose on it
    /// (`smooth_from`, `Trajectory::continue_from`), checked clear and finite. (Every one
    /// rejoins the voxel it is in.)
    pub rejoined: usize,
    /// Queue answers delivered on a world edited after the queue's first frame.
    pub queue_edited: usize,
    /// Found paths repaired after an edit and the answer checked against a fresh oracle.
    pub repairs: usize,
    /// Of those, paths the edit broke that came back mended (or cut short at the closest
    /// voxel).
    pub repairs_broken: usize,
    /// One-shot answers also asked of `find_paths` (on pathfinders kept from earlier inputs)
    /// and found equal.
    pub batched: usize,
    /// Jump point searches (and exact A* inputs, as jump point searches) run again without
    /// the prelude (the race of jump searches) on a pathfinder kept across inputs, and checked
    /// against the oracle.
    pub raced: usize,
    /// Of those, races that read the world's chunks (the sweeps ran).
    pub raced_swept: usize,
    /// Of those, races run in time slices.
    pub raced_sliced: usize,
    /// Exact queries that A* answered within a search limit of a few megabytes at most (and
    /// jump point search too, with its prelude and without).
    pub tight_limits: usize,
}

/// Sums the counts of many checks. `other` is taken apart field by field, so a count added to
/// [`Outcome`] cannot be left out of the sum.
impl std::ops::AddAssign for Outcome {
    fn add_assign(&mut self, other: Self) {
        let Outcome {
            paths,
            errors,
            world_changed,
            clearance_paths,
            field_with_clearance,
            smoothed_with_clearance,
            paths_across_chunks,
            field_costs,
            smoothed,
            rejoined,
            queue_edited,
            repairs,
            repairs_broken,
            batched,
            raced,
            raced_swept,
            raced_sliced,
            tight_limits,
        } = other;
        self.paths += paths;
        self.errors += errors;
        self.world_changed += world_changed;
        self.clearance_paths += clearance_paths;
        self.field_with_clearance += field_with_clearance;
        self.smoothed_with_clearance += smoothed_with_clearance;
        self.paths_across_chunks += paths_across_chunks;
        self.field_costs += field_costs;
        self.smoothed += smoothed;
        self.rejoined += rejoined;
        self.queue_edited += queue_edited;
        self.repairs += repairs;
        self.repairs_broken += repairs_broken;
        self.batched += batched;
        self.raced += raced;
        self.raced_swept += raced_swept;
        self.raced_sliced += raced_sliced;
        self.tight_limits += tight_limits;
    }
}

/// Decodes a query from `data`, runs it and checks the answer; panics on any disagreement.
pub fn check_query(data: &[u8]) -> Outcome {
    let mut b = Bytes(data);
    let seed = u64::from(b.u32()) << 32 | u64::from(b.u32());
    // Small worlds, but one axis in eight crosses the 16-voxel chunk borders (and the 8^3 node
    // pages' and scan chunks' with them), where masks and pages read neighbouring chunks.
    let side = |b: &mut Bytes| if b.byte() >= 224 { 14 + b.below(11) } else { 2 + b.below(11) };
    let dims = UVec3::new(side(&mut b), side(&mut b), side(&mut b));
    let solid = b.below(40);
    let water = b.below(50);
    let world = walled_world(&mut rng(seed), dims, solid, water);
    let d = dims.as_ivec3();
    // Mostly inside the world; one in sixteen may fall just outside.
    let point = |b: &mut Bytes| {
        let out = i32::from(b.byte() % 16 == 15);
        // Inside the outer shell where there is room (walled worlds are solid there).
        let mut axis = |n: i32| if n > 2 { 1 + b.below(n as u32 - 2) as i32 } else { b.below(n as u32) as i32 };
        let p = IVec3::new(axis(d.x), axis(d.y), axis(d.z));
        p + IVec3::new(out * d.x, 0, 0) - IVec3::splat(out * i32::from(b.byte().is_multiple_of(2)))
    };
    let (start, goal) = (point(&mut b), point(&mut b));
    let costs = match b.below(20) {
        0..=9 => CostModel::GAME,
        10..=14 => CostModel::PRECISE,
        15..=18 => {
            // Valid by construction, ties included (they exercise jump point search's fallback).
            let face = 1 + u64::from(b.below(20));
            let edge = face + u64::from(b.below(face as u32 + 1));
            let top = (face + edge).min(2 * edge - face);
            CostModel { face, edge, corner: edge + u64::from(b.below((top - edge) as u32 + 1)) }
        }
        _ => {
            CostModel { face: u64::from(b.u32()), edge: u64::from(b.u32()), corner: u64::from(b.u32()) << b.below(24) }
        }
    };
    let diagonal = [DiagonalRule::Strict, DiagonalRule::Faces, DiagonalRule::Unchecked][b.below(3) as usize];
    let algorithm = match b.below(5) {
        0 | 1 => Algorithm::AStar,
        2 => Algorithm::Jps,
        3 => Algorithm::Weighted { percent: if b.byte() < 8 { b.u32() } else { b.below(1000) } },
        _ => Algorithm::Budget {
            percent: if b.byte() < 8 { b.u32() } else { 100 + b.below(200) },
            phase_expansions: b.below(64),
        },
    };
    let heuristic = if b.byte() < 16 { Heuristic::Zero } else { Heuristic::Octile };
    let fallback = if b.byte() < 96 { Fallback::Closest } else { Fallback::Fail };
    let weight = |b: &mut Bytes| match b.below(16) {
        14 => None,
        15 => Some(b.u32()),
        11..=13 => Some(100 + b.below(400)),
        _ => Some(100),
    };
    let media = Media { air: weight(&mut b), water: weight(&mut b) };
    let max_expansions = (b.byte() > 224).then(|| b.below(300) as usize);
    let clearance = match b.below(16) {
        0..=8 => 0,
        9..=13 => 1,
        14 => 2,
        _ => b.byte(), // mostly above the limit
    };
    let config = SearchConfig { costs, heuristic, diagonal, media, max_expansions, algorithm, fallback, clearance };
    if std::env::var_os("QUERY_CHECK_DEBUG").is_some() {
        eprintln!("{config:?} dims {dims} solid {solid} water {water} seed {seed}");
    }
    let labels = (b.byte() < 80).then(|| Components::with_rule(&world, media, diagonal).unwrap());
    let slice = 1 + b.below(40) as usize;
    let run = match b.below(8) {
        0..=2 => Run::Once,
        3..=4 => Run::Sliced(slice),
        5 => Run::Edited(slice),
        6 => Run::Replaced(slice),
        _ => Run::Queue(slice),
    };

    let mut finder = Pathfinder::new();
    let request = PathRequest::new(start, goal, config);
    let mut out = Outcome::default();
    let mut delivered_on: Option<VoxelWorld> = None;
    let result = match run {
        Run::Once => {
            let once = finder.find(&world, labels.as_ref(), &request);
            // A batch runs on pathfinders kept from earlier batches (other worlds, other
            // configurations): its answers must be the one-shot ones.
            let batch = voxnav::find_paths(&world, labels.as_ref(), &[request, request]);
            assert_eq!(batch, [once.clone(), once.clone()], "{config:?}");
            out.batched += 1;
            once
        }
        Run::Sliced(n) => find_sliced(&mut finder, &world, labels.as_ref(), &request, n),
        Run::Edited(n) | Run::Replaced(n) => {
            let mut other = world.clone();
            if matches!(run, Run::Edited(_)) {
                let v = IVec3::new(b.below(d.x as u32) as i32, b.below(d.y as u32) as i32, b.below(d.z as u32) as i32);
                other.set(v, Voxel::Solid).unwrap();
            } else {
                other = walled_world(&mut rng(seed ^ 1), dims + UVec3::new(0, 1, 0), solid, water);
            }
            match finder.begin(&world, labels.as_ref(), &request) {
                Err(e) => Err(e),
                Ok(()) => match finder.advance(&world, n) {
                    SearchStep::Pending => {
                        // The search saw the first world: a changed one must stop it.
                        let step = finder.advance(&other, n);
                        assert_eq!(step, SearchStep::Failed(PathError::WorldChanged), "{config:?}");
                        out.world_changed += 1;
                        return out;
                    }
                    SearchStep::Found(p) => Ok(p),
                    SearchStep::Failed(e) => Err(e),
                },
            }
        }
        Run::Queue(n) => {
            let mut queue = PathQueue::new();
            let decoy = queue.push(PathRequest::new(goal, start, config), 0);
            let ticket = queue.push(PathRequest::new(start, goal, config), 1);
            if b.byte() < 128 {
                assert!(queue.cancel(decoy));
            }
            // One queue run in two edits the world after its first frame: a voxel on the line
            // between the ends flips (free to solid, blocked to air). The result must then be
            // the one-shot answer on the world of the frame it was delivered in.
            let edit = (b.byte() < 128).then(|| {
                let k = 1 + b.below(7) as i32;
                let v = start + (goal - start) * k / 8;
                let mut other = world.clone();
                if other.contains(v) {
                    let flipped = if other.get(v) == Voxel::Air { Voxel::Solid } else { Voxel::Air };
                    other.set(v, flipped).unwrap();
                }
                other
            });
            let mut result = None;
            for frame in 0..1_000_000 {
                let current = if frame > 0 { edit.as_ref().unwrap_or(&world) } else { &world };
                // With an edit, the first frame expands one voxel, so that most searches span it.
                let budget = if frame == 0 && edit.is_some() { 1 } else { n };
                for (t, r) in queue.update(current, labels.as_ref(), budget) {
                    if t == ticket {
                        result = Some(r);
                        delivered_on = (frame > 0).then(|| edit.clone()).flatten();
                    }
                }
                if queue.is_empty() {
                    break;
                }
            }
            result.expect("the queue finishes every request")
        }
    };
    // The world the answer was delivered on (a queue run may have edited it).
    out.queue_edited += usize::from(delivered_on.is_some());
    let world = delivered_on.unwrap_or(world);

    // Errors that do not depend on the search.
    if config.validate().is_err() {
        assert!(matches!(result, Err(PathError::InvalidCosts(_) | PathError::InvalidConfig(_))), "{result:?}");
        out.errors += 1;
        return out;
    }
    // Costs that could overflow in a world this size are refused (SearchConfig::validate's
    // world-dependent part).
    let dearest = [media.air, media.water].iter().flatten().map(|&w| u128::from(w.max(100))).max().unwrap_or(100);
    let voxels = u128::from(dims.x * dims.y * dims.z);
    if (u128::from(costs.corner) * dearest / 100 + 1) * (voxels + 1) * 11 >= 1u128 << 63 {
        assert!(matches!(result, Err(PathError::InvalidConfig(_))), "{result:?}");
        out.errors += 1;
        return out;
    }
    if !world.contains(start) || !world.contains(goal) {
        assert!(matches!(result, Err(PathError::StartOutOfBounds(_) | PathError::GoalOutOfBounds(_))), "{result:?}");
        out.errors += 1;
        return out;
    }
    let original = &world;
    // An agent with clearance sees the world with its solid voxels (and outside) dilated.
    let world = &super::dilated(&world, clearance);
    if !media.allows(world.get(start)) || !media.allows(world.get(goal)) {
        assert!(matches!(result, Err(PathError::StartBlocked(_) | PathError::GoalBlocked(_))), "{result:?}");
        out.errors += 1;
        return out;
    }

    // The oracle.
    let dist = distances(world, start, diagonal, &costs, media);
    let optimum = dist[index(world, goal)];
    let target = if optimum.is_some() || fallback == Fallback::Fail { goal } else { closest(world, &dist, goal) };
    let best = dist[index(world, target)];
    // The shared-goal field (Dijkstra from the goal, pruned where the cost model allows) on the
    // same query: the cost from the start, or unreachable. One input in four, and every one of
    // an agent with clearance (rarer); the field sees the world the search saw and applies the
    // clearance itself.
    if clearance > 0 || b.byte() < 64 {
        let mut field = GoalField::new(original, goal, &config).expect("a valid goal and costs");
        let checked = match field.cost_from(original, start) {
            Ok(cost) => {
                assert_eq!(Some(cost), optimum, "field, {config:?} {start} -> {goal}");
                // Its path: legal, from the start to the goal, at that cost.
                let path = field.path_from(original, start).expect("a settled start has a path");
                check_steps(world, &path, start, diagonal, &costs, media);
                assert_eq!(path.voxels.last(), Some(&goal), "field path, {config:?}");
                assert_eq!(path.cost, cost, "field path, {config:?}");
                true
            }
            Err(FieldError::Unreachable(v)) => {
                assert!(v == start && optimum.is_none(), "field, {config:?}: {v}");
                true
            }
            Err(FieldError::BudgetExhausted { .. }) => {
                assert!(max_expansions.is_some(), "field, {config:?}");
                false
            }
            Err(e) => panic!("field, {config:?} {start} -> {goal}: unexpected {e:?}"),
        };
        out.field_costs += usize::from(checked);
        out.field_with_clearance += usize::from(checked && clearance > 0);
    }
    // Jump point search's prelude answers every query of worlds this small: run it again
    // without, so that its race of jump searches is checked too, on a pathfinder that carries
    // its node stores and scan cache from input to input. Exact A* inputs too (as jump point
    // searches): three times the races.
    if matches!(algorithm, Algorithm::AStar | Algorithm::Jps) {
        let request = PathRequest::new(start, goal, SearchConfig { algorithm: Algorithm::Jps, ..config });
        thread_local! {
            static RACER: std::cell::RefCell<Pathfinder> = std::cell::RefCell::new({
                let mut racer = Pathfinder::new();
                racer.set_jps_prelude(Some(0));
                racer
            });
        }
        // Time-sliced where the input's first search was.
        let race = |racer: &mut Pathfinder| match run {
            Run::Sliced(n) => find_sliced(racer, original, labels.as_ref(), &request, n),
            _ => racer.find(original, labels.as_ref(), &request),
        };
        let (raced, swept) = RACER.with_borrow_mut(|racer| (race(racer), racer.chunks_scanned() > 0));
        out.raced_sliced += usize::from(swept && matches!(run, Run::Sliced(_)));
        match raced {
            Ok(path) => {
                check_steps(world, &path, start, diagonal, &costs, media);
                assert_eq!(path.voxels.last(), Some(&target), "raced, {config:?} {start} -> {goal}");
                assert_eq!(Some(path.cost), best, "raced, {config:?} {start} -> {goal}");
            }
            Err(PathError::Unreachable { .. }) => assert!(optimum.is_none() && fallback == Fallback::Fail, "raced"),
            Err(PathError::BudgetExhausted { .. }) => assert!(max_expansions.is_some(), "raced, {config:?}"),
            Err(e) => panic!("raced, {config:?} {start} -> {goal}: unexpected {e:?}"),
        }
        out.raced += 1;
        out.raced_swept += usize::from(swept);
        // One in four, under a search limit from 100 KB to 6 MB (default: 512 MiB), on new
        // pathfinders: A* answers or refuses (`MemoryLimit`), and jump point search (with its
        // prelude and without) answers whatever A* answers, at the optimum.
        if b.byte() < 64 {
            let limit = 100_000 + b.below(60) as usize * 100_000;
            let mut tight = original.clone();
            tight.set_limits(voxnav::Limits { max_search_bytes: limit, ..voxnav::Limits::default() });
            let ask = |algorithm, prelude| {
                let mut finder = Pathfinder::new();
                finder.set_jps_prelude(prelude);
                let request = PathRequest::new(start, goal, SearchConfig { algorithm, ..config });
                finder.find(&tight, labels.as_ref(), &request)
            };
            let by_astar = ask(Algorithm::AStar, None);
            for (prelude, answer) in [(None, ask(Algorithm::Jps, None)), (Some(0), ask(Algorithm::Jps, Some(0)))] {
                let what = format!("within {limit}, {config:?} {start} -> {goal}, prelude {prelude:?}");
                match (&by_astar, &answer) {
                    (Ok(_), Ok(path)) | (Err(_), Ok(path)) => {
                        check_steps(world, path, start, diagonal, &costs, media);
                        assert_eq!((path.voxels.last(), Some(path.cost)), (Some(&target), best), "{what}");
                        assert!(path.stats.peak_bytes <= limit, "{what}: {} bytes", path.stats.peak_bytes);
                    }
                    (Ok(_), Err(e)) => panic!("{what}: A* answered, jump point search {e:?}"),
                    (Err(a), Err(j)) => {
                        let typed = |e: &PathError| match e {
                            PathError::MemoryLimit { limit: l, .. } => *l <= limit,
                            PathError::Unreachable { .. } => optimum.is_none() && fallback == Fallback::Fail,
                            PathError::BudgetExhausted { .. } => max_expansions.is_some(),
                            _ => false,
                        };
                        assert!(typed(a) && typed(j), "{what}: A* {a:?}, jump point search {j:?}");
                    }
                }
            }
            if let Ok(path) = &by_astar {
                assert_eq!((path.voxels.last(), Some(path.cost)), (Some(&target), best), "A* within {limit}");
                out.tight_limits += 1;
            }
            // The same three and the budget mode on one kept pathfinder, in turn and twice: the
            // same answers, and its engines together within the limit after each query.
            let mut kept = Pathfinder::new();
            for round in 0..2 {
                for (algorithm, prelude) in [
                    (Algorithm::Jps, None),
                    (Algorithm::AStar, None),
                    (Algorithm::BUDGET, None),
                    (Algorithm::Jps, Some(0)),
                ] {
                    kept.set_jps_prelude(prelude);
                    let request = PathRequest::new(start, goal, SearchConfig { algorithm, ..config });
                    let answer = kept.find(&tight, labels.as_ref(), &request);
                    assert_eq!(answer, ask(algorithm, prelude), "kept, round {round}, within {limit}, {algorithm:?}");
                    let held = kept.memory_bytes();
                    assert!(held <= limit, "kept, round {round}, {algorithm:?}: {held} bytes within {limit}");
                }
            }
        }
    }
    match result {
        Ok(path) => {
            check_steps(world, &path, start, diagonal, &costs, media);
            assert_eq!(path.voxels.last(), Some(&target), "{config:?} {start} -> {goal}");
            let best = best.expect("a found path's end is reachable");
            // Exact searches: the optimum. Weighted ones: within their bound.
            let bound = match algorithm {
                Algorithm::AStar | Algorithm::Jps => 100,
                Algorithm::Weighted { percent } => percent.max(100),
                Algorithm::Budget { .. } => path.stats.weight.max(100),
            };
            assert!(
                u128::from(path.cost) * 100 <= u128::from(best) * u128::from(bound),
                "{config:?} {start} -> {goal}: cost {} vs optimum {best} (bound {bound}%)",
                path.cost
            );
            assert!(path.cost >= best);
            assert!(path.length.is_finite() && path.length >= 0.0);
            out.paths += 1;
            out.clearance_paths += usize::from(clearance > 0);
            out.paths_across_chunks += usize::from(dims.max_element() > 16);
            // One path in four, and every path of an agent with clearance (rarer), is smoothed
            // on the world the search saw: the agent's box, sampled densely along the curve,
            // never enters a blocked voxel. With clearance `r` the box is `2 r + 1` voxels
            // wide, so its centre's one-voxel box is checked on the dilated world (an overlap
            // there is the wide box's overlap with a solid voxel or the outside). Paths that
            // cut corners (other diagonal rules) may be refused.
            if clearance > 0 || b.byte() < 64 {
                let smooth_config = voxnav::SmoothConfig { media, clearance, ..Default::default() };
                match voxnav::smooth_path(original, &path, &smooth_config) {
                    Ok(smooth) => {
                        super::assert_clear(world, media, &smooth.points(), &format!("smoothed, {config:?}"));
                        out.smoothed_with_clearance += usize::from(clearance > 0);
                        assert!(smooth.length() <= smooth.raw_length() * (1.0 + 1e-9), "smoothed, {config:?}");
                        out.smoothed += 1;
                        if check_rejoin(original, world, &path, &smooth, &smooth_config, &format!("rejoin, {config:?}"))
                        {
                            out.rejoined += 1;
                        }
                    }
                    Err(voxnav::SmoothError::StepClips { .. }) => assert_ne!(diagonal, DiagonalRule::Strict),
                    Err(e) => panic!("smoothed, {config:?}: unexpected {e:?}"),
                }
            }
            // One path in four is repaired after an edit: checked against a fresh oracle.
            if b.byte() < 64 {
                check_repair(&mut b, &mut finder, original, &path, &config, &mut out);
            }
        }
        Err(PathError::Unreachable { .. }) => {
            assert!(optimum.is_none() && fallback == Fallback::Fail, "{config:?} {start} -> {goal}: {optimum:?}");
            out.errors += 1;
        }
        Err(PathError::BudgetExhausted { .. }) => {
            assert!(max_expansions.is_some(), "{config:?}");
            out.errors += 1;
        }
        Err(e) => panic!("{config:?} {start} -> {goal}: unexpected {e:?}"),
    }
    out
}

/// An agent flying `smooth` (the smoothed `path`, found on `world`), at a time the path's cost
/// picks (no bytes read, so inputs decode as before), rejoins:
/// - the voxel it is in, always: the way there stays in the voxels its box overlaps;
/// - its own path from the path voxel nearest it, which may be refused
///   (`SmoothError::CannotRejoin`: where the smoothed curve cut a corner, the way back to that
///   voxel's string-pulled waypoints can be blocked). Returns whether it was.
///
/// Each curve from the agent's pose starts at it and is clear on `oracle` (the world dilated by
/// the agent's clearance), and the flight continued from the pose starts at it and stays finite
/// (every pose, a quarter voxel apart).
fn check_rejoin(
    world: &VoxelWorld,
    oracle: &VoxelWorld,
    path: &voxnav::Path,
    smooth: &voxnav::SmoothPath,
    config: &voxnav::SmoothConfig,
    what: &str,
) -> bool {
    let profile = if path.cost.is_multiple_of(2) { voxnav::FlightProfile::AIR } else { voxnav::FlightProfile::SWIM };
    let flight = voxnav::Trajectory::new(smooth, &profile).unwrap();
    let at_time = (path.cost % 101) as f32 / 100.0 * flight.duration();
    let pose = flight.pose_at_time(at_time).unwrap();
    let size = world.voxel_size();
    let at = (pose.position - world.origin()) / size;
    let fly_on = |voxels: &[IVec3], what: &str| {
        let rejoin = voxnav::smooth_from(world, pose.position, pose.tangent, voxels, config)?;
        assert_eq!(rejoin.points()[0], pose.position, "{what}");
        super::assert_clear(oracle, config.media, &rejoin.points(), what);
        let next =
            voxnav::Trajectory::continue_from(&pose, &rejoin, &profile).unwrap_or_else(|e| panic!("{what}: {e}"));
        let first = next.pose_at_time(0.0).unwrap();
        assert!(first.position.distance(pose.position) <= 1e-3 * size, "{what}: starts at {first:?}");
        for p in next.samples_by_length(0.25 * size).unwrap() {
            assert!(p.position.is_finite() && p.orientation.is_finite() && p.tangent.is_finite(), "{what}: {p:?}");
        }
        Ok::<(), voxnav::SmoothError>(())
    };
    let own = at.floor().as_ivec3();
    let what_own = format!("{what}: pose {pose:?}, its own voxel {own}");
    fly_on(&[own], &what_own).unwrap_or_else(|e| panic!("{what_own}: {e}"));
    let from = super::nearest_voxel(&path.voxels, at);
    let what = format!("{what}: pose {pose:?}, from voxel {from} of {:?}", path.voxels);
    match fly_on(&path.voxels[from..], &what) {
        Ok(()) => true,
        Err(voxnav::SmoothError::CannotRejoin { .. }) => false,
        Err(e) => panic!("{what}: {e}"),
    }
}

/// The reachable voxel (by `dist`) closest to `goal`, as [`Fallback::Closest`] defines it:
/// least octile distance, then lowest `(z, y, x)`.
fn closest(world: &VoxelWorld, dist: &[Option<u64>], goal: IVec3) -> IVec3 {
    let d = world.dims().as_ivec3();
    let mut best: Option<(u64, [i32; 3])> = None;
    for z in 0..d.z {
        for y in 0..d.y {
            for x in 0..d.x {
                let v = IVec3::new(x, y, z);
                if dist[index(world, v)].is_some() {
                    let key = (Heuristic::Octile.estimate(goal - v, &CostModel::PRECISE), [z, y, x]);
                    if best.is_none_or(|b| key < b) {
                        best = Some(key);
                    }
                }
            }
        }
    }
    let [z, y, x] = best.expect("the start is reachable").1;
    IVec3::new(x, y, z)
}

/// Edits `world` (a block dropped on the path, or anywhere), repairs `path` (found on `world`
/// with `config`) from a voxel on it, and checks the answer against a Dijkstra oracle on the
/// edited world: a mended path starts at the agent, ends at the path's end, is legal and costs
/// the sum of its steps and at least the fresh optimum; an intact path comes back unchanged;
/// errors only where the oracle agrees.
fn check_repair(
    b: &mut Bytes,
    finder: &mut Pathfinder,
    world: &VoxelWorld,
    path: &voxnav::Path,
    config: &SearchConfig,
    out: &mut Outcome,
) {
    let d = world.dims().as_ivec3();
    let n = path.voxels.len() as u32;
    // The agent somewhere on the path, the block mostly on a voxel ahead of it.
    let from = b.below(n) as usize;
    let ahead = n - from as u32 - 1;
    let centre = if ahead > 0 && b.byte() < 200 {
        path.voxels[from + 1 + b.below(ahead) as usize]
    } else {
        IVec3::new(b.below(d.x as u32) as i32, b.below(d.y as u32) as i32, b.below(d.z as u32) as i32)
    };
    let r = i32::from(b.byte() % 3 == 1);
    let kind = if b.byte() < 200 { Voxel::Solid } else { Voxel::Water };
    let mut edited = world.clone();
    edited.fill_voxels((centre - r).max(IVec3::ZERO), (centre + r).min(d - 1), kind).unwrap();
    if b.byte() >= 192 {
        // Another world object with the same voxels (written and read back): the repair cannot
        // tell which chunks changed and checks every step.
        let mut bytes = Vec::new();
        edited.write_vxn(&mut bytes).unwrap();
        edited = VoxelWorld::from_vxn_bytes(&bytes, voxnav::Limits::default()).unwrap();
    }
    let (agent, end) = (path.voxels[from], path.voxels[path.voxels.len() - 1]);
    let result = finder.repair_path(&edited, path, from, config);
    // Formatted only when a check fails.
    let what = || {
        format!(
            "repair, {config:?} {agent} -> {end}, block {centre} r {r} {kind:?}, path {:?} from {from}, got {:?}",
            path.voxels,
            result.as_ref().map(|p| &p.voxels)
        )
    };
    let oracle_world = &super::dilated(&edited, config.clearance);
    let media = config.media;
    out.repairs += 1;
    if !media.allows(oracle_world.get(agent)) {
        assert_eq!(result, Err(PathError::StartBlocked(agent)), "{}", what());
        return;
    }
    if !media.allows(oracle_world.get(end)) {
        assert_eq!(result, Err(PathError::GoalBlocked(end)), "{}", what());
        return;
    }
    let dist = distances(oracle_world, agent, config.diagonal, &config.costs, media);
    // A cut-off goal with the closest fallback: a fresh search's path to the closest voxel.
    let best = dist[index(oracle_world, end)];
    let target =
        if best.is_some() || config.fallback == Fallback::Fail { end } else { closest(oracle_world, &dist, end) };
    match &result {
        Ok(p) => {
            check_steps(oracle_world, p, agent, config.diagonal, &config.costs, media);
            assert_eq!(p.voxels.last(), Some(&target), "{}", what());
            let best = dist[index(oracle_world, target)].expect("the target is reachable");
            assert!(p.cost >= best, "{}: cost {} below the optimum {best}", what(), p.cost);
            if path.check(&edited, config) == PathCheck::Valid {
                assert_eq!(&p.voxels[..], &path.voxels[from..], "{}: an intact path comes back as is", what());
            } else {
                out.repairs_broken += 1;
            }
        }
        Err(PathError::Unreachable { .. }) => {
            assert!(best.is_none() && config.fallback == Fallback::Fail, "{}: unreachable, optimum {best:?}", what());
        }
        Err(PathError::BudgetExhausted { .. }) => assert!(config.max_expansions.is_some(), "{}", what()),
        Err(e) => panic!("{}: unexpected {e:?}", what()),
    }
}
