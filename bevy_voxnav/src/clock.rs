//! The plugin's time budget per frame ([`NavSettings::time_budget`](crate::NavSettings)): when
//! the frame's navigation work began. Agents move first; mending routes, delivering paths and
//! searching share what is left.

use std::time::Instant;

use bevy_ecs::prelude::*;

use crate::NavSettings;

/// The frame's clock.
#[derive(Resource, Debug, Default)]
pub(crate) struct FrameClock {
    started: Option<Instant>,
}

impl FrameClock {
    /// When the plugin's work must stop this frame (`None`: no time budget): a tenth of the
    /// budget is kept back for what follows its last system (its commands being applied, the
    /// schedule's hand-over; docs/bevy.md has its measured size).
    pub(crate) fn deadline(&self, settings: &NavSettings) -> Option<Instant> {
        let budget = settings.time_budget?;
        Some(self.started.unwrap_or_else(Instant::now) + budget.mul_f32(0.9))
    }
}

/// Starts the frame's clock (the first of the plugin's systems).
pub(crate) fn start_frame(mut clock: ResMut<FrameClock>) {
    clock.started = Some(Instant::now());
}

/// Whether the frame's budget is spent.
pub(crate) fn spent(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
}
