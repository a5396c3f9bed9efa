//! The C ABI of `shim.cpp` and the one safe type that owns its results.
//!
//! Every foreign call is made here. [`Glslang`] owns a `TshResult*` and copies what Rust
//! needs out of it into plain Rust values; nothing borrowed from C++ escapes this module.

use std::ffi::c_char;
use std::ptr::NonNull;

use crate::Stage;
use crate::source::{self, Prepared};

/// One shader source (`TshSource`).
#[repr(C)]
struct TshSource {
    stage: u32,
    text: *const c_char,
    len: usize,
    flags: u32,
}

/// Resource limits glslang checks while compiling (`TshLimits`).
#[repr(C)]
struct TshLimits {
    max_vertex_attribs: i32,
    max_draw_buffers: i32,
    max_texture_units: i32,
    max_combined_texture_units: i32,
    max_varying_components: i32,
    max_geometry_output_vertices: i32,
    max_clip_distances: i32,
    max_vertex_output_components: i32,
    max_geometry_input_components: i32,
    max_geometry_output_components: i32,
    max_fragment_input_components: i32,
    max_uniform_components: i32,
    max_compute_work_group_count: [i32; 3],
    max_compute_work_group_size: [i32; 3],
    max_compute_work_group_invocations: i32,
    max_storage_buffer_bindings: i32,
}

/// A string owned by the result (`TshStr`).
#[repr(C)]
#[derive(Clone, Copy)]
struct TshStr {
    ptr: *const c_char,
    len: usize,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct TshUniform {
    name: TshStr,
    gl_type: i32,
    size: i32,
    block: i32,
    binding: i32,
    stages: u32,
    is_sampler: i32,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct TshLiveBlock {
    name: TshStr,
    stages: u32,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct TshBlock {
    name: TshStr,
    array: i32,
    binding: i32,
    prefixed: i32,
    stages: u32,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct TshStorageBlock {
    name: TshStr,
    array: i32,
    binding: i32,
    stages: u32,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct TshLeaf {
    name: TshStr,
    block: i32,
    basic: i32,
    vector: i32,
    columns: i32,
    array: i32,
    path: *const u32,
    path_len: usize,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct TshVar {
    name: TshStr,
    gl_type: i32,
    size: i32,
    location: i32,
    index: i32,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct TshDecl {
    name: TshStr,
    stage: u32,
    output: i32,
    qualifiers: u32,
    version: i32,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct TshInit {
    name: TshStr,
    values: *const u64,
    len: usize,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct TshWords {
    ptr: *const u32,
    len: usize,
}

/// Opaque result of a compile or link.
#[repr(C)]
struct TshResult {
    _private: [u8; 0],
}

unsafe extern "C" {
    fn tsh_compile(src: *const TshSource, limits: *const TshLimits) -> *mut TshResult;
    fn tsh_link(srcs: *const TshSource, count: usize, limits: *const TshLimits) -> *mut TshResult;
    fn tsh_free(r: *mut TshResult);
    fn tsh_ok(r: *const TshResult) -> i32;
    fn tsh_log(r: *const TshResult) -> TshStr;
    fn tsh_spirv(r: *const TshResult, stage: u32) -> TshWords;
    fn tsh_geometry(r: *const TshResult, out: *mut i32);
    fn tsh_local_size(r: *const TshResult, out: *mut i32);
    fn tsh_tess(r: *const TshResult, out: *mut i32);
    fn tsh_uniform_count(r: *const TshResult) -> usize;
    fn tsh_uniform(r: *const TshResult, i: usize) -> TshUniform;
    fn tsh_live_block_count(r: *const TshResult) -> usize;
    fn tsh_live_block(r: *const TshResult, i: usize) -> TshLiveBlock;
    fn tsh_block_count(r: *const TshResult) -> usize;
    fn tsh_block(r: *const TshResult, i: usize) -> TshBlock;
    fn tsh_storage_block_count(r: *const TshResult) -> usize;
    fn tsh_storage_block(r: *const TshResult, i: usize) -> TshStorageBlock;
    fn tsh_leaf_count(r: *const TshResult) -> usize;
    fn tsh_leaf(r: *const TshResult, i: usize) -> TshLeaf;
    fn tsh_input_count(r: *const TshResult) -> usize;
    fn tsh_input(r: *const TshResult, i: usize) -> TshVar;
    fn tsh_output_count(r: *const TshResult) -> usize;
    fn tsh_output(r: *const TshResult, i: usize) -> TshVar;
    fn tsh_decl_count(r: *const TshResult) -> usize;
    fn tsh_decl(r: *const TshResult, i: usize) -> TshDecl;
    fn tsh_init_count(r: *const TshResult) -> usize;
    fn tsh_init(r: *const TshResult, i: usize) -> TshInit;
}

/// Limits glslang enforces while compiling and shaders read as built-in constants
/// (`gl_MaxVertexOutputComponents`, ...): they must be what the context reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// `MAX_VERTEX_ATTRIBS`.
    pub max_vertex_attribs: i32,
    /// `MAX_DRAW_BUFFERS`.
    pub max_draw_buffers: i32,
    /// `MAX_TEXTURE_IMAGE_UNITS` (per stage).
    pub max_texture_units: i32,
    /// `MAX_COMBINED_TEXTURE_IMAGE_UNITS`.
    pub max_combined_texture_units: i32,
    /// `MAX_VARYING_COMPONENTS`.
    pub max_varying_components: i32,
    /// `MAX_GEOMETRY_OUTPUT_VERTICES`.
    pub max_geometry_output_vertices: i32,
    /// `MAX_CLIP_DISTANCES`.
    pub max_clip_distances: i32,
    /// `MAX_VERTEX_OUTPUT_COMPONENTS`.
    pub max_vertex_output_components: i32,
    /// `MAX_GEOMETRY_INPUT_COMPONENTS`.
    pub max_geometry_input_components: i32,
    /// `MAX_GEOMETRY_OUTPUT_COMPONENTS`.
    pub max_geometry_output_components: i32,
    /// `MAX_FRAGMENT_INPUT_COMPONENTS`.
    pub max_fragment_input_components: i32,
    /// `MAX_VERTEX_UNIFORM_COMPONENTS` (and the geometry, fragment and compute stages').
    pub max_uniform_components: i32,
    /// `MAX_COMPUTE_WORK_GROUP_COUNT` (x, y, z): `gl_MaxComputeWorkGroupCount`.
    pub max_compute_work_group_count: [i32; 3],
    /// `MAX_COMPUTE_WORK_GROUP_SIZE` (x, y, z): `gl_MaxComputeWorkGroupSize`, and the
    /// largest `local_size_*` a compute shader may declare.
    pub max_compute_work_group_size: [i32; 3],
    /// `MAX_COMPUTE_WORK_GROUP_INVOCATIONS`: the largest product of the local size.
    pub max_compute_work_group_invocations: i32,
    /// `MAX_SHADER_STORAGE_BUFFER_BINDINGS`: a storage block bound past them fails the
    /// compile, as in Mesa (glslang has no such limit).
    pub max_storage_buffer_bindings: i32,
}

impl Default for Limits {
    /// The limits Tessera's GL 3.3 contexts report.
    fn default() -> Self {
        Self {
            max_vertex_attribs: 16,
            max_draw_buffers: 8,
            max_texture_units: 16,
            max_combined_texture_units: 48,
            max_varying_components: 60,
            max_geometry_output_vertices: 256,
            max_clip_distances: 8,
            max_vertex_output_components: 64,
            max_geometry_input_components: 64,
            max_geometry_output_components: 128,
            max_fragment_input_components: 128,
            max_uniform_components: 1024,
            max_compute_work_group_count: [65535; 3],
            max_compute_work_group_size: [1024, 1024, 64],
            max_compute_work_group_invocations: 1024,
            max_storage_buffer_bindings: 80,
        }
    }
}

impl Limits {
    fn raw(&self) -> TshLimits {
        TshLimits {
            max_vertex_attribs: self.max_vertex_attribs,
            max_draw_buffers: self.max_draw_buffers,
            max_texture_units: self.max_texture_units,
            max_combined_texture_units: self.max_combined_texture_units,
            max_varying_components: self.max_varying_components,
            max_geometry_output_vertices: self.max_geometry_output_vertices,
            max_clip_distances: self.max_clip_distances,
            max_vertex_output_components: self.max_vertex_output_components,
            max_geometry_input_components: self.max_geometry_input_components,
            max_geometry_output_components: self.max_geometry_output_components,
            max_fragment_input_components: self.max_fragment_input_components,
            max_uniform_components: self.max_uniform_components,
            max_compute_work_group_count: self.max_compute_work_group_count,
            max_compute_work_group_size: self.max_compute_work_group_size,
            max_compute_work_group_invocations: self.max_compute_work_group_invocations,
            max_storage_buffer_bindings: self.max_storage_buffer_bindings,
        }
    }
}

/// An active uniform of glslang's reflection (default-block members and samplers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LiveUniform {
    pub name: String,
    pub gl_type: u32,
    pub size: i32,
    pub block: i32,
    pub binding: i32,
    pub stages: u32,
    pub is_sampler: bool,
}

/// A uniform block glslang's reflection found active.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LiveBlock {
    pub name: String,
    pub stages: u32,
}

/// A uniform block as declared, the default block included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DeclaredBlock {
    pub name: String,
    pub array: i32,
    pub binding: i32,
    pub prefixed: bool,
    pub stages: u32,
}

/// A shader storage block as declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DeclaredStorageBlock {
    pub name: String,
    pub array: i32,
    pub binding: i32,
    pub stages: u32,
}

/// A leaf member of a declared block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Leaf {
    pub name: String,
    pub block: usize,
    pub basic: i32,
    pub vector: i32,
    pub columns: i32,
    pub array: i32,
    pub path: Vec<u32>,
}

/// A pipe input or output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PipeVar {
    pub name: String,
    pub gl_type: u32,
    pub size: i32,
    pub location: i32,
    pub index: i32,
}

/// A declared stage input or output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Decl {
    pub name: String,
    pub stage: u32,
    pub output: bool,
    /// `decl::*` bits: the qualifiers as spelled in the source.
    pub qualifiers: u32,
    /// The GLSL version of the stage that declares it.
    pub version: i32,
}

/// [`Decl::qualifiers`] bits (`kDecl*` in the shim).
pub(crate) mod decl {
    /// `smooth`.
    pub const SMOOTH: u32 = 1;
    /// `flat`.
    pub const FLAT: u32 = 2;
    /// `noperspective`.
    pub const NO_PERSPECTIVE: u32 = 4;
    /// `invariant`.
    pub const INVARIANT: u32 = 8;
    /// The declaration is an interface block.
    pub const BLOCK: u32 = 16;
}

/// The initial value of a leaf of a uniform declared with an initializer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Initializer {
    /// The leaf's name, as [`Leaf::name`] spells it.
    pub name: String,
    /// Every component of every element, in GLSL's order (matrix columns first): 32-bit
    /// patterns for float, int, uint and bool (0 or 1), 64-bit ones for doubles.
    pub values: Vec<u64>,
}

/// Everything a link returned, copied out of C++.
#[derive(Clone, Debug, Default)]
pub(crate) struct LinkResult {
    pub log: String,
    pub spirv: [Option<Vec<u32>>; 6],
    /// The geometry stage's output vertices, input and output primitives and invocations.
    pub geometry: [i32; 4],
    /// The tessellation stages' layouts: the control stage's output vertices, then the
    /// evaluation stage's mode, spacing, vertex order (GL enums, 0 where none is declared)
    /// and point mode (0 or 1).
    pub tess: [i32; 5],
    /// The compute stage's local size, zeros when none is declared.
    pub local_size: [i32; 3],
    pub storage_blocks: Vec<DeclaredStorageBlock>,
    pub uniforms: Vec<LiveUniform>,
    pub live_blocks: Vec<LiveBlock>,
    pub blocks: Vec<DeclaredBlock>,
    pub leaves: Vec<Leaf>,
    pub inputs: Vec<PipeVar>,
    pub outputs: Vec<PipeVar>,
    pub decls: Vec<Decl>,
    pub initializers: Vec<Initializer>,
}

/// glslang's stage bit (`EShLanguageMask`) of a stage.
pub(crate) fn stage_bit(stage: Stage) -> u32 {
    match stage {
        Stage::Vertex => 1 << 0,
        Stage::Geometry => 1 << 3,
        Stage::Fragment => 1 << 4,
        Stage::Compute => 1 << 5,
        Stage::TessControl => 1 << 1,
        Stage::TessEvaluation => 1 << 2,
    }
}

fn raw_source(stage: Stage, p: &Prepared<'_>) -> TshSource {
    TshSource {
        stage: stage as u32,
        text: p.text.as_ptr().cast(),
        len: p.text.len(),
        flags: p.flags,
    }
}

/// Owner of one `TshResult`.
struct Glslang(NonNull<TshResult>);

impl Drop for Glslang {
    fn drop(&mut self) {
        // SAFETY: the pointer came from tsh_compile/tsh_link, is non-null, and is freed
        // exactly once, here.
        unsafe { tsh_free(self.0.as_ptr()) }
    }
}

impl Glslang {
    fn ptr(&self) -> *const TshResult {
        self.0.as_ptr()
    }

    fn ok(&self) -> bool {
        // SAFETY: `self` owns a live result.
        unsafe { tsh_ok(self.ptr()) != 0 }
    }

    fn string(s: TshStr) -> String {
        if s.ptr.is_null() || s.len == 0 {
            return String::new();
        }
        // SAFETY:
        // - `s` was returned by an accessor of a result that is still alive (the caller
        //   holds `&self`), and points at `s.len` initialised bytes of a std::string it owns;
        // - the bytes are copied before the borrow ends.
        let bytes = unsafe { std::slice::from_raw_parts(s.ptr.cast::<u8>(), s.len) };
        String::from_utf8_lossy(bytes).into_owned()
    }

    fn log(&self) -> String {
        // SAFETY: `self` owns a live result.
        Self::string(unsafe { tsh_log(self.ptr()) })
    }

    fn spirv(&self, stage: Stage) -> Option<Vec<u32>> {
        // SAFETY: `self` owns a live result; any stage number is accepted.
        let w = unsafe { tsh_spirv(self.ptr(), stage as u32) };
        if w.ptr.is_null() || w.len == 0 {
            return None;
        }
        // SAFETY: the words belong to a std::vector of the live result, `w.len` long; they
        // are copied before `self` can be dropped.
        Some(unsafe { std::slice::from_raw_parts(w.ptr, w.len) }.to_vec())
    }

    /// Every item of one of the result's lists.
    fn list<T>(
        &self,
        count: unsafe extern "C" fn(*const TshResult) -> usize,
        get: unsafe extern "C" fn(*const TshResult, usize) -> T,
    ) -> Vec<T> {
        // SAFETY: `self` owns a live result; `count` is the length accessor of `get`'s list.
        let n = unsafe { count(self.ptr()) };
        (0..n)
            .map(|i| {
                // SAFETY: `i` is below the length the same live result reported.
                unsafe { get(self.ptr(), i) }
            })
            .collect()
    }

    fn collect(&self) -> LinkResult {
        let r = self.ptr();
        let mut out = LinkResult {
            log: self.log(),
            spirv: [
                self.spirv(Stage::Vertex),
                self.spirv(Stage::Geometry),
                self.spirv(Stage::Fragment),
                self.spirv(Stage::Compute),
                self.spirv(Stage::TessControl),
                self.spirv(Stage::TessEvaluation),
            ],
            ..LinkResult::default()
        };
        // SAFETY: `r` is live and `out.geometry` has room for the four values written.
        unsafe { tsh_geometry(r, out.geometry.as_mut_ptr()) };
        // SAFETY: `r` is live and `out.local_size` has room for the three values written.
        unsafe { tsh_local_size(r, out.local_size.as_mut_ptr()) };
        // SAFETY: `r` is live and `out.tess` has room for the five values written.
        unsafe { tsh_tess(r, out.tess.as_mut_ptr()) };
        out.storage_blocks = self
            .list(tsh_storage_block_count, tsh_storage_block)
            .into_iter()
            .map(|b| DeclaredStorageBlock {
                name: Self::string(b.name),
                array: b.array,
                binding: b.binding,
                stages: b.stages,
            })
            .collect();
        out.uniforms = self
            .list(tsh_uniform_count, tsh_uniform)
            .into_iter()
            .map(|u| LiveUniform {
                name: Self::string(u.name),
                gl_type: u.gl_type as u32,
                size: u.size,
                block: u.block,
                binding: u.binding,
                stages: u.stages,
                is_sampler: u.is_sampler != 0,
            })
            .collect();
        out.live_blocks = self
            .list(tsh_live_block_count, tsh_live_block)
            .into_iter()
            .map(|b| LiveBlock {
                name: Self::string(b.name),
                stages: b.stages,
            })
            .collect();
        out.blocks = self
            .list(tsh_block_count, tsh_block)
            .into_iter()
            .map(|b| DeclaredBlock {
                name: Self::string(b.name),
                array: b.array,
                binding: b.binding,
                prefixed: b.prefixed != 0,
                stages: b.stages,
            })
            .collect();
        out.leaves = self
            .list(tsh_leaf_count, tsh_leaf)
            .into_iter()
            .map(|l| Leaf {
                name: Self::string(l.name),
                block: l.block.max(0) as usize,
                basic: l.basic,
                vector: l.vector,
                columns: l.columns,
                array: l.array,
                path: if l.path.is_null() || l.path_len == 0 {
                    Vec::new()
                } else {
                    // SAFETY: the path is a std::vector of the live result, `path_len`
                    // words long; it is copied before `self` can be dropped.
                    unsafe { std::slice::from_raw_parts(l.path, l.path_len) }.to_vec()
                },
            })
            .collect();
        let var = |v: TshVar| PipeVar {
            name: Self::string(v.name),
            gl_type: v.gl_type as u32,
            size: v.size,
            location: v.location,
            index: v.index,
        };
        out.inputs = self
            .list(tsh_input_count, tsh_input)
            .into_iter()
            .map(var)
            .collect();
        out.outputs = self
            .list(tsh_output_count, tsh_output)
            .into_iter()
            .map(var)
            .collect();
        out.decls = self
            .list(tsh_decl_count, tsh_decl)
            .into_iter()
            .map(|d| Decl {
                name: Self::string(d.name),
                stage: d.stage,
                output: d.output != 0,
                qualifiers: d.qualifiers,
                version: d.version,
            })
            .collect();
        out.initializers = self
            .list(tsh_init_count, tsh_init)
            .into_iter()
            .map(|i| Initializer {
                name: Self::string(i.name),
                values: if i.values.is_null() || i.len == 0 {
                    Vec::new()
                } else {
                    // SAFETY: the values are a std::vector of the live result, `len` long;
                    // they are copied before `self` can be dropped.
                    unsafe { std::slice::from_raw_parts(i.values, i.len) }.to_vec()
                },
            })
            .collect();
        out
    }
}

/// glslang's compiles and links so far ([`crate::glslang_runs`]).
pub(crate) static RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Compiles one shader; returns (success, glslang's raw log).
pub(crate) fn compile(stage: Stage, source: &str, limits: &Limits) -> (bool, String) {
    RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    tessera_cache::note(tessera_cache::Work::FrontEnd);
    let prepared = source::prepare(stage, source);
    let src = raw_source(stage, &prepared);
    let limits = limits.raw();
    // SAFETY: `src` points at `prepared`'s text, which outlives the call (glslang copies
    // what it keeps); `limits` is a valid struct for the duration of the call.
    let r = unsafe { tsh_compile(&src, &limits) };
    match NonNull::new(r) {
        Some(r) => {
            let g = Glslang(r);
            (g.ok(), g.log())
        }
        None => (false, "ERROR: internal compiler error\n".to_string()),
    }
}

/// Links shaders; `flags` adds preamble flags (`FLAG_*`) to each shader (one entry per
/// shader, or none). `Err` carries glslang's raw log.
pub(crate) fn link(
    shaders: &[(Stage, &str)],
    flags: &[u32],
    limits: &Limits,
) -> Result<LinkResult, String> {
    RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    tessera_cache::note(tessera_cache::Work::FrontEnd);
    let mut prepared: Vec<Prepared<'_>> = shaders
        .iter()
        .map(|(s, t)| source::prepare(*s, t))
        .collect();
    for (p, f) in prepared.iter_mut().zip(flags) {
        p.flags |= f;
    }
    let srcs: Vec<TshSource> = shaders
        .iter()
        .zip(&prepared)
        .map(|((s, _), p)| raw_source(*s, p))
        .collect();
    let limits = limits.raw();
    // SAFETY: `srcs` holds `srcs.len()` sources pointing into `prepared`, all of which
    // outlive the call; `limits` is valid for the call.
    let r = unsafe { tsh_link(srcs.as_ptr(), srcs.len(), &limits) };
    let Some(r) = NonNull::new(r) else {
        return Err("ERROR: internal compiler error\n".to_string());
    };
    let g = Glslang(r);
    if g.ok() {
        Ok(g.collect())
    } else {
        Err(g.log())
    }
}
