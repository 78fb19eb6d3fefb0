//! Crowds: many agents over the searches (shared-goal fields, local avoidance).

pub(crate) mod avoidance;
pub(crate) mod field;
pub(crate) mod orca;
