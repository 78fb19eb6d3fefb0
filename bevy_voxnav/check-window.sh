#!/usr/bin/env bash
# The `level` example's windowed mode (feature `window`: Bevy's renderer, a long build that CI
# leaves out to stay well within its time): builds it and, where an X display can be had (a
# desktop, or Xvfb with a Vulkan driver such as Mesa's lavapipe), runs it for 400 frames and
# saves the last one as a PNG.
#
#   bash bevy_voxnav/check-window.sh [LEVEL.glb] [OUT.png]
set -euo pipefail
cd "$(dirname "$0")/.."
level="${1:-../shared/levels/oa_dm7.glb}"
out="${2:-${CARGO_TARGET_DIR:-target}/level-window.png}"
start=$(date +%s)
cargo build --release -p bevy_voxnav --features window --example level
echo "window build: $(( $(date +%s) - start )) s"
if [ -z "${DISPLAY:-}" ] && command -v Xvfb >/dev/null; then
    Xvfb :97 -screen 0 1280x720x24 >/dev/null 2>&1 &
    xvfb=$!
    trap 'kill $xvfb' EXIT
    export DISPLAY=:97
    sleep 1
fi
if [ -z "${DISPLAY:-}" ]; then
    echo "no display (and no Xvfb): built, not run"
    exit 0
fi
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
"${CARGO_TARGET_DIR:-target}/release/examples/level" --level "$level" --frames 400 --screenshot "$out"
test -s "$out"
echo "window ran 400 frames; last frame in $out"
