//! The `serde` feature: configurations, media, agents and limits survive a JSON round trip.
#![cfg(feature = "serde")]

use glam::Vec3;
use voxnav::prelude::*;
use voxnav::{AvoidanceConfig, FlightProfile, LevelConfig, SmoothConfig};

fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug>(value: &T) {
    let json = serde_json::to_string(value).unwrap();
    let back: T = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, value, "{json}");
}

#[test]
fn public_value_types_round_trip_through_json() {
    let config = SearchConfig {
        algorithm: Algorithm::Budget { percent: 120, phase_expansions: 5000 },
        media: Media { air: Some(100), water: Some(300) },
        clearance: 2,
        fallback: Fallback::Closest,
        diagonal: DiagonalRule::Faces,
        heuristic: Heuristic::Manhattan,
        costs: CostModel::PRECISE,
        max_expansions: Some(10),
    };
    round_trip(&config);
    round_trip(&Agent::with_media(1.0, 0.5, 0.25, Media::WATER).unwrap());
    round_trip(&Limits::DEFAULT);
    round_trip(&Voxel::Water);
    round_trip(&SmoothConfig { clearance: 1, ..Default::default() });
    round_trip(&FlightProfile::AIR);
    round_trip(&AvoidanceConfig::default());
    let level = LevelConfig { voxel_size: 0.5, seeds: vec![Vec3::new(1.0, 2.0, 3.0)], ..Default::default() };
    let json = serde_json::to_string(&level).unwrap();
    let back: LevelConfig = serde_json::from_str(&json).unwrap();
    assert_eq!((back.voxel_size, back.seeds), (level.voxel_size, level.seeds));
    // Hostile input is an error, not a panic; an agent is checked as by Agent::new.
    let bad = r#"{"length":-1.0,"width":1.0,"height":1.0,"media":{"air":100,"water":null}}"#;
    assert!(serde_json::from_str::<Agent>(bad).is_err());
    assert!(serde_json::from_str::<SearchConfig>("{\"clearance\": 9999}").is_err());
}
