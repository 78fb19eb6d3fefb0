//! [`SmoothConfig`]: how a path is smoothed.

use crate::agent::Agent;
use crate::grid::pass::Pass;
use crate::medium::Media;
use crate::smooth::error::SmoothError;

/// How [`smooth_path`](crate::smooth_path) smooths.
///
/// Lengths are in **voxels** (agent steps), so one config suits worlds of any voxel size.
///
/// # Examples
/// ```
/// use voxnav::{Media, SmoothConfig};
/// let config = SmoothConfig { media: Media::AIR, ..Default::default() };
/// assert!(config.curves && config.validate().is_ok());
/// assert!(SmoothConfig { min_turn_radius: f32::NAN, ..config }.validate().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SmoothConfig {
    /// Media the agent may occupy (default [`Media::ANY`]); use the search's media.
    pub media: Media,
    /// Round the corners (default `true`). With `false` the result is the string-pulled
    /// polyline: straight segments between the kept voxel centres.
    pub curves: bool,
    /// Distance (voxels) along each leg from a corner over which its bend curves (default 2).
    /// Where that bend does not fit, half, a quarter, twice and four times it are tried too;
    /// a bend never takes more than half of a leg.
    pub bend_length: f32,
    /// Smallest radius of curvature (voxels) a bend may have (default 1). Tighter bends are
    /// rejected; a corner with no acceptable bend stays sharp.
    pub min_turn_radius: f32,
    /// The agent's clearance radius in voxels (default 0); use the search's
    /// [`clearance`](crate::SearchConfig::clearance). The swept box is then `2 r + 1` voxels
    /// wide: it keeps clear of solid voxels (water and air both count as free there), while
    /// its central voxel stays in the allowed media.
    pub clearance: u8,
}

impl Default for SmoothConfig {
    fn default() -> Self {
        Self { media: Media::ANY, curves: true, bend_length: 2.0, min_turn_radius: 1.0, clearance: 0 }
    }
}

impl SmoothConfig {
    /// The default configuration with the media of `agent`.
    #[must_use]
    pub fn for_agent(agent: &Agent) -> Self {
        Self { media: agent.media(), ..Self::default() }
    }

    /// How the swept box sees voxels.
    pub(crate) fn pass(&self) -> Pass {
        Pass::new(&self.media).with_radius(self.clearance)
    }

    /// Checks that the lengths are finite and positive and the clearance at most
    /// [`SearchConfig::MAX_CLEARANCE`](crate::SearchConfig::MAX_CLEARANCE).
    ///
    /// # Errors
    /// [`SmoothError::InvalidConfig`] naming the first bad field.
    pub fn validate(&self) -> Result<(), SmoothError> {
        if self.clearance > crate::SearchConfig::MAX_CLEARANCE {
            return Err(SmoothError::InvalidConfig { name: "clearance", value: f32::from(self.clearance) });
        }
        for (name, value) in [("bend_length", self.bend_length), ("min_turn_radius", self.min_turn_radius)] {
            if !(value.is_finite() && value > 0.0) {
                return Err(SmoothError::InvalidConfig { name, value });
            }
        }
        Ok(())
    }
}
