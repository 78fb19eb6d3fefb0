//! A small CPU renderer for a voxel world: DDA ray marching through the voxels (Amanatides &
//! Woo), sun light with shadow rays, sky light with per-face ambient occlusion, tinted water
//! with a reflective surface, fog, an optional headlight and drone model. Paths, markers and
//! text are drawn over the picture with the depth of each pixel, so hidden stretches of a path
//! show dashed and faint, and stretches under water show tinted.

use voxnav::glam::{IVec3, Mat3, Quat, Vec2, Vec3};
use voxnav::{Voxel, VoxelWorld};

use crate::font;

const AIR: u8 = 0;
const WATER: u8 = 1;
const SOLID: u8 = 2;

/// A pinhole camera. Local axes: +X right, +Y up, -Z forward (as glam and Bevy cameras).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    /// Eye position, world units.
    pub position: Vec3,
    /// Camera-local to world rotation.
    pub rotation: Quat,
    /// Vertical field of view, radians.
    pub fov_y: f32,
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
}

impl Camera {
    /// A camera at `position` looking at `target`, with `up` the world direction that shows up.
    pub fn look_at(position: Vec3, target: Vec3, up: Vec3, fov_y: f32, width: u32, height: u32) -> Camera {
        let forward = (target - position).normalize();
        let right = forward.cross(up).normalize();
        let up = right.cross(forward);
        let rotation = Quat::from_mat3(&Mat3::from_cols(right, up, -forward));
        Camera { position, rotation, fov_y, width, height }
    }

    /// The same camera at `k` times the resolution.
    pub fn scaled(&self, k: u32) -> Camera {
        Camera { width: self.width * k, height: self.height * k, ..*self }
    }

    fn focal(&self) -> f32 {
        0.5 * self.height as f32 / (0.5 * self.fov_y).tan()
    }

    /// Unit world direction through pixel position `(x, y)` (pixel centres at + 0.5).
    pub fn ray(&self, x: f32, y: f32) -> Vec3 {
        let f = self.focal();
        let local = Vec3::new(x - 0.5 * self.width as f32, 0.5 * self.height as f32 - y, -f);
        self.rotation * local.normalize()
    }

    /// Pixel position and distance from the eye of world point `p`, if it is in front.
    pub fn project(&self, p: Vec3) -> Option<(Vec2, f32)> {
        let q = self.rotation.inverse() * (p - self.position);
        if q.z > -0.05 {
            return None;
        }
        let f = self.focal();
        let pixel = Vec2::new(0.5 * self.width as f32 + f * q.x / -q.z, 0.5 * self.height as f32 - f * q.y / -q.z);
        Some((pixel, q.length()))
    }
}

/// A light carried by the camera (for tunnels and caves).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Headlight {
    /// Where it shines from.
    pub position: Vec3,
    /// Unit direction of its cone's axis.
    pub direction: Vec3,
    /// Strength (1 is about the sun's).
    pub intensity: f32,
}

/// Pose of the drone model. Model axes: -Z forward, +Y up, +X right.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DroneModel {
    /// Centre, world units.
    pub position: Vec3,
    /// Model-local to world rotation.
    pub rotation: Quat,
}

/// A rendered picture in linear RGB, with the distance to what each pixel shows.
#[derive(Debug, Clone)]
pub struct Frame {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Linear RGB, row by row from the top.
    pub color: Vec<Vec3>,
    /// Distance along the pixel's ray to the first solid surface (world units; inf: sky).
    pub depth: Vec<f32>,
    /// Distance along the pixel's ray to the water's surface (inf: no water on the ray).
    pub water: Vec<f32>,
}

/// Renders one voxel world. Built once, it renders any number of frames.
pub struct Renderer<'a> {
    dims: IVec3,
    cells: Vec<u8>,
    origin: Vec3,
    size: f32,
    palette: &'a (dyn Fn(IVec3, IVec3) -> Vec3 + Sync),
    /// Unit direction towards the sun.
    pub sun: Vec3,
    /// Fog density per world unit.
    pub fog: f32,
}

/// What a ray met.
struct Trace {
    /// Distance (voxel units) to the solid voxel hit, or `None` if the ray left the world.
    hit: Option<(f32, IVec3, IVec3)>,
    /// Distance travelled through water (voxel units).
    water: f32,
    /// Distance to, and normal of, the first water surface met.
    surface: Option<(f32, IVec3)>,
}

const SUN: Vec3 = Vec3::new(2.4, 2.2, 1.95);
const SKY_TOP: Vec3 = Vec3::new(0.16, 0.32, 0.66);
const SKY_HORIZON: Vec3 = Vec3::new(0.56, 0.68, 0.82);
/// Light absorbed per metre of water, per channel, and the colour the water scatters.
const WATER_ABSORB: Vec3 = Vec3::new(0.40, 0.12, 0.07);
const WATER_SCATTER: Vec3 = Vec3::new(0.005, 0.05, 0.12);

impl<'a> Renderer<'a> {
    /// A renderer of `world`, colouring the face of solid voxel `v` facing `n` as `palette(v, n)`
    /// (linear RGB).
    pub fn new(world: &VoxelWorld, palette: &'a (dyn Fn(IVec3, IVec3) -> Vec3 + Sync)) -> Self {
        let dims = world.dims().as_ivec3();
        let mut cells = Vec::with_capacity((dims.x * dims.y * dims.z) as usize);
        for z in 0..dims.z {
            for y in 0..dims.y {
                for x in 0..dims.x {
                    cells.push(match world.get(IVec3::new(x, y, z)) {
                        Voxel::Air => AIR,
                        Voxel::Water => WATER,
                        Voxel::Solid => SOLID,
                    });
                }
            }
        }
        Renderer {
            dims,
            cells,
            origin: world.origin(),
            size: world.voxel_size(),
            palette,
            sun: Vec3::new(0.55, 0.72, 0.3).normalize(),
            fog: 0.0006,
        }
    }

    #[inline]
    fn cell(&self, v: IVec3) -> u8 {
        if v.cmplt(IVec3::ZERO).any() || v.cmpge(self.dims).any() {
            return AIR;
        }
        self.cells[((v.z * self.dims.y + v.y) * self.dims.x + v.x) as usize]
    }

    /// Marches voxel-space ray `o + t d` (`d` unit) up to `limit`.
    fn trace(&self, o: Vec3, d: Vec3, limit: f32, solid_only: bool) -> Trace {
        let mut out = Trace { hit: None, water: 0.0, surface: None };
        let inv = d.recip();
        let (a, b) = ((Vec3::ZERO - o) * inv, (self.dims.as_vec3() - o) * inv);
        let (near, far) = (a.min(b), a.max(b));
        let enter = near.max_element();
        let (mut t, exit) = (enter.max(0.0), far.min_element().min(limit));
        // Also when the ray misses the box (NaN bounds from a zero direction component).
        if t.partial_cmp(&exit) != Some(std::cmp::Ordering::Less) {
            return out;
        }
        let step = IVec3::new(sign(d.x), sign(d.y), sign(d.z));
        let mut normal = IVec3::ZERO;
        if enter > 0.0 {
            let axis = if near.x == enter {
                0
            } else if near.y == enter {
                1
            } else {
                2
            };
            normal[axis] = -step[axis];
        }
        let mut v = (o + d * t).floor().as_ivec3().clamp(IVec3::ZERO, self.dims - 1);
        let mut next = Vec3::ZERO;
        for i in 0..3 {
            next[i] = match step[i] {
                1 => (v[i] as f32 + 1.0 - o[i]) * inv[i],
                -1 => (v[i] as f32 - o[i]) * inv[i],
                _ => f32::INFINITY,
            };
        }
        let delta = inv.abs();
        loop {
            let cell = self.cells[((v.z * self.dims.y + v.y) * self.dims.x + v.x) as usize];
            if cell == SOLID {
                out.hit = Some((t, v, normal));
                return out;
            }
            let axis = if next.x <= next.y && next.x <= next.z {
                0
            } else if next.y <= next.z {
                1
            } else {
                2
            };
            let leave = next[axis];
            if cell == WATER && !solid_only {
                out.surface.get_or_insert((t, normal));
                out.water += leave.min(exit) - t;
            }
            if leave >= exit {
                return out;
            }
            t = leave;
            v[axis] += step[axis];
            if v[axis] < 0 || v[axis] >= self.dims[axis] {
                return out;
            }
            next[axis] += delta[axis];
            normal = IVec3::ZERO;
            normal[axis] = -step[axis];
        }
    }

    /// Sky colour seen along unit direction `d`.
    fn sky(&self, d: Vec3) -> Vec3 {
        let up = d.y.max(0.0).powf(0.6);
        let glow = d.dot(self.sun).max(0.0).powf(64.0);
        SKY_HORIZON.lerp(SKY_TOP, up) + Vec3::new(1.0, 0.9, 0.7) * glow
    }

    /// Ambient occlusion of face `n` of voxel `v` at face-local position `(fu, fw)`.
    fn occlusion(&self, v: IVec3, n: IVec3, fu: f32, fw: f32) -> f32 {
        let axis = if n.x != 0 {
            0
        } else if n.y != 0 {
            1
        } else {
            2
        };
        let (mut u, mut w) = (IVec3::ZERO, IVec3::ZERO);
        u[(axis + 1) % 3] = 1;
        w[(axis + 2) % 3] = 1;
        let a = v + n;
        let solid = |du: i32, dw: i32| u8::from(self.cell(a + u * du + w * dw) == SOLID);
        let corner = |cu: i32, cw: i32| {
            let (s1, s2, c) = (solid(cu, 0), solid(0, cw), solid(cu, cw));
            if s1 + s2 == 2 { 0.0 } else { (3 - s1 - s2 - c) as f32 / 3.0 }
        };
        let bottom = corner(-1, -1) + (corner(1, -1) - corner(-1, -1)) * fu;
        let top = corner(-1, 1) + (corner(1, 1) - corner(-1, 1)) * fu;
        bottom + (top - bottom) * fw
    }

    /// Colour of the solid face hit at voxel-space point `p`.
    fn shade(&self, p: Vec3, v: IVec3, n: IVec3, light: Option<&Headlight>) -> Vec3 {
        let nf = n.as_vec3();
        let axis = if n.x != 0 {
            0
        } else if n.y != 0 {
            1
        } else {
            2
        };
        let (fu, fw) = (p[(axis + 1) % 3].fract(), p[(axis + 2) % 3].fract());
        let ao = self.occlusion(v, n, fu, fw);
        // A thin dark line along voxel edges keeps the blocks readable.
        let edge = fu.min(1.0 - fu).min(fw.min(1.0 - fw));
        let edge = 0.82 + 0.18 * (edge / 0.06).min(1.0);
        let base = (self.palette)(v, n) * edge;
        let ndl = nf.dot(self.sun).max(0.0);
        let mut sunlit = 0.0;
        if ndl > 0.0 && self.trace(p + nf * 1e-3, self.sun, f32::INFINITY, true).hit.is_none() {
            sunlit = ndl;
        }
        let sky = SKY_TOP.lerp(SKY_HORIZON, 0.5) * (0.65 + 0.35 * nf.y) * (0.25 + 0.75 * ao);
        let mut lit = SUN * sunlit + sky * 0.55;
        if let Some(h) = light {
            let q = self.origin + p * self.size;
            let to = q - h.position;
            let dist = to.length().max(1e-3);
            let cone = ((to / dist).dot(h.direction) - 0.6).max(0.0) / 0.4;
            let lambert = (-nf.dot(to / dist)).max(0.0);
            lit += Vec3::splat(h.intensity * cone * lambert / (1.0 + dist * dist / 150.0)) * (0.4 + 0.6 * ao);
        }
        base * lit
    }

    /// Colour along one world ray, and distances to the solid surface and the water surface.
    fn pixel(&self, eye: Vec3, d: Vec3, light: Option<&Headlight>, drone: Option<&DroneModel>) -> (Vec3, f32, f32) {
        let o = (eye - self.origin) / self.size;
        let tr = self.trace(o, d, f32::INFINITY, false);
        let (mut color, depth) = match tr.hit {
            Some((t, v, n)) => (self.shade(o + d * t, v, n, light), t * self.size),
            None => (self.sky(d), f32::INFINITY),
        };
        let mut water_t = f32::INFINITY;
        if let Some((ts, n)) = tr.surface {
            water_t = ts * self.size;
            let metres = tr.water * self.size;
            let transmit = (-WATER_ABSORB * metres).exp();
            color = color * transmit * Vec3::new(0.8, 0.93, 0.97) + WATER_SCATTER * (Vec3::ONE - transmit);
            let nf = if n == IVec3::ZERO { Vec3::Y } else { n.as_vec3() };
            let cos = d.dot(nf).abs();
            let fresnel = 0.02 + 0.98 * (1.0 - cos).powi(5);
            let r = d - 2.0 * d.dot(nf) * nf;
            let at = o + d * ts;
            let shadowed = self.trace(at + nf * 1e-3, self.sun, f32::INFINITY, true).hit.is_some();
            let glint = if shadowed { 0.0 } else { r.dot(self.sun).max(0.0).powf(300.0) * 6.0 };
            color = color.lerp(self.sky(r), fresnel.min(0.6)) + Vec3::splat(glint);
        }
        let depth_fog = depth.min(water_t).min(600.0);
        color = color.lerp(SKY_HORIZON, 1.0 - (-self.fog * depth_fog).exp());
        if let Some(m) = drone
            && let Some((t, c)) = drone_hit(m, eye, d, self.sun)
            && t < depth.min(water_t)
        {
            return (c, t, water_t);
        }
        (color, depth, water_t)
    }

    /// Renders a frame seen by `camera`, using `threads` threads (rows are split evenly, so
    /// the result does not depend on the count).
    pub fn render(
        &self,
        camera: &Camera,
        light: Option<Headlight>,
        drone: Option<DroneModel>,
        threads: usize,
    ) -> Frame {
        let (w, h) = (camera.width as usize, camera.height as usize);
        let mut color = vec![Vec3::ZERO; w * h];
        let mut depth = vec![0.0; w * h];
        let mut water = vec![0.0; w * h];
        let rows = h.div_ceil(threads.max(1)).max(1);
        std::thread::scope(|s| {
            let parts = color.chunks_mut(rows * w).zip(depth.chunks_mut(rows * w)).zip(water.chunks_mut(rows * w));
            for (i, ((c, dpt), wat)) in parts.enumerate() {
                s.spawn(move || {
                    for (k, ((c, dpt), wat)) in c.iter_mut().zip(dpt.iter_mut()).zip(wat.iter_mut()).enumerate() {
                        let (x, y) = (k % w, i * rows + k / w);
                        let d = camera.ray(x as f32 + 0.5, y as f32 + 0.5);
                        (*c, *dpt, *wat) = self.pixel(camera.position, d, light.as_ref(), drone.as_ref());
                    }
                });
            }
        });
        Frame { width: camera.width, height: camera.height, color, depth, water }
    }
}

fn sign(x: f32) -> i32 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

/// Ray against an axis-aligned box `centre +- half` (model space): entry distance and normal.
fn box_hit(o: Vec3, d: Vec3, centre: Vec3, half: Vec3) -> Option<(f32, Vec3)> {
    let inv = d.recip();
    let (a, b) = ((centre - half - o) * inv, (centre + half - o) * inv);
    let (near, far) = (a.min(b), a.max(b));
    let (t0, t1) = (near.max_element(), far.min_element());
    if t0 > t1 || t1 < 0.0 || t0 < 0.0 {
        return None;
    }
    let mut n = Vec3::ZERO;
    let axis = if near.x == t0 {
        0
    } else if near.y == t0 {
        1
    } else {
        2
    };
    n[axis] = -d[axis].signum();
    Some((t0, n))
}

/// The drone model: a body, an X of arms and four rotor guards, with a light at the front.
/// Returns the distance (world units) and colour where the world ray `eye + t d` hits it.
fn drone_hit(m: &DroneModel, eye: Vec3, d: Vec3, sun: Vec3) -> Option<(f32, Vec3)> {
    let inv = m.rotation.inverse();
    let (o, dl) = (inv * (eye - m.position), inv * d);
    if o.length() > 60.0 {
        return None;
    }
    let mut best: Option<(f32, Vec3, Vec3, f32)> = None; // t, normal (model), colour, emission
    let mut consider = |hit: Option<(f32, Vec3)>, color: Vec3, glow: f32| {
        if let Some((t, n)) = hit
            && best.is_none_or(|b| t < b.0)
        {
            best = Some((t, n, color, glow));
        }
    };
    consider(box_hit(o, dl, Vec3::ZERO, Vec3::new(0.2, 0.08, 0.28)), Vec3::new(0.9, 0.28, 0.03), 0.0);
    consider(box_hit(o, dl, Vec3::new(0.0, 0.1, 0.02), Vec3::new(0.12, 0.04, 0.16)), Vec3::splat(0.05), 0.0);
    consider(box_hit(o, dl, Vec3::new(0.0, 0.0, -0.29), Vec3::new(0.06, 0.03, 0.02)), Vec3::new(0.3, 0.9, 1.0), 1.0);
    // Arms and guards in the arm frame, turned 45 degrees about up.
    let arm = Quat::from_rotation_y(std::f32::consts::FRAC_PI_4);
    let (oa, da) = (arm.inverse() * o, arm.inverse() * dl);
    let dark = Vec3::splat(0.04);
    let mut consider_arm = |hit: Option<(f32, Vec3)>, color: Vec3| consider(hit.map(|(t, n)| (t, arm * n)), color, 0.0);
    consider_arm(box_hit(oa, da, Vec3::ZERO, Vec3::new(0.55, 0.03, 0.035)), dark);
    consider_arm(box_hit(oa, da, Vec3::ZERO, Vec3::new(0.035, 0.03, 0.55)), dark);
    for c in [Vec3::X, -Vec3::X, Vec3::Z, -Vec3::Z] {
        let centre = c * 0.5 + Vec3::Y * 0.06;
        if da.y.abs() > 1e-6 {
            let t = (centre.y - oa.y) / da.y;
            let r = (oa + da * t - centre).length();
            if t > 0.0 && r > 0.17 && r < 0.27 {
                consider_arm(Some((t, Vec3::Y * -da.y.signum())), Vec3::new(0.12, 0.12, 0.14));
            } else if t > 0.0 && r <= 0.17 {
                consider_arm(Some((t, Vec3::Y * -da.y.signum())), Vec3::new(0.35, 0.38, 0.42));
            }
        }
    }
    let (t, n, color, glow) = best?;
    let nw = (m.rotation * n).normalize();
    let lit = SUN * nw.dot(sun).max(0.0) * 0.8 + SKY_TOP.lerp(SKY_HORIZON, 0.5) * (0.8 + 0.3 * nw.y);
    Some((t, color * lit + color * glow * 3.0))
}

/// How a path is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stroke {
    /// Linear RGB.
    pub color: Vec3,
    /// Width in pixels (when `world_width` is `None`).
    pub width: f32,
    /// Width in world units instead, shrinking with distance (at least 1 pixel).
    pub world_width: Option<f32>,
    /// Draw hidden stretches dashed and faint (else not at all).
    pub ghost: bool,
}

impl Frame {
    fn index(&self, x: i32, y: i32) -> Option<usize> {
        (x >= 0 && y >= 0 && x < self.width as i32 && y < self.height as i32)
            .then(|| y as usize * self.width as usize + x as usize)
    }

    /// Draws the polyline `points` as seen by `camera` (the camera this frame was rendered
    /// with): solid where visible, tinted where under water, dashed and faint where hidden.
    pub fn draw_path(&mut self, camera: &Camera, points: &[Vec3], stroke: Stroke) {
        let n = self.color.len();
        let (mut core, mut outline, mut ghost, mut tint) = (vec![0f32; n], vec![0f32; n], vec![0f32; n], vec![1f32; n]);
        let mut s = 0.0;
        for seg in points.windows(2) {
            let (a, b) = (seg[0], seg[1]);
            let len = a.distance(b);
            let pa = camera.project(a).map_or(Vec2::ZERO, |p| p.0);
            let pb = camera.project(b).map_or(Vec2::ZERO, |p| p.0);
            let samples = ((pa.distance(pb) / 0.4).ceil() as usize).clamp(1, 4000);
            for i in 0..samples {
                let f = i as f32 / samples as f32;
                let Some((px, dist)) = camera.project(a.lerp(b, f)) else { continue };
                let radius = match stroke.world_width {
                    Some(w) => (0.5 * w * camera.focal() / dist).clamp(0.6, 10.0),
                    None => 0.5 * stroke.width,
                };
                let dashed = ((s + f * len) / 1.2).fract() < 0.55;
                let reach = radius + 1.6;
                for y in (px.y - reach).floor() as i32..=(px.y + reach).ceil() as i32 {
                    for x in (px.x - reach).floor() as i32..=(px.x + reach).ceil() as i32 {
                        let Some(k) = self.index(x, y) else { continue };
                        let r = (Vec2::new(x as f32 + 0.5, y as f32 + 0.5) - px).length();
                        let cover = |rad: f32| (rad + 0.5 - r).clamp(0.0, 1.0);
                        if dist <= self.depth[k] + 0.05 {
                            if cover(radius) > core[k] {
                                core[k] = cover(radius);
                                let under = (dist - self.water[k]).max(0.0);
                                tint[k] = (-0.06 * under).exp().max(0.45);
                            }
                            outline[k] = outline[k].max(cover(radius + 1.3));
                        } else if dashed && stroke.ghost {
                            ghost[k] = ghost[k].max(cover(radius * 0.8));
                        }
                    }
                }
            }
            s += len;
        }
        let ghost_color = stroke.color.lerp(Vec3::ONE, 0.35);
        let water_color = Vec3::new(0.05, 0.25, 0.35);
        for k in 0..n {
            let mut c = self.color[k];
            c = c.lerp(ghost_color, 0.6 * ghost[k] * (1.0 - outline[k]));
            c = c.lerp(Vec3::splat(0.01), 0.75 * outline[k]);
            c = c.lerp(water_color.lerp(stroke.color, tint[k]), core[k]);
            self.color[k] = c;
        }
    }

    /// Beads of `radius` (world units) every `gap` along the polyline `points`, shaded as
    /// little spheres, where visible.
    pub fn draw_beads(&mut self, camera: &Camera, points: &[Vec3], gap: f32, radius: f32, color: Vec3) {
        let mut next = 0.0;
        let mut s = 0.0;
        for w in points.windows(2) {
            let len = w[0].distance(w[1]);
            while next <= s + len {
                let p = w[0].lerp(w[1], if len > 0.0 { (next - s) / len } else { 0.0 });
                next += gap;
                let Some((c, dist)) = camera.project(p) else { continue };
                let r = (radius * camera.focal() / dist).max(0.8);
                for y in (c.y - r - 1.0).floor() as i32..=(c.y + r + 1.0).ceil() as i32 {
                    for x in (c.x - r - 1.0).floor() as i32..=(c.x + r + 1.0).ceil() as i32 {
                        let Some(k) = self.index(x, y) else { continue };
                        if dist > self.depth[k] {
                            continue;
                        }
                        let d = (Vec2::new(x as f32 + 0.5, y as f32 + 0.5) - c) / r;
                        let cover = ((1.0 - d.length()) * r + 0.5).clamp(0.0, 1.0);
                        let light = 0.55 + 0.45 * (1.0 - d.length_squared()).max(0.0).sqrt() - 0.2 * d.y;
                        self.color[k] = self.color[k].lerp(color * light.max(0.2), cover);
                    }
                }
            }
            s += len;
        }
    }

    /// A disc marker of `radius` pixels at world point `p`, with a dark rim; on top of all.
    pub fn draw_marker(&mut self, camera: &Camera, p: Vec3, color: Vec3, radius: f32) {
        let Some((c, _)) = camera.project(p) else { return };
        let reach = radius + 2.0;
        for y in (c.y - reach).floor() as i32..=(c.y + reach).ceil() as i32 {
            for x in (c.x - reach).floor() as i32..=(c.x + reach).ceil() as i32 {
                let Some(k) = self.index(x, y) else { continue };
                let r = (Vec2::new(x as f32 + 0.5, y as f32 + 0.5) - c).length();
                let rim = (radius + 1.8 + 0.5 - r).clamp(0.0, 1.0);
                let fill = (radius + 0.5 - r).clamp(0.0, 1.0);
                let inner = (radius * 0.45 + 0.5 - r).clamp(0.0, 1.0);
                let mut px = self.color[k].lerp(Vec3::splat(0.01), rim);
                px = px.lerp(Vec3::ONE, fill);
                px = px.lerp(color, inner.max(fill * 0.0));
                self.color[k] = px;
            }
        }
    }

    /// Blends a rectangle of `color` over the picture.
    pub fn fill_rect(&mut self, x: i32, y: i32, w: i32, h: i32, color: Vec3, alpha: f32) {
        for yy in y..y + h {
            for xx in x..x + w {
                if let Some(k) = self.index(xx, yy) {
                    self.color[k] = self.color[k].lerp(color, alpha);
                }
            }
        }
    }

    /// Writes `text` with its top-left at `(x, y)`, `scale` pixels per font pixel, with a dark
    /// shadow. Returns the x just past the text.
    pub fn draw_text(&mut self, x: i32, y: i32, text: &str, color: Vec3, scale: i32) -> i32 {
        let mut cx = x;
        for ch in text.chars() {
            let glyph = font::glyph(ch);
            for (row, bits) in glyph.iter().enumerate() {
                for col in 0..5 {
                    if bits >> (4 - col) & 1 == 1 {
                        let (px, py) = (cx + col * scale, y + row as i32 * scale);
                        self.fill_rect(px + 1, py + 1, scale, scale, Vec3::ZERO, 0.8);
                        self.fill_rect(px, py, scale, scale, color, 1.0);
                    }
                }
            }
            cx += 6 * scale;
        }
        cx
    }

    /// Averages `k x k` blocks of pixels (supersampling).
    pub fn downsample(&self, k: u32) -> Frame {
        let (w, h) = (self.width / k, self.height / k);
        let mut out = Frame {
            width: w,
            height: h,
            color: vec![Vec3::ZERO; (w * h) as usize],
            depth: vec![f32::INFINITY; (w * h) as usize],
            water: vec![f32::INFINITY; (w * h) as usize],
        };
        for y in 0..h {
            for x in 0..w {
                let o = (y * w + x) as usize;
                for dy in 0..k {
                    for dx in 0..k {
                        let i = ((y * k + dy) * self.width + x * k + dx) as usize;
                        out.color[o] += self.color[i];
                        out.depth[o] = out.depth[o].min(self.depth[i]);
                        out.water[o] = out.water[o].min(self.water[i]);
                    }
                }
                out.color[o] /= (k * k) as f32;
            }
        }
        out
    }

    /// 8-bit sRGB, row by row.
    pub fn to_rgb8(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.color.len() * 3);
        for c in &self.color {
            let c = c.max(Vec3::ZERO);
            // A soft shoulder instead of a hard clip, then the sRGB curve.
            let c = c / (1.0 + 0.15 * c);
            for v in c.to_array() {
                out.push((v.min(1.0).powf(1.0 / 2.2) * 255.0 + 0.5) as u8);
            }
        }
        out
    }
}
