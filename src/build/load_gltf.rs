//! Load stage: glTF 2.0 (`.glb`, `.gltf` + buffers) into a [`LevelMesh`], node transforms
//! applied. The `gltf` crate parses and validates the document; the vertex and index data are
//! read here, every range checked against its buffer before anything is allocated.

use std::borrow::Cow;
use std::path::Path;

use glam::{Mat4, Vec3};
use gltf::accessor::{DataType, Dimensions};
use gltf::mesh::Mode;

use super::mesh::{LevelMesh, TriangleMesh, matches_pattern};
use crate::error::MeshError;

/// Deepest node nesting followed.
const MAX_DEPTH: usize = 64;
/// Most node instances visited (a node may be the child of several).
const MAX_INSTANCES: usize = 1 << 20;

/// Parses a `.glb` or `.gltf` document; `dir` is where external buffers are read from (`None`:
/// they are refused).
pub(crate) fn load(bytes: &[u8], dir: Option<&Path>, water: &str) -> Result<LevelMesh, MeshError> {
    let (doc, blob) = parse(bytes)?;
    let buffers = read_buffers(&doc, blob.as_deref(), dir)?;
    let doc = &doc;
    let roots: Vec<gltf::Node> = match doc.default_scene().or_else(|| doc.scenes().next()) {
        Some(scene) => scene.nodes().collect(),
        None => {
            // No scene: every node that is nobody's child.
            let mut child = vec![false; doc.nodes().len()];
            for n in doc.nodes() {
                for c in n.children() {
                    child[c.index()] = true;
                }
            }
            doc.nodes().filter(|n| !child[n.index()]).collect()
        }
    };
    // First pass: the instances and their triangle count, checked before reading anything.
    let mut instances: Vec<(gltf::Node, Mat4)> = Vec::new();
    let mut stack: Vec<(gltf::Node, Mat4, usize)> = roots.into_iter().map(|n| (n, Mat4::IDENTITY, 0)).collect();
    let mut visited = 0usize;
    let (mut total, mut vertices) = (0usize, 0usize);
    while let Some((node, parent, depth)) = stack.pop() {
        visited += 1;
        if visited > MAX_INSTANCES || depth > MAX_DEPTH {
            return Err(MeshError::TooLarge("scene graph too deep or too many node instances"));
        }
        let m = parent * Mat4::from_cols_array_2d(&node.transform().matrix());
        if let Some(mesh) = node.mesh() {
            for p in mesh.primitives() {
                total = total.saturating_add(primitive_triangles(&p));
                vertices = vertices.saturating_add(p.get(&gltf::Semantic::Positions).map_or(0, |a| a.count()));
            }
            if total > LevelMesh::MAX_TRIANGLES || vertices > 3 * LevelMesh::MAX_TRIANGLES {
                return Err(MeshError::TooLarge("more triangles than LevelMesh::MAX_TRIANGLES"));
            }
            instances.push((node.clone(), m));
        }
        stack.extend(node.children().map(|c| (c, m, depth + 1)));
    }
    // Keep the file's order (the stack visits in reverse).
    instances.sort_by_key(|(n, _)| n.index());
    let mut level = LevelMesh::default();
    for (node, m) in &instances {
        let Some(mesh) = node.mesh() else { continue };
        let node_water = node.name().is_some_and(|n| matches_pattern(n, water))
            || mesh.name().is_some_and(|n| matches_pattern(n, water));
        for p in mesh.primitives() {
            let is_water = node_water || p.material().name().is_some_and(|n| matches_pattern(n, water));
            let target = if is_water { &mut level.water } else { &mut level.solid };
            read_primitive(&p, &buffers, *m, target)?;
        }
    }
    level.solid.validate()?;
    level.water.validate()?;
    Ok(level)
}

/// The validated document and the GLB blob. `gltf-json` 1.4's validation indexes a
/// primitive's POSITION accessor without a bounds check (it panics on a bad index), so that
/// index is checked here first.
fn parse(bytes: &[u8]) -> Result<(gltf::Document, Option<Vec<u8>>), MeshError> {
    check_glb_header(bytes)?;
    let err = |e: gltf::Error| MeshError::Gltf(e.to_string());
    let gltf::Gltf { document, blob } = gltf::Gltf::from_slice_without_validation(bytes).map_err(err)?;
    let root = document.into_json();
    let accessors = root.accessors.len();
    let bad = root
        .meshes
        .iter()
        .flat_map(|m| &m.primitives)
        .flat_map(|p| p.attributes.values())
        .any(|a| a.value() >= accessors);
    if bad {
        return Err(MeshError::Gltf("a primitive attribute names a missing accessor".into()));
    }
    Ok((gltf::Document::from_json(root).map_err(err)?, blob))
}

/// Checks a GLB container's header before the `gltf` crate reads it: that crate subtracts the
/// header's size from its declared length unchecked (an overflow panic in debug builds, found
/// by the `mesh_glb` fuzz target on a 14-byte file). Text glTF (JSON) passes through.
fn check_glb_header(bytes: &[u8]) -> Result<(), MeshError> {
    if !bytes.starts_with(b"glTF") {
        return Ok(());
    }
    let word = |at: usize| bytes.get(at..at + 4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]) as usize);
    let (Some(_version), Some(length)) = (word(4), word(8)) else {
        return Err(MeshError::Gltf("GLB header is truncated".into()));
    };
    if !(12..=bytes.len()).contains(&length) {
        return Err(MeshError::Gltf(format!("GLB header declares {length} bytes, the file has {}", bytes.len())));
    }
    Ok(())
}

/// The data of each buffer: the GLB blob or an external file.
fn read_buffers<'a>(
    doc: &gltf::Document,
    blob: Option<&'a [u8]>,
    dir: Option<&Path>,
) -> Result<Vec<Cow<'a, [u8]>>, MeshError> {
    let mut out = Vec::new();
    for b in doc.buffers() {
        let data: Cow<[u8]> = match b.source() {
            gltf::buffer::Source::Bin => {
                Cow::Borrowed(blob.ok_or(MeshError::Gltf("a buffer refers to a missing GLB blob".into()))?)
            }
            gltf::buffer::Source::Uri(uri) => {
                if uri.starts_with("data:") {
                    return Err(MeshError::Unsupported("embedded (data URI) buffers"));
                }
                let Some(dir) = dir else {
                    return Err(MeshError::Unsupported("external buffers when loading from bytes"));
                };
                if uri.contains("://") || Path::new(uri).is_absolute() || uri.split(['/', '\\']).any(|c| c == "..") {
                    return Err(MeshError::Unsupported("buffer URIs other than relative file names"));
                }
                let path = dir.join(uri);
                Cow::Owned(std::fs::read(&path).map_err(|source| MeshError::Io { path, source })?)
            }
        };
        if data.len() < b.length() {
            return Err(MeshError::Gltf(format!("buffer {} is shorter than its declared length", b.index())));
        }
        out.push(data);
    }
    Ok(out)
}

/// Triangles a primitive declares (0 for points and lines), from its counts alone.
fn primitive_triangles(p: &gltf::Primitive) -> usize {
    let n = match (p.indices(), p.get(&gltf::Semantic::Positions)) {
        (Some(a), _) | (None, Some(a)) => a.count(),
        (None, None) => 0,
    };
    match p.mode() {
        Mode::Triangles => n / 3,
        Mode::TriangleStrip | Mode::TriangleFan => n.saturating_sub(2),
        _ => 0,
    }
}

/// The bytes of an accessor's elements: `(data, stride, count)`, every element checked to lie
/// inside its view and buffer.
fn accessor_data<'b>(
    a: &gltf::Accessor,
    buffers: &'b [Cow<[u8]>],
    types: &[DataType],
    dims: Dimensions,
) -> Result<(&'b [u8], usize, usize), MeshError> {
    let bad = |reason| MeshError::BadAccessor { accessor: a.index(), reason };
    if a.sparse().is_some() {
        return Err(MeshError::Unsupported("sparse accessors"));
    }
    if !types.contains(&a.data_type()) || a.dimensions() != dims || a.normalized() {
        return Err(MeshError::Unsupported("vertex or index types other than float VEC3 and unsigned SCALAR"));
    }
    let view = a.view().ok_or(bad("no buffer view"))?;
    let data = buffers.get(view.buffer().index()).ok_or(bad("no buffer"))?;
    let elem = a.size();
    let stride = view.stride().unwrap_or(elem);
    if stride < elem {
        return Err(bad("stride smaller than the element"));
    }
    let view_end = view.offset().checked_add(view.length()).ok_or(bad("view overflows"))?;
    let view_bytes = data.get(view.offset()..view_end).ok_or(bad("view outside its buffer"))?;
    let count = a.count();
    if count == 0 {
        return Ok((&[], stride, 0));
    }
    let need =
        (count - 1).checked_mul(stride).and_then(|n| n.checked_add(elem)).and_then(|n| n.checked_add(a.offset()));
    match need {
        Some(end) if end <= view_bytes.len() => Ok((&view_bytes[a.offset()..end], stride, count)),
        _ => Err(bad("elements outside their view")),
    }
}

/// Appends a primitive's triangles, transformed by `m`, to `out`.
fn read_primitive(
    p: &gltf::Primitive,
    buffers: &[Cow<[u8]>],
    m: Mat4,
    out: &mut TriangleMesh,
) -> Result<(), MeshError> {
    if !matches!(p.mode(), Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan) {
        return Ok(()); // points and lines block nothing
    }
    let Some(pos) = p.get(&gltf::Semantic::Positions) else { return Ok(()) };
    let (bytes, stride, count) = accessor_data(&pos, buffers, &[DataType::F32], Dimensions::Vec3)?;
    let f = |b: &[u8], i: usize| f32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    let first = out.positions.len();
    out.positions.reserve(count);
    for i in 0..count {
        let b = &bytes[i * stride..];
        out.positions.push(m.transform_point3(Vec3::new(f(b, 0), f(b, 4), f(b, 8))));
    }
    let indices: Vec<u32> = match p.indices() {
        Some(a) => {
            let (bytes, stride, n) =
                accessor_data(&a, buffers, &[DataType::U8, DataType::U16, DataType::U32], Dimensions::Scalar)?;
            let mut v = Vec::with_capacity(n);
            for i in 0..n {
                let b = &bytes[i * stride..];
                v.push(match a.data_type() {
                    DataType::U8 => u32::from(b[0]),
                    DataType::U16 => u32::from(u16::from_le_bytes([b[0], b[1]])),
                    _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                });
            }
            v
        }
        None => (0..count as u32).collect(),
    };
    if let Some(&index) = indices.iter().find(|&&i| i as usize >= count) {
        return Err(MeshError::IndexOutOfRange { index: u64::from(index), vertices: count });
    }
    let base = first as u32;
    let t = |a: u32, b: u32, c: u32| [a + base, b + base, c + base];
    match p.mode() {
        Mode::Triangles => out.triangles.extend(indices.chunks_exact(3).map(|c| t(c[0], c[1], c[2]))),
        Mode::TriangleStrip => out.triangles.extend(
            indices
                .windows(3)
                .enumerate()
                .map(|(i, w)| if i % 2 == 0 { t(w[0], w[1], w[2]) } else { t(w[1], w[0], w[2]) }),
        ),
        _ => {
            if let Some((&c0, rest)) = indices.split_first() {
                out.triangles.extend(rest.windows(2).map(|w| t(c0, w[0], w[1])));
            }
        }
    }
    Ok(())
}
