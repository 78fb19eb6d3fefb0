//! The Moving AI Lab 3D benchmark formats: `.3dmap` voxel maps and `.3dscen` scenarios
//! (Brewer & Sturtevant, "Benchmarks for Pathfinding in 3D Voxel Space", SoCS 2018).
//!
//! `.3dmap`: a header `voxel X Y Z`, then one blocked voxel `x y z` per line (0-based, any
//! order). `.3dscen`: `version 1`, the map's file name, then one problem per line:
//! `sx sy sz gx gy gz optimal_length ratio`. Maps load with their own axes, voxel size 1 and
//! origin 0, so voxel `v` has its centre at `v + 0.5`.

use std::io::Write as _;
use std::path::Path as FsPath;

use glam::{IVec3, UVec3, Vec3};

use crate::error::LoadError;
use crate::grid::world::VoxelWorld;
use crate::medium::Voxel;

fn syntax(line: usize, message: impl Into<String>) -> LoadError {
    LoadError::Syntax { line, message: message.into() }
}

/// Lines of `text` numbered from 1, without line ends; blank lines skipped.
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| !l.is_empty())
}

/// Splits a line into exactly `N` whitespace-separated tokens.
fn tokens<'a, const N: usize>(line: usize, text: &'a str, what: &str) -> Result<[&'a str; N], LoadError> {
    let mut it = text.split_ascii_whitespace();
    let mut out = [""; N];
    for slot in &mut out {
        *slot = it.next().ok_or_else(|| syntax(line, format!("expected {N} fields: {what}")))?;
    }
    if it.next().is_some() {
        return Err(syntax(line, format!("more than {N} fields: {what}")));
    }
    Ok(out)
}

/// Parses one token as a number.
fn number<T: std::str::FromStr>(line: usize, token: &str) -> Result<T, LoadError> {
    token.parse().map_err(|_| syntax(line, format!("`{token}` is not a valid number here")))
}

/// Parses exactly `N` whitespace-separated numbers.
fn numbers<T: std::str::FromStr + Copy + Default, const N: usize>(
    line: usize,
    text: &str,
    what: &str,
) -> Result<[T; N], LoadError> {
    let tokens = tokens::<N>(line, text, what)?;
    let mut out = [T::default(); N];
    for (slot, token) in out.iter_mut().zip(tokens) {
        *slot = number(line, token)?;
    }
    Ok(out)
}

impl VoxelWorld {
    /// Reads a Moving AI `.3dmap` voxel map (see the [format](crate#benchmark-maps)).
    ///
    /// # Errors
    /// [`LoadError::Syntax`] for a bad header or line, [`LoadError::OutOfRange`] for a voxel
    /// outside the map, [`LoadError::World`] for a size the library refuses; each names its line.
    pub fn from_3dmap(text: &str) -> Result<Self, LoadError> {
        let mut it = lines(text);
        let (line, header) = it.next().ok_or_else(|| syntax(1, "empty file: expected `voxel X Y Z`"))?;
        let size = header
            .strip_prefix("voxel")
            .filter(|rest| rest.starts_with(char::is_whitespace))
            .ok_or_else(|| syntax(line, "expected header `voxel X Y Z`"))?;
        let [x, y, z] = numbers::<u32, 3>(line, size, "voxel X Y Z")?;
        let dims = UVec3::new(x, y, z);
        let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, dims).map_err(|source| LoadError::World { line, source })?;
        for (line, text) in it {
            let [x, y, z] = numbers::<i64, 3>(line, text, "x y z")?;
            let in_range = |c: i64, d: u32| (0..i64::from(d)).contains(&c);
            if !(in_range(x, dims.x) && in_range(y, dims.y) && in_range(z, dims.z)) {
                let clamp = |c: i64| c.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
                return Err(LoadError::OutOfRange { line, voxel: IVec3::new(clamp(x), clamp(y), clamp(z)), dims });
            }
            world
                .set(IVec3::new(x as i32, y as i32, z as i32), Voxel::Solid)
                .map_err(|source| LoadError::World { line, source })?;
        }
        Ok(world)
    }

    /// Reads a `.3dmap` file; see [`from_3dmap`](Self::from_3dmap).
    ///
    /// # Errors
    /// [`LoadError::Io`] if the file cannot be read, else as [`from_3dmap`](Self::from_3dmap).
    pub fn load_3dmap(path: impl AsRef<FsPath>) -> Result<Self, LoadError> {
        Self::from_3dmap(&std::fs::read_to_string(path)?)
    }

    /// Writes the world in the Moving AI `.3dmap` format: the header `voxel X Y Z`, then one
    /// line `x y z` per solid voxel (in the world's voxel indices; water and air are free, as
    /// every medium is in a `.3dmap`). Any other tool can then check or use exactly the world
    /// the agents see; [`from_3dmap`](Self::from_3dmap) reads it back. Its cost follows the
    /// solid voxels, not the world's volume. Returns the number of solid voxels written.
    ///
    /// # Errors
    /// The writer's I/O errors.
    ///
    /// # Examples
    /// ```
    /// use glam::{IVec3, UVec3, Vec3};
    /// use voxnav::{Voxel, VoxelWorld};
    /// let mut world = VoxelWorld::new(Vec3::ZERO, 1.0, UVec3::new(40, 20, 30)).unwrap();
    /// world.fill_voxels(IVec3::new(3, 4, 5), IVec3::new(20, 4, 6), Voxel::Solid).unwrap();
    /// let mut text = Vec::new();
    /// assert_eq!(world.write_3dmap(&mut text).unwrap(), 18 * 2);
    /// let back = VoxelWorld::from_3dmap(std::str::from_utf8(&text).unwrap()).unwrap();
    /// assert!(back.is_blocked(IVec3::new(20, 4, 6)) && !back.is_blocked(IVec3::new(21, 4, 6)));
    /// ```
    pub fn write_3dmap(&self, out: impl std::io::Write) -> std::io::Result<usize> {
        let mut out = std::io::BufWriter::new(out);
        let d = self.dims();
        writeln!(out, "voxel {} {} {}", d.x, d.y, d.z)?;
        let mut count = 0;
        let mut result = Ok(());
        self.for_each_solid(|v| {
            if result.is_ok() {
                result = writeln!(out, "{} {} {}", v.x, v.y, v.z);
                count += 1;
            }
        });
        result?;
        out.flush()?;
        Ok(count)
    }
}

/// One problem of a `.3dscen` scenario.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Problem {
    /// Start voxel.
    pub start: IVec3,
    /// Goal voxel.
    pub goal: IVec3,
    /// Length of an optimal path, in voxels (see [`CostModel::PRECISE`](crate::CostModel::PRECISE)).
    pub optimal_length: f64,
    /// `optimal_length` divided by the octile distance.
    pub ratio: f64,
}

/// A Moving AI `.3dscen` scenario: a map name and its problems.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// The map file name from line 2.
    pub map: String,
    /// The problems, in file order.
    pub problems: Vec<Problem>,
}

impl Scenario {
    /// Reads a `.3dscen` scenario.
    ///
    /// # Errors
    /// [`LoadError::Syntax`] naming the line: a missing `version 1` header or map name, a line
    /// without 6 integers and 2 finite non-negative numbers, or coordinates beyond `i32`.
    pub fn from_3dscen(text: &str) -> Result<Self, LoadError> {
        let mut it = lines(text);
        let (line, version) = it.next().ok_or_else(|| syntax(1, "empty file: expected `version 1`"))?;
        if version.split_ascii_whitespace().collect::<Vec<_>>() != ["version", "1"] {
            return Err(syntax(line, "expected `version 1`"));
        }
        let (_, map) = it.next().ok_or_else(|| syntax(line + 1, "expected the map file name"))?;
        let mut problems = Vec::new();
        for (line, text) in it {
            let t = tokens::<8>(line, text, "sx sy sz gx gy gz optimal ratio")?;
            let mut c = [0i32; 6];
            for (slot, token) in c.iter_mut().zip(t) {
                *slot = number(line, token)?;
            }
            let [sx, sy, sz, gx, gy, gz] = c;
            let optimal_length: f64 = number(line, t[6])?;
            let ratio: f64 = number(line, t[7])?;
            if !(optimal_length.is_finite() && optimal_length >= 0.0 && ratio.is_finite()) {
                return Err(syntax(line, "optimal length and ratio must be finite, length >= 0"));
            }
            problems.push(Problem {
                start: IVec3::new(sx, sy, sz),
                goal: IVec3::new(gx, gy, gz),
                optimal_length,
                ratio,
            });
        }
        Ok(Self { map: map.to_string(), problems })
    }

    /// Reads a `.3dscen` file; see [`from_3dscen`](Self::from_3dscen).
    ///
    /// # Errors
    /// [`LoadError::Io`] if the file cannot be read, else as [`from_3dscen`](Self::from_3dscen).
    pub fn load(path: impl AsRef<FsPath>) -> Result<Self, LoadError> {
        Self::from_3dscen(&std::fs::read_to_string(path)?)
    }
}
