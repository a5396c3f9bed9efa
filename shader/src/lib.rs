//! # tessera-shader
//!
//! The GLSL front end: `glCompileShader` and `glLinkProgram` happen here, on the client, so
//! compile and link status, info logs and every reflection query (`glGetUniformLocation`,
//! `glGetActiveUniform`, attribute and fragment-output locations, uniform block layouts)
//! are answered without a round trip. The result of a link is GL reflection plus one SPIR-V
//! module per stage with Tessera's own interface numbering, which is what the wire carries.
//!
//! ## The compiler
//! glslang (the Khronos reference front end) compiles with the Vulkan client and its
//! *relaxed rules*: loose uniforms gather into one std140 block, `gl_DefaultUniformBlock`,
//! samplers stay combined image-samplers, `gl_VertexID` becomes `VertexIndex`. It is
//! Debian's glslang 12 (`glslang-dev`, `spirv-tools`), reached through a ~500-line C++ shim
//! (`src/shim.cpp`) built with `cc`:
//! - not the vendored `glslang-sys`, because that crate compiles glslang's 47 C++ files on
//!   every clean build (3.7 min debug, 7 min release, and once more for `cargo check`),
//!   while the shim compiles and links in about 11 s;
//! - and not glslang's C API (which is all `glslang-sys` and the `glslang` crate expose),
//!   because it has no reflection: GL-ready reflection (GL type enums, active uniforms,
//!   blocks, pipe inputs and outputs) is only in the C++ `TProgram::buildReflection`.
//!
//! Versions accepted are GLSL 1.10-1.50, 3.30 and 4.00-4.60, core profile (see
//! [`version`]); compute shaders and shader storage blocks are 4.30's, and a shader of an
//! earlier version that enables `GL_ARB_compute_shader` or
//! `GL_ARB_shader_storage_buffer_object` is read as 4.30 (glslang has them from there);
//! likewise tessellation shaders of GLSL 1.40 to 3.30 that enable
//! `GL_ARB_tessellation_shader` are read as 4.00. A program whose evaluation stage has no
//! control stage is linked with the one GL leaves out by [`default_control::link`]. Logs are rewritten in the `0:3: error: ...` shape GL drivers use. GL's
//! deprecated texture functions (`texture2D`, `shadow2D`, ...), which core contexts that are
//! not forward-compatible keep and Mesa accepts, are mapped to their generic forms by a
//! preamble of `#define`s (glslang defines them only for GL clients). glslang's relaxed rules
//! drop uniform initializers (`uniform float k = 2.0;`), so a shader that has some is parsed
//! once more with GL's rules to read their values, which become the default block's
//! initial contents ([`Program::default_block`]). Where Mesa (the reference) and glslang
//! disagree on what a version allows, the text glslang reads is adjusted (`source.rs`:
//! line continuations, GLSL 1.30, `gl_PerVertex` redeclarations, `#extension` placement,
//! `GL_EXT_texture_array`);
//! static recursion fails the compile, as in GL drivers, not just the link; fragment
//! output locations that GL rejects at link fail the link, not the compile;
//! `gl_FragCoord` redeclarations follow GLSL 1.50's rules within a shader and across the
//! fragment shaders of a program (`frag_coord.rs`); and an input or output that several
//! shader objects of a stage declare is one variable (`shared_io.rs`).
//!
//! ## The program's interface numbering
//! glslang numbers bindings per stage (they collide across stages) and its automatic
//! locations collide with explicit ones, so this crate numbers the whole program and writes
//! the numbers into the SPIR-V `Location`, `Index`, `Binding` and `DescriptorSet`
//! decorations:
//! - **vertex attributes**: explicit `layout(location)`, else `glBindAttribLocation`, else
//!   the lowest free run of locations (largest attributes first);
//! - **fragment outputs**: explicit location (and index), else
//!   `glBindFragDataLocation(Indexed)`, else the lowest free location;
//! - **varyings**: matched by name (interface blocks by block name) between consecutive
//!   stages, both ends decorated with the same location;
//! - **descriptors**, all in set 0: binding 0 is the default uniform block (whether or not
//!   the program has one), bindings `1 + s` the combined image-samplers of sampler slots
//!   `s` (one slot per element of a sampler array, in slot order), and bindings
//!   `1 + S + b` (`S` slots in total) the uniform blocks in block-index order. An array of
//!   samplers or of blocks is one SPIR-V variable: it takes the binding of its first
//!   element and the following elements are its array elements (their own numbers stay
//!   unused), then bindings `1 + S + B + k` (`B` uniform blocks) the shader storage blocks
//!   in block-index order, arrays as for uniform blocks, followed by one storage block per
//!   atomic counter buffer (the lowered counters of one binding point, in binding order;
//!   `K` counts them too), then bindings `1 + S + B + K + i`
//!   (`K` storage blocks) the storage images of image slots `i` (one per element of an
//!   image array, arrays as for samplers). Resource variables nothing uses get numbers
//!   after all of these.
//!
//! ## Link-time passes
//! After numbering, the SPIR-V is rewritten where GL means something neither Vulkan nor
//! GLSL ES can say, so that every backend is right from the code alone:
//! - `point_size.rs`: the last stage before rasterization takes `glPointSize`'s value from
//!   a hidden slot at the end of the default block while `PROGRAM_POINT_SIZE` is off;
//! - `rectangle.rs`: rectangle textures are read as 2D ones with normalized coordinates.
//! - `dynamic_index.rs`: sampler and image arrays indexed by non-constant expressions are
//!   indexed by constants in the cases of a switch (Vulkan devices without
//!   `shaderSampledImageArrayDynamicIndexing`, lavapipe among them).
//! - `vertex_arrays.rs`: an array vertex input becomes one input per element (OpenGL ES has
//!   no array vertex inputs).
//! - `resource_arrays.rs`: arrays of arrays of samplers, images and blocks become
//!   one-dimensional arrays of their elements in GL's order (neither Vulkan's SPIR-V nor
//!   GLSL ES has them).
//!
//! ## What this crate never does
//! It knows nothing of GL objects or contexts (the engine owns those) and never panics on
//! shader input: bad GLSL is a failed compile with a log.

#![expect(
    unsafe_code,
    reason = "calls into glslang through the C ABI of the C++ shim (ffi.rs), SPIRV-Tools and SPIRV-Cross (gl_spirv.rs)"
)]

pub mod atomic_counter;
mod buffer_variable;
pub mod default_control;
mod dynamic_index;
mod edit;
mod ffi;
mod fold;
mod frag_coord;
pub mod gl_spirv;
pub mod gltype;
mod interface;
mod late_extensions;
mod layout_qualifiers;
mod link;
pub mod log;
mod num_samples;
mod pixel_center;
mod point_size;
mod rectangle;
mod resource_arrays;
mod shared_io;
mod source;
pub mod spirv;
pub mod stage_set;
mod subroutine;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_aoa;
#[cfg(test)]
mod tests_compute;
#[cfg(test)]
mod tests_gl_rules;
#[cfg(test)]
mod tests_layouts;
#[cfg(test)]
mod tests_tess;
pub mod version;
mod vertex_arrays;
pub mod xfb;

pub use ffi::Limits;
pub use link::MAX_UNIFORM_LOCATIONS;
use rkyv::{Archive, Deserialize, Serialize};
pub use xfb::{Xfb, XfbSource, XfbVarying};

/// Bumped by hand when the front end's output changes meaning with the same types (a
/// change to a link-time pass, a new numbering rule), which [`FRONT_END_FINGERPRINT`]'s hash
/// of the type definitions cannot see.
pub const FRONT_END_VERSION: u32 = 1;

/// Identifies what this front end's links produce: this crate's version, the glslang it was
/// built with, [`FRONT_END_VERSION`] and the source text of the modules that define
/// [`Program`] (so any change to a link result's types changes it). A program binary
/// (`ARB_get_program_binary`) made by a front end of another fingerprint is refused.
pub const FRONT_END_FINGERPRINT: u64 = {
    let mut h = fnv1a(0xcbf2_9ce4_8422_2325, env!("CARGO_PKG_VERSION").as_bytes());
    h = fnv1a(h, env!("TESSERA_GLSLANG_VERSION").as_bytes());
    h = fnv1a(h, &FRONT_END_VERSION.to_le_bytes());
    h = fnv1a(h, include_str!("lib.rs").as_bytes());
    h = fnv1a(h, include_str!("xfb.rs").as_bytes());
    fnv1a(h, include_str!("gltype.rs").as_bytes())
};

/// The glslang version this crate was built with (`major.minor.patch`).
pub const GLSLANG_VERSION: &str = env!("TESSERA_GLSLANG_VERSION");

/// 64-bit FNV-1a of `bytes`, continuing from `hash`.
pub const fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    hash
}

/// A shader stage.
#[derive(
    Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
#[repr(u8)]
pub enum Stage {
    /// Vertex shader.
    Vertex = 0,
    /// Geometry shader.
    Geometry = 1,
    /// Fragment shader.
    Fragment = 2,
    /// Compute shader (GLSL 4.30, or an earlier version with `GL_ARB_compute_shader`): a
    /// program of its own, never linked with the other stages.
    Compute = 3,
    /// Tessellation control shader (GLSL 4.00, or 1.40 to 3.30 with
    /// `GL_ARB_tessellation_shader`).
    TessControl = 4,
    /// Tessellation evaluation shader (as the control shader).
    TessEvaluation = 5,
}

impl Stage {
    /// The stages of a graphics pipeline, in pipeline order (the order of
    /// [`Program::stages`]), then compute.
    pub const PIPELINE_ORDER: [Stage; 6] = [
        Stage::Vertex,
        Stage::TessControl,
        Stage::TessEvaluation,
        Stage::Geometry,
        Stage::Fragment,
        Stage::Compute,
    ];
}

/// The result of compiling one shader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiled {
    /// `COMPILE_STATUS`.
    pub ok: bool,
    /// The info log, as GL reports it (empty when there is nothing to say).
    pub log: String,
}

/// The persistent cache's entries of [`compile`] (`ok` byte, then the log).
const COMPILE_ENTRIES: tessera_cache::Kind = tessera_cache::Kind {
    name: "glsl-compile",
    build: GLSLANG_VERSION,
};

/// The persistent cache's entries of [`link`] (`1` and the archived [`Program`], or `0` and
/// the log of a failed link).
const LINK_ENTRIES: tessera_cache::Kind = tessera_cache::Kind {
    name: "glsl-link",
    build: GLSLANG_VERSION,
};

/// glslang's compiles and links in this process so far: what the persistent cache
/// ([`tessera_cache`]) spares a program's second run.
pub fn glslang_runs() -> u64 {
    ffi::RUNS.load(std::sync::atomic::Ordering::Relaxed)
}

/// Compiles one shader (`glCompileShader`): checks its `#version` (and where its
/// `#extension`s are), then parses it with glslang. Nothing of the compile is kept: linking
/// compiles the sources again. The result is the persistent cache's when it has the same
/// stage, source and limits.
pub fn compile(stage: Stage, source: &str, limits: &Limits) -> Compiled {
    let key = tessera_cache::key(&[
        format!("{stage:?} {limits:?}").as_bytes(),
        source.as_bytes(),
    ]);
    if let Some(entry) = tessera_cache::load(&COMPILE_ENTRIES, &key)
        && let Some((&ok, log)) = entry.split_first()
        && ok <= 1
        && let Ok(log) = String::from_utf8(log.to_vec())
    {
        return Compiled { ok: ok == 1, log };
    }
    let compiled = compile_uncached(stage, source, limits);
    let mut entry = vec![u8::from(compiled.ok)];
    entry.extend_from_slice(compiled.log.as_bytes());
    tessera_cache::store(&COMPILE_ENTRIES, &key, &entry);
    compiled
}

fn compile_uncached(stage: Stage, source: &str, limits: &Limits) -> Compiled {
    if let Err(log) = version::check_stage(stage, source)
        .and_then(|_| source::check_extensions(source))
        .and_then(|_| source::check_legacy_storage(stage, source))
        .and_then(|_| source::check_removed_builtins(source))
        .and_then(|_| source::check_block_names(source))
        .and_then(|_| source::check_declarations(source))
        .and_then(|_| layout_qualifiers::check(source))
        .and_then(|_| layout_qualifiers::check_local_size(stage, source))
        .and_then(|_| source::check_image_formats(source))
        .and_then(|_| atomic_counter::counters(source).map(drop))
        .and_then(|_| subroutine::declared(stage, source).map(drop))
        .and_then(|_| match stage {
            Stage::Geometry => source::check_geometry_input_layout(source),
            _ => Ok(()),
        })
    {
        return Compiled { ok: false, log };
    }
    let (ok, raw) = ffi::compile(stage, source, limits);
    let log = log::from_glslang(&raw);
    if !ok
        && let Some(rest) = source::without_link_errors(source, &log)
        && ffi::compile(stage, &rest, limits).0
    {
        // GL makes these link errors (Mesa reports them there), and the rest of the shader
        // compiles: the compile succeeds, and the link, which parses the shader again,
        // fails with this log. (glslang stops parsing at such an error, so the rest is
        // checked without the layouts that caused them.)
        return Compiled {
            ok: true,
            log: String::new(),
        };
    }
    Compiled { ok, log }
}

/// What `glLinkProgram` links.
#[derive(Clone, Copy, Debug)]
pub struct LinkRequest<'a> {
    /// The attached shaders' compiled sources, with their stages (several per stage are
    /// allowed, as GL allows).
    pub shaders: &'a [(Stage, &'a str)],
    /// `glBindAttribLocation` requests: (name, location); later entries win.
    pub attrib_bindings: &'a [(String, u32)],
    /// `glBindFragDataLocation(Indexed)` requests: (name, colour number, index).
    pub frag_data_bindings: &'a [(String, u32, u32)],
    /// Limits to check against.
    pub limits: Limits,
    /// `glTransformFeedbackVaryings`: the names to capture (none: nothing is captured).
    pub xfb_varyings: &'a [String],
    /// Whether they go to separate buffers (`SEPARATE_ATTRIBS`) or interleaved into one.
    pub xfb_separate: bool,
    /// Whether the program is separable (GL 4.1's `PROGRAM_SEPARABLE`): its stages join
    /// other programs' in a program pipeline, so it may begin after the vertex stage.
    pub separable: bool,
}

/// An active uniform.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Uniform {
    /// The name GL reports (arrays end in `[0]`).
    pub name: String,
    /// GL type enum.
    pub ty: u32,
    /// Array size (1 for non-arrays).
    pub size: i32,
    /// Uniform block index, -1 for the default block and samplers.
    pub block: i32,
    /// Byte offset in its block (for default-block uniforms: in the default block storage;
    /// -1 for samplers).
    pub offset: i32,
    /// Bytes between array elements (0 for non-arrays).
    pub array_stride: i32,
    /// Bytes between matrix columns (rows if row-major), 0 for non-matrices.
    pub matrix_stride: i32,
    /// Whether a matrix is row-major.
    pub row_major: bool,
    /// First location (default-block uniforms and samplers; elements follow), else -1.
    pub location: i32,
    /// First sampler slot of a sampler, first image slot of an image, else -1.
    pub sampler_slot: i32,
    /// Stages referencing it, bit per [`Stage`] (`REFERENCED_BY_*_SHADER`): glslang's live
    /// stages of a default-block uniform or sampler; for a block member, the stages
    /// referencing any element of its block.
    pub stages: u8,
}

/// An active uniform block.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Name (`Name[i]` for elements of a block array).
    pub name: String,
    /// Bytes the block's buffer range must hold.
    pub data_size: u32,
    /// Initial binding point (an explicit `layout(binding)`, else 0).
    pub binding: u32,
    /// Indices of its uniforms.
    pub uniforms: Vec<u32>,
    /// Stages using it, bit per [`Stage`].
    pub stages: u8,
    /// Its element in an array of blocks (0 otherwise).
    pub element: u32,
}

/// An active shader storage block (`GL_SHADER_STORAGE_BLOCK`).
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct StorageBlock {
    /// Name (`Name[i]` for elements of a block array).
    pub name: String,
    /// Initial binding point (an explicit `layout(binding)`, else 0).
    pub binding: u32,
    /// Stages declaring it, bit per [`Stage`].
    pub stages: u8,
    /// Its element in an array of blocks (0 otherwise).
    pub element: u32,
    /// `BUFFER_DATA_SIZE`: the bytes its members take, an unsized array counted with one
    /// element, rounded up to 16.
    pub data_size: u32,
    /// Indices of its buffer variables in [`Program::buffer_variables`].
    pub variables: Vec<u32>,
}

/// An active buffer variable, a member of a shader storage block (`GL_BUFFER_VARIABLE`;
/// `buffer_variable.rs` says how GL lists them).
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct BufferVariable {
    /// The name GL reports (arrays end in `[0]`).
    pub name: String,
    /// GL type enum.
    pub ty: u32,
    /// `ARRAY_SIZE`: elements (1 for non-arrays, 0 for an unsized array).
    pub size: i32,
    /// `BLOCK_INDEX`: its storage block (the first element of a block array).
    pub block: u32,
    /// Byte offset in its block.
    pub offset: i32,
    /// Bytes between array elements (0 for non-arrays).
    pub array_stride: i32,
    /// Bytes between matrix columns (rows if row-major), 0 for non-matrices.
    pub matrix_stride: i32,
    /// Whether a matrix is row-major.
    pub row_major: bool,
    /// `TOP_LEVEL_ARRAY_SIZE`: elements of the block member it is in (1 if that is no
    /// array, 0 if unsized).
    pub top_level_size: i32,
    /// `TOP_LEVEL_ARRAY_STRIDE`: bytes between that member's elements (0 if no array).
    pub top_level_stride: i32,
    /// Stages referencing it, bit per [`Stage`] (those declaring its block).
    pub stages: u8,
}

/// An active atomic counter (GL 4.2; `atomic_counter.rs` says how they are carried out).
/// GL lists it among the active uniforms too, of type `UNSIGNED_INT_ATOMIC_COUNTER`.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct AtomicCounter {
    /// The name GL reports (arrays end in `[0]`).
    pub name: String,
    /// Array size (1 for non-arrays).
    pub size: i32,
    /// `OFFSET` in its buffer.
    pub offset: i32,
    /// `ARRAY_STRIDE`: 4 for arrays, 0 otherwise.
    pub array_stride: i32,
    /// `ATOMIC_COUNTER_BUFFER_INDEX`: its buffer in [`Program::atomic_buffers`].
    pub buffer: u32,
    /// Stages referencing it, bit per [`Stage`].
    pub stages: u8,
}

/// An active atomic counter buffer (`GL_ATOMIC_COUNTER_BUFFER` interface): the counters of
/// one binding point. Its storage slot is the one after the program's storage blocks and
/// the atomic counter buffers before it.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct AtomicBuffer {
    /// `ATOMIC_COUNTER_BUFFER_BINDING`.
    pub binding: u32,
    /// `ATOMIC_COUNTER_BUFFER_DATA_SIZE`: the bytes up to the end of its last counter.
    pub data_size: u32,
    /// Indices of its counters in [`Program::atomic_counters`].
    pub counters: Vec<u32>,
    /// Stages referencing it, bit per [`Stage`].
    pub stages: u8,
}

/// An active vertex attribute or fragment output.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    /// Name.
    pub name: String,
    /// GL type enum.
    pub ty: u32,
    /// Array size.
    pub size: i32,
    /// Location (-1 for built-ins such as `gl_VertexID`).
    pub location: i32,
    /// Fragment output index (0 or 1), 0 for attributes.
    pub index: i32,
    /// The first component of its location (GL 4.4's `component` qualifier; 0 without).
    pub component: i32,
}

/// One sampler slot (one combined image-sampler descriptor).
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sampler {
    /// GL sampler type.
    pub ty: u32,
    /// The texture target it reads.
    pub target: gltype::SamplerTarget,
    /// Initial texture unit (an explicit `layout(binding)`, else 0).
    pub unit: u32,
    /// Its element in a sampler array (0 for a plain sampler and an array's first slot).
    pub element: u32,
}

/// One image slot (one storage image descriptor): an image uniform
/// (`GL_ARB_shader_image_load_store`) or an element of an image array.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Image {
    /// GL image type (`IMAGE_2D`, `UNSIGNED_INT_IMAGE_2D_ARRAY`, ...).
    pub ty: u32,
    /// The texture target it reads and writes.
    pub target: gltype::SamplerTarget,
    /// Initial image unit (an explicit `layout(binding)`, else 0).
    pub unit: u32,
    /// Its element in an image array (0 for a plain image and an array's first slot).
    pub element: u32,
}

/// Geometry shader parameters.
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// `GEOMETRY_VERTICES_OUT`.
    pub vertices_out: i32,
    /// `GEOMETRY_INPUT_TYPE` (a primitive enum).
    pub input: u32,
    /// `GEOMETRY_OUTPUT_TYPE`.
    pub output: u32,
    /// `GEOMETRY_SHADER_INVOCATIONS` (GLSL 4.00's `invocations`; 1 when undeclared).
    pub invocations: i32,
}

/// What a program's tessellation evaluation stage generates (`TESS_GEN_*`).
#[derive(Archive, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TessGen {
    /// `TESS_GEN_MODE`: `TRIANGLES`, `QUADS` or `ISOLINES`.
    pub mode: u32,
    /// `TESS_GEN_SPACING`: `EQUAL`, `FRACTIONAL_ODD` or `FRACTIONAL_EVEN` (`EQUAL` when
    /// the shader names none).
    pub spacing: u32,
    /// `TESS_GEN_VERTEX_ORDER`: `CCW` or `CW` (`CCW` when the shader names none).
    pub vertex_order: u32,
    /// `TESS_GEN_POINT_MODE`.
    pub point_mode: bool,
}

/// A subroutine function of a stage (`GL_*_SUBROUTINE`).
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct SubroutineFunction {
    /// Its name.
    pub name: String,
    /// Its index (`glGetSubroutineIndex`; the selector's value that calls it).
    pub index: u32,
    /// Its subroutine types, as indices among the stage's types.
    pub types: Vec<u32>,
}

/// A subroutine uniform of a stage (`GL_*_SUBROUTINE_UNIFORM`).
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct SubroutineUniform {
    /// Its name (no `[0]`).
    pub name: String,
    /// Whether it is an array (GL names it with `[0]`).
    pub array: bool,
    /// Its subroutine type, an index among the stage's types.
    pub ty: u32,
    /// `UNIFORM_SIZE`: array elements (1 for non-arrays).
    pub size: u32,
    /// Its first location (`glGetSubroutineUniformLocation`); elements follow.
    pub location: u32,
    /// Where its selector (a `uint` per element) is in the default block, if the block
    /// has it, and the bytes between elements.
    pub offset: Option<u32>,
    /// Bytes between the selectors of its elements (0 for non-arrays).
    pub stride: u32,
}

/// One stage's subroutines (GL 4.0's `ARB_shader_subroutine`; `subroutine.rs` says how
/// they are carried out): the engine writes each location's selected index into its
/// uniform's selector.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct StageSubroutines {
    /// The stage.
    pub stage: Stage,
    /// Subroutine functions, in declaration order (their positions are GL's resource
    /// indices: `glGetActiveSubroutineName`, `COMPATIBLE_SUBROUTINES`).
    pub functions: Vec<SubroutineFunction>,
    /// Subroutine uniforms, in declaration order.
    pub uniforms: Vec<SubroutineUniform>,
    /// `ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS`: one past the last location.
    pub locations: u32,
}

/// What [`Program::locations`] maps a location of an inactive uniform with an explicit
/// location to: `glUniform*` through it is ignored without an error
/// (`ARB_explicit_uniform_location`'s issue 9, as Mesa does); any other use is an invalid
/// location's.
pub const INACTIVE_LOCATION: (u32, u32) = (u32::MAX, 1);

/// A linked program.
#[derive(Archive, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Active uniforms.
    pub uniforms: Vec<Uniform>,
    /// Location -> (uniform index, array element); `(u32::MAX, 0)` for a location no
    /// uniform takes, [`INACTIVE_LOCATION`] for an inactive uniform's explicit one.
    pub locations: Vec<(u32, u32)>,
    /// Active uniform blocks.
    pub blocks: Vec<Block>,
    /// Active vertex attributes.
    pub attributes: Vec<Variable>,
    /// Locations the active attributes take, bit per location.
    pub attribute_mask: u16,
    /// Active fragment outputs.
    pub outputs: Vec<Variable>,
    /// Bytes of the default uniform block as the backend binds it (0 if none): the
    /// application's uniforms, then a 16-byte hidden slot whose first float is the fixed
    /// point size (`glPointSize`'s value while `PROGRAM_POINT_SIZE` is off, else 0; the
    /// crate docs say how the stages use it). The slot is there whenever the size is not
    /// 0, so its offset is always `default_block_size - 16`. No uniform reaches it, and GL
    /// never reports it.
    pub default_block_size: u32,
    /// The default block's initial contents, `default_block_size` bytes: the values of
    /// uniforms declared with initializers, zeros elsewhere.
    pub default_block: Vec<u8>,
    /// Where `gl_DepthRange` (`near`, `far`, `diff`: three floats) lives in the default
    /// block, if a stage reads it: the engine writes `glDepthRange`'s values there. No
    /// uniform reaches it, and GL never reports it.
    pub depth_range_offset: Option<u32>,
    /// Where `gl_NumSamples` (an `int`) lives in the default block, if a stage reads it: the
    /// engine writes the draw framebuffer's sample count there (`num_samples.rs`). The
    /// uniforms list it as Mesa does (`gl_NumSamples`, no location); no location reaches it.
    pub num_samples_offset: Option<u32>,
    /// Sampler slots.
    pub samplers: Vec<Sampler>,
    /// Image slots.
    pub images: Vec<Image>,
    /// Active shader storage blocks, in block-index order.
    pub storage_blocks: Vec<StorageBlock>,
    /// Active buffer variables (members of storage blocks), block by block.
    pub buffer_variables: Vec<BufferVariable>,
    /// Active atomic counters, in name order within each buffer, buffer by buffer.
    pub atomic_counters: Vec<AtomicCounter>,
    /// Active atomic counter buffers, in binding order; their storage slots follow the
    /// storage blocks'.
    pub atomic_buffers: Vec<AtomicBuffer>,
    /// `COMPUTE_WORK_GROUP_SIZE` of a compute program (its shader's `local_size_x/y/z`).
    pub local_size: Option<[u32; 3]>,
    /// SPIR-V words of each linked stage, in pipeline order.
    pub stages: Vec<(Stage, Vec<u32>)>,
    /// Geometry shader parameters, if the program has one.
    pub geometry: Option<Geometry>,
    /// `TESS_CONTROL_OUTPUT_VERTICES`, if the program has a tessellation control stage.
    pub tess_control_vertices: Option<i32>,
    /// What the tessellation evaluation stage generates, if the program has one.
    pub tess_gen: Option<TessGen>,
    /// What transform feedback captures (see [`xfb`]); empty when nothing was requested.
    pub xfb: Xfb,
    /// Each stage's subroutines, for the stages that have some, in pipeline order.
    pub subroutines: Vec<StageSubroutines>,
    /// The link log (warnings; empty if none).
    pub log: String,
}

/// Links a program (`glLinkProgram`); `Err` is the info log of a failed link.
///
/// The result is the persistent cache's when every field of the request is the same.
pub fn link(req: &LinkRequest<'_>) -> Result<Program, String> {
    use rkyv::rancor;
    let key = tessera_cache::key(&[format!("{req:?}").as_bytes()]);
    if let Some(entry) = tessera_cache::load(&LINK_ENTRIES, &key)
        && let Some((&tag, rest)) = entry.split_first()
    {
        match tag {
            1 => {
                // rkyv reads from aligned memory.
                let mut aligned = rkyv::util::AlignedVec::<16>::with_capacity(rest.len());
                aligned.extend_from_slice(rest);
                if let Ok(program) = rkyv::from_bytes::<Program, rancor::Error>(&aligned) {
                    return Ok(program);
                }
            }
            0 => {
                if let Ok(log) = String::from_utf8(rest.to_vec()) {
                    return Err(log);
                }
            }
            _ => {}
        }
    }
    let linked = link::link(req);
    let entry = match &linked {
        Ok(program) => rkyv::to_bytes::<rancor::Error>(program)
            .ok()
            .map(|bytes| [&[1u8][..], &bytes].concat()),
        Err(log) => Some([&[0u8][..], log.as_bytes()].concat()),
    };
    if let Some(entry) = entry {
        tessera_cache::store(&LINK_ENTRIES, &key, &entry);
    }
    linked
}
