//! Fuzz target: the Moving AI `.3dscen` reader. Any bytes give a scenario or a typed error.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = voxnav::Scenario::from_3dscen(&String::from_utf8_lossy(data));
});
