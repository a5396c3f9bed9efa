//! Programs (`ProgramPipe`): SPIR-V from the record, translated to GLSL ES by SPIRV-Cross,
//! linked natively, and cached by the hash of the code so that relinking identical code
//! reuses the native program.
//!
//! SPIRV-Cross comes from the system's `libspirv-cross-c-shared` (the C API), loaded by path
//! with libloading; only the functions used here are declared.
//!
//! ## Binding contract
//! The engine's SPIR-V uses descriptor set 0: binding 0 is the default uniform block (std140,
//! filled by `SetUniforms`), bindings `1..=S` are the program's `S` combined image-samplers
//! (sampler slot `s` at binding `s + 1`, bound by `BindTexture { slot: s }`), and the uniform
//! blocks follow (block slot `i` at binding `S + 1 + i`, bound by `BindUniformBuffer { slot:
//! i }`). Natively, sampler slot `s` reads texture unit `s`, the default block reads uniform
//! buffer binding 0 (unless it became plain uniforms: [`PlainUniforms`]) and block slot `i`
//! reads binding `1 + i`.
//!
//! Each resource's binding decoration is rewritten to its native binding before translation
//! (so GLSL ES 3.10's `layout(binding)` is already right), and resources are renamed by stage
//! and binding (`ts_f_s0`, `ts_v_ubo3`): after linking, the backend sets every sampler's unit
//! with `glUniform1i` and every block's binding with `glUniformBlockBinding` by those names,
//! which is what GLSL ES 3.00 (no `layout(binding)`) needs. Blocks get per-stage names because
//! stages may declare different members of the default block, which GLSL ES forbids for one
//! block name. Stage interface variables are renamed by location (`ts_io3`), since GLSL ES
//! 3.00 matches varyings by name.
//!
//! Before translation, stages that sample get the uniform `ts_lod_bias` (`spirv.rs`); its
//! location is kept with the native program, and `command.rs` sets it from the bound
//! samplers' `lod_bias` when textures are bound.
//!
//! GLES has no `POINT_SPRITE_COORD_ORIGIN`: its `gl_PointCoord` runs from the upper left,
//! GL's default. A fragment stage that reads it reads `vec2(x, abs(ts_point_origin - y))`
//! instead, from the uniform `ts_point_origin` ([`POINT_ORIGIN`]): 0 for `UPPER_LEFT`, 1 for
//! `LOWER_LEFT`, which `command.rs` sets from the raster state before a draw.
//!
//! ## GLSL ES differences the translation covers
//! - Programs with a geometry stage, or whose fragment stage reads `gl_PrimitiveID` (which GL
//!   defines with or without a geometry stage), are GLSL ES 3.20; others 3.10 (3.00 on an
//!   ES 3.0 driver).
//! - A stage naming `gl_ClipDistance` or `gl_CullDistance` enables
//!   `GL_EXT_clip_cull_distance`, which SPIRV-Cross does not.
//! - A vertex stage feeding a geometry stage redeclares its `gl_PerVertex` output with its
//!   clip distances, and the geometry stage redeclares `gl_in` the same way: GLSL ES leaves
//!   `gl_in[].gl_ClipDistance` unsized otherwise (constant indices only, no whole copies),
//!   and the native linker matches the two block declarations member by member.
//! - `invariant` is dropped from inputs, which GLSL ES refuses and GL ignores.
//! - Interface blocks between stages lose their location and match the other stage's by
//!   block name: GLSL ES refuses a location on an array of blocks, and the driver packs
//!   only unlocated varyings (a block of 64 floats needs 16 locations packed, 64 not).
//!
//! Nothing is flipped: GL and GLES share the lower-left origin and the -1..1 depth range.
//!
//! ## The persistent cache
//! Each stage's translation is kept in Tessera's persistent cache ([`tessera_cache`]), keyed
//! by the SPIR-V translated, everything else it depends on ([`StageJob`]) and the
//! SPIRV-Cross library loaded; and where the driver has program binary formats
//! (`GL_NUM_PROGRAM_BINARY_FORMATS` > 0), each native program's `glGetProgramBinary` is
//! kept too, keyed by the translated sources and the driver's `GL_VENDOR`, `GL_RENDERER`
//! and `GL_VERSION`. A binary the driver refuses (another build of it) is compiled again
//! and replaced.

use std::collections::HashMap;
use std::ffi::{CStr, CString, c_char, c_void};

use glow::HasContext;
use libloading::os::unix::Library;
use tessera_wire::backend::bad_value;
use tessera_wire::dispatch::{ProgramPipe, R};
use tessera_wire::format::ShaderStage;
use tessera_wire::handle::ProgramHandle;
use tessera_wire::record::ProgramDesc;
use tessera_wire::state::{MAX_TEXTURE_UNITS, MAX_VERTEX_ATTRIBS};
use tessera_wire::{Event, Stage};

use crate::CreateBackendError;
use crate::command::dirty;
use crate::conv;
use crate::device::GlesPipe;
use crate::egl::{library_candidates, sym};
use crate::shadow::AttribClass;

const SPIRV_CROSS_PATHS: &[&str] = &[
    "/usr/lib/x86_64-linux-gnu/libspirv-cross-c-shared.so.0",
    "/usr/lib/aarch64-linux-gnu/libspirv-cross-c-shared.so.0",
    "/usr/lib/arm-linux-gnueabihf/libspirv-cross-c-shared.so.0",
    "/usr/lib/riscv64-linux-gnu/libspirv-cross-c-shared.so.0",
    "/usr/lib64/libspirv-cross-c-shared.so.0",
    "/usr/lib/libspirv-cross-c-shared.so.0",
    "/usr/local/lib/libspirv-cross-c-shared.so.0",
];

type Ctx = *mut c_void;
type Ir = *mut c_void;
type Compiler = *mut c_void;
type Options = *mut c_void;
type Resources = *mut c_void;
type Type = *const c_void;

/// `spvc_reflected_resource`.
#[repr(C)]
struct Reflected {
    id: u32,
    base_type_id: u32,
    type_id: u32,
    name: *const c_char,
}

// spirv_cross_c.h enums (C API 0.x; stable across versions).
const BACKEND_GLSL: u32 = 1;
const CAPTURE_TAKE_OWNERSHIP: u32 = 1;
const RESOURCE_UNIFORM_BUFFER: u32 = 1;
const RESOURCE_STORAGE_BUFFER: u32 = 2;
const RESOURCE_STAGE_INPUT: u32 = 3;
const RESOURCE_STAGE_OUTPUT: u32 = 4;
const RESOURCE_STORAGE_IMAGE: u32 = 6;
const RESOURCE_SAMPLED_IMAGE: u32 = 7;
const COMMON: u32 = 0x100_0000;
const GLSL: u32 = 0x200_0000;
const OPT_FIXUP_DEPTH: u32 = 3 | COMMON;
const OPT_FLIP_Y: u32 = 4 | COMMON;
const OPT_BASE_INSTANCE: u32 = 5 | GLSL;
const OPT_SEPARATE_SHADERS: u32 = 6 | GLSL;
const OPT_420PACK: u32 = 7 | GLSL;
const OPT_VERSION: u32 = 8 | GLSL;
const OPT_ES: u32 = 9 | GLSL;
const OPT_VULKAN: u32 = 10 | GLSL;
const OPT_FLOAT_HIGHP: u32 = 11 | GLSL;
const OPT_INT_HIGHP: u32 = 12 | GLSL;
const OPT_FORCE_FLATTENED_IO_BLOCKS: u32 = 66 | GLSL;
const BASETYPE_INT32: u32 = 7;
const BASETYPE_UINT32: u32 = 8;
// SPIR-V decorations.
const DECORATION_BLOCK: u32 = 2;
const DECORATION_INVARIANT: u32 = 18;
const DECORATION_LOCATION: u32 = 30;
const DECORATION_BINDING: u32 = 33;

/// The SPIRV-Cross C entry points used here.
struct SpvcFns {
    context_create: unsafe extern "C" fn(*mut Ctx) -> i32,
    context_destroy: unsafe extern "C" fn(Ctx),
    last_error: unsafe extern "C" fn(Ctx) -> *const c_char,
    parse_spirv: unsafe extern "C" fn(Ctx, *const u32, usize, *mut Ir) -> i32,
    create_compiler: unsafe extern "C" fn(Ctx, u32, Ir, u32, *mut Compiler) -> i32,
    create_options: unsafe extern "C" fn(Compiler, *mut Options) -> i32,
    options_set_bool: unsafe extern "C" fn(Options, u32, u8) -> i32,
    options_set_uint: unsafe extern "C" fn(Options, u32, u32) -> i32,
    install_options: unsafe extern "C" fn(Compiler, Options) -> i32,
    compile: unsafe extern "C" fn(Compiler, *mut *const c_char) -> i32,
    create_resources: unsafe extern "C" fn(Compiler, *mut Resources) -> i32,
    resource_list: unsafe extern "C" fn(Resources, u32, *mut *const Reflected, *mut usize) -> i32,
    get_decoration: unsafe extern "C" fn(Compiler, u32, u32) -> u32,
    set_decoration: unsafe extern "C" fn(Compiler, u32, u32, u32),
    unset_decoration: unsafe extern "C" fn(Compiler, u32, u32),
    set_name: unsafe extern "C" fn(Compiler, u32, *const c_char),
    type_handle: unsafe extern "C" fn(Compiler, u32) -> Type,
    type_basetype: unsafe extern "C" fn(Type) -> u32,
    type_array_dims: unsafe extern "C" fn(Type) -> u32,
    type_array_dim: unsafe extern "C" fn(Type, u32) -> u32,
    type_array_dim_is_literal: unsafe extern "C" fn(Type, u32) -> u8,
    type_columns: unsafe extern "C" fn(Type) -> u32,
    type_bit_width: unsafe extern "C" fn(Type) -> u32,
    require_extension: unsafe extern "C" fn(Compiler, *const c_char) -> i32,
    flatten_buffer_block: unsafe extern "C" fn(Compiler, u32) -> i32,
}

/// The loaded SPIRV-Cross library.
pub(crate) struct SpirvCross {
    fns: SpvcFns,
    /// The library's path, size and modification time: part of every cached translation's
    /// key, so another SPIRV-Cross never reads this one's.
    identity: String,
    // Declared after `fns`: the pointers stay valid while this is loaded.
    _lib: Library,
}

impl SpirvCross {
    /// Loads `libspirv-cross-c-shared.so.0` (or `TESSERA_SPIRV_CROSS`) by path.
    pub fn load() -> Result<Self, CreateBackendError> {
        let candidates = library_candidates("TESSERA_SPIRV_CROSS", SPIRV_CROSS_PATHS);
        let mut last = String::from("not found in the standard library directories");
        for path in candidates.iter().filter(|p| p.exists()) {
            match crate::egl::open_local(path) {
                Ok(lib) => {
                    let fns = SpvcFns {
                        context_create: sym(&lib, path, "spvc_context_create")?,
                        context_destroy: sym(&lib, path, "spvc_context_destroy")?,
                        last_error: sym(&lib, path, "spvc_context_get_last_error_string")?,
                        parse_spirv: sym(&lib, path, "spvc_context_parse_spirv")?,
                        create_compiler: sym(&lib, path, "spvc_context_create_compiler")?,
                        create_options: sym(&lib, path, "spvc_compiler_create_compiler_options")?,
                        options_set_bool: sym(&lib, path, "spvc_compiler_options_set_bool")?,
                        options_set_uint: sym(&lib, path, "spvc_compiler_options_set_uint")?,
                        install_options: sym(&lib, path, "spvc_compiler_install_compiler_options")?,
                        compile: sym(&lib, path, "spvc_compiler_compile")?,
                        create_resources: sym(&lib, path, "spvc_compiler_create_shader_resources")?,
                        resource_list: sym(
                            &lib,
                            path,
                            "spvc_resources_get_resource_list_for_type",
                        )?,
                        get_decoration: sym(&lib, path, "spvc_compiler_get_decoration")?,
                        set_decoration: sym(&lib, path, "spvc_compiler_set_decoration")?,
                        unset_decoration: sym(&lib, path, "spvc_compiler_unset_decoration")?,
                        set_name: sym(&lib, path, "spvc_compiler_set_name")?,
                        type_handle: sym(&lib, path, "spvc_compiler_get_type_handle")?,
                        type_basetype: sym(&lib, path, "spvc_type_get_basetype")?,
                        type_array_dims: sym(&lib, path, "spvc_type_get_num_array_dimensions")?,
                        type_array_dim: sym(&lib, path, "spvc_type_get_array_dimension")?,
                        type_array_dim_is_literal: sym(
                            &lib,
                            path,
                            "spvc_type_array_dimension_is_literal",
                        )?,
                        type_columns: sym(&lib, path, "spvc_type_get_columns")?,
                        type_bit_width: sym(&lib, path, "spvc_type_get_bit_width")?,
                        require_extension: sym(&lib, path, "spvc_compiler_require_extension")?,
                        flatten_buffer_block: sym(
                            &lib,
                            path,
                            "spvc_compiler_flatten_buffer_block",
                        )?,
                    };
                    let identity = std::fs::metadata(path).map_or_else(
                        |_| path.display().to_string(),
                        |m| {
                            let modified = m
                                .modified()
                                .ok()
                                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                                .unwrap_or_default();
                            format!("{} {} {modified:?}", path.display(), m.len())
                        },
                    );
                    return Ok(Self {
                        fns,
                        identity,
                        _lib: lib,
                    });
                }
                Err(e) => last = format!("{}: {e}", path.display()),
            }
        }
        Err(CreateBackendError::LoadSpirvCross { reason: last })
    }

    /// [`Self::translate`], through the persistent cache.
    fn translate_cached(&self, words: &[u32], job: &StageJob) -> Result<Translated, String> {
        let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let key = tessera_cache::key(&[
            self.identity.as_bytes(),
            format!("{job:?}").as_bytes(),
            &code,
        ]);
        if let Some(entry) = tessera_cache::load(&ESSL_ENTRIES, &key)
            && let Some(t) = Translated::decode(&entry)
        {
            return Ok(t);
        }
        tessera_cache::note(tessera_cache::Work::Translation);
        let t = self.translate(words, job)?;
        tessera_cache::store(&ESSL_ENTRIES, &key, &t.encode());
        Ok(t)
    }

    /// Translates one stage. Returns the GLSL ES source and what it declares.
    ///
    /// With `job.plain_default`, the default uniform block is first tried as a plain
    /// uniform array (SPIRV-Cross's flattened buffer block), which SPIRV-Cross refuses for a
    /// block whose members mix floats and integers: that stage is translated again with the
    /// block kept a uniform block.
    fn translate(&self, words: &[u32], job: &StageJob) -> Result<Translated, String> {
        if job.plain_default {
            if let Ok(t) = self.translate_once(words, job) {
                return Ok(t);
            }
            let job = StageJob {
                plain_default: false,
                vertex_clip_distances: job.vertex_clip_distances.clone(),
                ..*job
            };
            return self.translate_once(words, &job);
        }
        self.translate_once(words, job)
    }

    fn translate_once(&self, words: &[u32], job: &StageJob) -> Result<Translated, String> {
        let f = &self.fns;
        let mut ctx: Ctx = std::ptr::null_mut();
        // SAFETY: an out-pointer to a local.
        if unsafe { (f.context_create)(&mut ctx) } != 0 || ctx.is_null() {
            return Err("spvc_context_create failed".to_owned());
        }
        let guard = CtxGuard { f, ctx };
        let result = self.translate_in(guard.ctx, words, job);
        drop(guard);
        result
    }

    fn translate_in(&self, ctx: Ctx, words: &[u32], job: &StageJob) -> Result<Translated, String> {
        let f = &self.fns;
        let error = || {
            // SAFETY: `ctx` is live; the string is owned by it and copied before it dies.
            let s = unsafe { (f.last_error)(ctx) };
            if s.is_null() {
                "SPIRV-Cross failed".to_owned()
            } else {
                // SAFETY: non-null NUL-terminated string owned by the context.
                unsafe { CStr::from_ptr(s) }.to_string_lossy().into_owned()
            }
        };
        let mut ir: Ir = std::ptr::null_mut();
        let mut compiler: Compiler = std::ptr::null_mut();
        let mut options: Options = std::ptr::null_mut();
        let mut resources: Resources = std::ptr::null_mut();
        // SAFETY: `ctx` is live; `words` is a valid slice of its length; out-pointers are
        // locals; every handle passed on was returned by the previous successful call, and
        // all of them are owned by `ctx` (freed with it).
        unsafe {
            if (f.parse_spirv)(ctx, words.as_ptr(), words.len(), &mut ir) != 0
                || (f.create_compiler)(ctx, BACKEND_GLSL, ir, CAPTURE_TAKE_OWNERSHIP, &mut compiler)
                    != 0
                || (f.create_options)(compiler, &mut options) != 0
            {
                return Err(error());
            }
            (f.options_set_uint)(options, OPT_VERSION, job.version);
            for (opt, value) in [
                (OPT_ES, true),
                (OPT_VULKAN, false),
                (OPT_FLOAT_HIGHP, true),
                (OPT_INT_HIGHP, true),
                (OPT_BASE_INSTANCE, false),
                (OPT_SEPARATE_SHADERS, false),
                (OPT_420PACK, false),
                (OPT_FIXUP_DEPTH, false),
                (OPT_FLIP_Y, false),
                (OPT_FORCE_FLATTENED_IO_BLOCKS, job.flatten_io),
            ] {
                (f.options_set_bool)(options, opt, u8::from(value));
            }
            if (f.install_options)(compiler, options) != 0
                || (f.create_resources)(compiler, &mut resources) != 0
            {
                return Err(error());
            }
            // Geometry stages write gl_PointSize (the front end's point-size pass), which
            // GLSL ES allows with an extension only.
            if let (ShaderStage::Geometry, Some(ext)) = (job.stage, job.point_size_extension) {
                let name = CString::new(ext).unwrap_or_default();
                (f.require_extension)(compiler, name.as_ptr());
            }
            // So do the tessellation stages (the evaluation stage writes it, and a control
            // stage may pass it on), which GLSL ES 3.10 has with an extension only.
            if matches!(
                job.stage,
                ShaderStage::TessControl | ShaderStage::TessEvaluation
            ) {
                let (stages, point_size) = job.tessellation_extensions;
                for ext in [stages.filter(|e| !e.is_empty()), point_size]
                    .into_iter()
                    .flatten()
                {
                    let name = CString::new(ext).unwrap_or_default();
                    (f.require_extension)(compiler, name.as_ptr());
                }
            }
        }
        let list = |kind: u32| -> &[Reflected] {
            let mut p: *const Reflected = std::ptr::null();
            let mut n = 0usize;
            // SAFETY: `resources` is live; out-pointers are locals; on success the list has
            // `n` entries owned by `ctx`, which outlives every use in this function.
            let ok = unsafe { (f.resource_list)(resources, kind, &mut p, &mut n) } == 0;
            if !ok || p.is_null() || n == 0 {
                return &[];
            }
            // SAFETY: as above: `n` valid, initialised entries.
            unsafe { std::slice::from_raw_parts(p, n) }
        };
        let set_name = |id: u32, name: &str| {
            let c = CString::new(name).unwrap_or_default();
            // SAFETY: `compiler` and `id` are live; SPIRV-Cross copies the string.
            unsafe { (f.set_name)(compiler, id, c.as_ptr()) };
        };
        let decoration = |id: u32, d: u32| {
            // SAFETY: `compiler` is live and `id` is a variable it reflected.
            unsafe { (f.get_decoration)(compiler, id, d) }
        };
        let set_binding = |id: u32, binding: u32| {
            // SAFETY: as for `decoration`.
            unsafe { (f.set_decoration)(compiler, id, DECORATION_BINDING, binding) };
        };
        // Interface blocks between stages lose their location and match the other stage's
        // by block name, as GL matches them, and the driver places them: GLSL ES refuses a
        // location on an array of blocks (its members would take the consecutive ones), and
        // a located block is never packed, so one with many scalars (an array of floats
        // takes a location each) runs past the native locations where GL packs it into few.
        let unlocate_block = |r: &Reflected| {
            // SAFETY: `compiler` is live; `base_type_id` is the reflected variable's type.
            unsafe {
                if (f.get_decoration)(compiler, r.base_type_id, DECORATION_BLOCK) != 0 {
                    (f.unset_decoration)(compiler, r.id, DECORATION_LOCATION);
                }
            }
        };
        let tag = job.tag;
        let mut out = Translated::default();
        let array_len = |type_id: u32| {
            // SAFETY: `compiler` is live and `type_id` is a reflected variable's type.
            unsafe {
                let ty = (f.type_handle)(compiler, type_id);
                if (f.type_array_dims)(ty) > 0 {
                    (f.type_array_dim)(ty, 0).max(1)
                } else {
                    1
                }
            }
        };
        // Storage blocks have native bindings of their own (GLSL ES 3.10 says them with
        // layout(binding), which is the only way ES sets them): slot `k` is binding `k`.
        // Bindings past the program's blocks belong to variables no code uses.
        for r in list(RESOURCE_STORAGE_BUFFER) {
            let binding = decoration(r.id, DECORATION_BINDING);
            let native = match binding.checked_sub(1 + job.samplers + job.blocks) {
                Some(k) if k < job.storage => k,
                _ => 0,
            };
            set_binding(r.id, native);
        }
        // Image slot `i` is native image unit `i` (GLSL ES 3.10's layout(binding) is the only
        // way ES sets it); variables past the slots, which no code uses, go to unit 0.
        for r in list(RESOURCE_STORAGE_IMAGE) {
            let binding = decoration(r.id, DECORATION_BINDING);
            let unit = binding.saturating_sub(1 + job.samplers + job.blocks + job.storage);
            set_binding(r.id, unit);
            set_name(r.id, &format!("ts_{tag}_img{binding}"));
        }
        for r in list(RESOURCE_UNIFORM_BUFFER) {
            let binding = decoration(r.id, DECORATION_BINDING);
            if binding == 0 && job.plain_default {
                // The default block as `uniform vec4 ts_<stage>_ubo0[n]` (or ivec4, uvec4:
                // one type for all members, else the compile fails and `translate` retries
                // without), its bytes std140's: element `i` holds bytes `16 i..16 i + 16`.
                let name = format!("ts_{tag}_ubo0");
                set_name(r.base_type_id, &name);
                // SAFETY: `compiler` is live and `r.id` is a uniform block it reflected.
                if unsafe { (f.flatten_buffer_block)(compiler, r.id) } != 0 {
                    return Err(error());
                }
                out.plain = Some(name);
                continue;
            }
            if binding == 0 {
                out.default_block = true;
            }
            // Bindings past the program's blocks belong to variables no code uses: park
            // them on binding 0, where they harm nothing.
            let native = match binding.checked_sub(1 + job.samplers) {
                Some(b) if binding != 0 && b < job.blocks => 1 + b,
                _ => 0,
            };
            set_binding(r.id, native);
            let name = format!("ts_{tag}_ubo{binding}");
            set_name(r.base_type_id, &name);
            let count = array_len(r.type_id);
            if count > 1 {
                for i in 0..count {
                    out.blocks.push((format!("{name}[{i}]"), native + i));
                }
            } else {
                out.blocks.push((name, native));
            }
        }
        for r in list(RESOURCE_SAMPLED_IMAGE) {
            let binding = decoration(r.id, DECORATION_BINDING);
            // Slot `s` reads unit `s`; an unused variable past the slots goes to unit 0.
            let unit = binding
                .checked_sub(1)
                .filter(|u| *u < job.samplers)
                .unwrap_or(0);
            set_binding(r.id, unit);
            let count = array_len(r.type_id);
            let name = format!("ts_{tag}_s{binding}");
            set_name(r.id, &name);
            out.samplers.push((name, unit, count));
        }
        if job.stage != ShaderStage::Vertex {
            // Inputs of the stages between (GLSL ES 3.20 ones, whose interfaces match by
            // location) take names of their own, so their outputs keep `ts_io<location>`,
            // the name transform feedback captures them by (xfb.rs).
            let prefix = match job.stage {
                ShaderStage::Fragment => "ts_io",
                _ => "ts_in",
            };
            for r in list(RESOURCE_STAGE_INPUT) {
                set_name(
                    r.id,
                    &format!("{prefix}{}", decoration(r.id, DECORATION_LOCATION)),
                );
                // GLSL ES refuses `invariant` on inputs; GL ignores it there (only outputs'
                // invariance means anything), so dropping it changes nothing.
                // SAFETY: `compiler` is live and `r.id` is a variable it reflected.
                unsafe { (f.unset_decoration)(compiler, r.id, DECORATION_INVARIANT) };
                unlocate_block(r);
            }
        } else {
            for r in list(RESOURCE_STAGE_INPUT) {
                let location = decoration(r.id, DECORATION_LOCATION) as usize;
                // SAFETY: `compiler` is live and `base_type_id` is the variable's base type.
                let base = unsafe { (f.type_basetype)((f.type_handle)(compiler, r.base_type_id)) };
                let class = match base {
                    BASETYPE_INT32 => AttribClass::Int,
                    BASETYPE_UINT32 => AttribClass::Uint,
                    _ => AttribClass::Float,
                };
                if let Some(slot) = out.inputs.classes.get_mut(location) {
                    *slot = class;
                }
                out.inputs.reads |= location_mask(location, input_locations(f, compiler, r));
            }
        }
        if job.stage != ShaderStage::Fragment {
            for r in list(RESOURCE_STAGE_OUTPUT) {
                set_name(
                    r.id,
                    &format!("ts_io{}", decoration(r.id, DECORATION_LOCATION)),
                );
                unlocate_block(r);
            }
        }
        let mut source: *const c_char = std::ptr::null();
        // SAFETY: `compiler` is live; on success `source` points to a NUL-terminated string
        // owned by `ctx`, copied below before `ctx` is destroyed.
        if unsafe { (f.compile)(compiler, &mut source) } != 0 || source.is_null() {
            return Err(error());
        }
        // SAFETY: as above.
        out.source = unsafe { CStr::from_ptr(source) }
            .to_string_lossy()
            .into_owned();
        if job.stage == ShaderStage::Fragment {
            lower_point_coord(&mut out.source);
        }
        // SPIRV-Cross (as Debian ships it) has no GLSL name for the tessellation stages'
        // `PatchVertices` built-in and writes its fallback, which is no GLSL ES name.
        if matches!(
            job.stage,
            ShaderStage::TessControl | ShaderStage::TessEvaluation
        ) {
            out.source = out.source.replace("gl_BuiltIn_14", "gl_PatchVerticesIn");
        }
        // GLSL ES names gl_ViewportIndex only with OES_viewport_array enabled, which
        // SPIRV-Cross does not enable; it goes right after `#version` (a driver without the
        // extension refuses the stage, as it would refuse the built-in).
        if out.source.contains("gl_ViewportIndex") && !out.source.contains("GL_OES_viewport_array")
        {
            let at = out.source.find('\n').map_or(out.source.len(), |i| i + 1);
            out.source
                .insert_str(at, "#extension GL_OES_viewport_array : require\n");
        }
        // SPIRV-Cross names the clip and cull distances (and redeclares their arrays) without
        // enabling the extension GLSL ES declares them in; it goes right after `#version`.
        // A geometry stage after a vertex stage that redeclared its block redeclares gl_in
        // (below) whether or not it reads the distances.
        let gl_in_redeclared = job.stage == ShaderStage::Geometry
            && job.vertex_clip_distances.is_some()
            && job.point_size_extension.is_some();
        if job.clip_distance_extension
            && (gl_in_redeclared
                || out.source.contains("gl_ClipDistance")
                || out.source.contains("gl_CullDistance"))
        {
            let at = out.source.find('\n').map_or(out.source.len(), |i| i + 1);
            out.source
                .insert_str(at, "#extension GL_EXT_clip_cull_distance : require\n");
            // The native linker matches a redeclared gl_PerVertex member by member with
            // the other stage's, so a vertex stage feeding a geometry stage (GLSL ES 3.20)
            // redeclares its output block, and the geometry stage then its gl_in the same.
            if job.point_size_extension.is_some() {
                match (job.stage, &job.vertex_clip_distances) {
                    (ShaderStage::Vertex, _) if job.version >= 320 => {
                        out.clip_distances = redeclare_vertex_output(&mut out.source);
                    }
                    (ShaderStage::Geometry, Some(size)) => redeclare_gl_in(&mut out.source, size),
                    _ => {}
                }
            }
        }
        Ok(out)
    }
}

/// GLSL ES leaves `gl_in[].gl_ClipDistance` unsized unless the shader redeclares `gl_in`, and
/// an unsized array can only be indexed with constants and never copied whole; SPIRV-Cross
/// reads it both ways without redeclaring. So the block is redeclared after the input
/// layout, its clip distances sized as the vertex stage's output block declares them.
fn redeclare_gl_in(source: &mut String, size: &str) {
    let mut start = 0;
    let mut at = None;
    for line in source.split_inclusive('\n') {
        start += line.len();
        let line = line.trim_end();
        if line.starts_with("layout(") && line.ends_with(") in;") {
            at = Some(start);
            break;
        }
    }
    let Some(at) = at else {
        return;
    };
    // (gl_PointSize of gl_in exists with the point size extension, which callers check.)
    let block = format!(
        "in gl_PerVertex\n{{\n    highp vec4 gl_Position;\n    highp float gl_PointSize;\n    highp float gl_ClipDistance{size};\n}} gl_in[];\n"
    );
    source.insert_str(at, &block);
}

/// Replaces a vertex stage's redeclared `gl_ClipDistance` array by its whole output block,
/// the same members [`redeclare_gl_in`] gives the geometry stage's input block.
fn redeclare_vertex_output(source: &mut String) -> Option<String> {
    let start = source.find("out float gl_ClipDistance[")?;
    let end = source[start..].find(";").map(|e| start + e + 1)?;
    let size = source[start + "out float gl_ClipDistance".len()..end - 1].to_owned();
    let block = format!(
        "out gl_PerVertex\n{{\n    highp vec4 gl_Position;\n    highp float gl_PointSize;\n    highp float gl_ClipDistance{size};\n}};"
    );
    source.replace_range(start..end, &block);
    Some(size)
}

/// How many attribute locations a vertex input occupies: one per column of a matrix, two
/// per column of 64-bit components (GL gives `dvec3`/`dvec4` two, so this may count one too
/// many, never too few), times the elements of an array. An array whose length is not a
/// literal counts as reaching every location.
fn input_locations(f: &SpvcFns, compiler: Compiler, r: &Reflected) -> u32 {
    // SAFETY: `compiler` is live; `type_id` and `base_type_id` are the reflected variable's
    // types, and array dimensions are read below their count.
    unsafe {
        let base = (f.type_handle)(compiler, r.base_type_id);
        let wide = if (f.type_bit_width)(base) > 32 { 2 } else { 1 };
        let mut n = (f.type_columns)(base).max(1) * wide;
        let ty = (f.type_handle)(compiler, r.type_id);
        for d in 0..(f.type_array_dims)(ty) {
            let len = (f.type_array_dim)(ty, d);
            if (f.type_array_dim_is_literal)(ty, d) == 0 || len == 0 {
                return MAX_VERTEX_ATTRIBS as u32;
            }
            n = n.saturating_mul(len);
        }
        n
    }
}

/// The bits of `count` locations from `location` on, within `MAX_VERTEX_ATTRIBS`.
fn location_mask(location: usize, count: u32) -> u16 {
    let end = location
        .saturating_add(count as usize)
        .min(MAX_VERTEX_ATTRIBS);
    (location..end).fold(0, |m, l| m | 1 << l)
}

/// Destroys a SPIRV-Cross context (and everything it owns) on every path.
struct CtxGuard<'a> {
    f: &'a SpvcFns,
    ctx: Ctx,
}

impl Drop for CtxGuard<'_> {
    fn drop(&mut self) {
        // SAFETY: the context was created by spvc_context_create and is destroyed once.
        unsafe { (self.f.context_destroy)(self.ctx) };
    }
}

/// What one stage translation needs to know.
#[derive(Debug)]
struct StageJob {
    stage: ShaderStage,
    /// The extension a geometry stage needs to write `gl_PointSize`, if the driver has one.
    point_size_extension: Option<&'static str>,
    /// The extension GLSL ES below 3.20 needs for the tessellation stages (empty on ES
    /// 3.2), and the one that lets them write `gl_PointSize`, if the driver has them.
    tessellation_extensions: (Option<&'static str>, Option<&'static str>),
    /// Whether the driver has `GL_EXT_clip_cull_distance`, which GLSL ES needs to name
    /// `gl_ClipDistance` and `gl_CullDistance`.
    clip_distance_extension: bool,
    /// For a geometry stage: the size of the vertex stage's redeclared clip distances.
    vertex_clip_distances: Option<String>,
    tag: char,
    version: u32,
    samplers: u32,
    blocks: u32,
    /// Shader storage block slots: storage block `k` is at native binding `k`.
    storage: u32,
    /// Input and output blocks become plain variables (`interpolates_members`).
    flatten_io: bool,
    /// The default uniform block becomes a plain uniform array where it can
    /// ([`SpirvCross::translate`]).
    plain_default: bool,
}

/// Name of the uniform a fragment stage that reads `gl_PointCoord` flips its y by: 0.0
/// (`UPPER_LEFT`, GLES's own origin) or 1.0 (`LOWER_LEFT`).
pub(crate) const POINT_ORIGIN: &str = "ts_point_origin";

/// Makes a translated fragment stage's `gl_PointCoord` follow [`POINT_ORIGIN`]: each read
/// becomes `vec2(x, abs(ts_point_origin - y))`, and the uniform is declared before the
/// first default-precision statement (after every directive, before any use).
fn lower_point_coord(source: &mut String) {
    const NAME: &str = "gl_PointCoord";
    if !source.contains(NAME) {
        return;
    }
    let flipped = format!("vec2({NAME}.x, abs({POINT_ORIGIN} - {NAME}.y))");
    *source = source.replace(NAME, &flipped);
    let declaration = format!("uniform highp float {POINT_ORIGIN};\n");
    let mut at = 0;
    let mut after_directives = 0;
    for line in source.split_inclusive('\n') {
        if line.starts_with("precision ") {
            after_directives = at;
            break;
        }
        at += line.len();
        if line.starts_with('#') {
            after_directives = at;
        }
    }
    source.insert_str(after_directives, &declaration);
}

/// One translated stage.
#[derive(Default, Debug, PartialEq)]
struct Translated {
    source: String,
    /// (GLSL name, texture unit, array length).
    samplers: Vec<(String, u32, u32)>,
    /// (GLSL block name, native binding).
    blocks: Vec<(String, u32)>,
    inputs: VertexInputs,
    /// The array size (`[8]`) of a vertex stage's output block redeclared for a geometry
    /// stage's `gl_in` (see [`redeclare_vertex_output`]).
    clip_distances: Option<String>,
    /// The name of the plain uniform array the default block became, if it did.
    plain: Option<String>,
    /// The stage declares the default block as a uniform block (binding 0).
    default_block: bool,
}

/// The persistent cache's translations ([`Translated::encode`]).
const ESSL_ENTRIES: tessera_cache::Kind = tessera_cache::Kind {
    name: "essl",
    build: "1",
};

/// The persistent cache's native program binaries (`glGetProgramBinary`'s format, then its
/// bytes).
const BINARY_ENTRIES: tessera_cache::Kind = tessera_cache::Kind {
    name: "gles-binary",
    build: "1",
};

impl Translated {
    /// Bytes for the persistent cache: strings and lists length-prefixed, little-endian.
    fn encode(&self) -> Vec<u8> {
        fn text(out: &mut Vec<u8>, s: &str) {
            out.extend_from_slice(&(s.len() as u32).to_le_bytes());
            out.extend_from_slice(s.as_bytes());
        }
        fn option(out: &mut Vec<u8>, s: Option<&str>) {
            out.push(u8::from(s.is_some()));
            text(out, s.unwrap_or_default());
        }
        let mut out = Vec::with_capacity(self.source.len() + 256);
        text(&mut out, &self.source);
        out.extend_from_slice(&(self.samplers.len() as u32).to_le_bytes());
        for (name, unit, count) in &self.samplers {
            text(&mut out, name);
            out.extend_from_slice(&unit.to_le_bytes());
            out.extend_from_slice(&count.to_le_bytes());
        }
        out.extend_from_slice(&(self.blocks.len() as u32).to_le_bytes());
        for (name, binding) in &self.blocks {
            text(&mut out, name);
            out.extend_from_slice(&binding.to_le_bytes());
        }
        out.extend(self.inputs.classes.iter().map(|c| *c as u8));
        out.extend_from_slice(&self.inputs.reads.to_le_bytes());
        option(&mut out, self.clip_distances.as_deref());
        option(&mut out, self.plain.as_deref());
        out.push(u8::from(self.default_block));
        out
    }

    /// What [`Self::encode`] wrote (`None` for anything else).
    fn decode(mut bytes: &[u8]) -> Option<Self> {
        fn take<'a>(b: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
            let (head, rest) = b.split_at_checked(n)?;
            *b = rest;
            Some(head)
        }
        fn word(b: &mut &[u8]) -> Option<u32> {
            Some(u32::from_le_bytes(take(b, 4)?.try_into().ok()?))
        }
        fn text(b: &mut &[u8]) -> Option<String> {
            let n = word(b)? as usize;
            String::from_utf8(take(b, n)?.to_vec()).ok()
        }
        fn flag(b: &mut &[u8]) -> Option<bool> {
            match take(b, 1)?[0] {
                0 => Some(false),
                1 => Some(true),
                _ => None,
            }
        }
        fn option(b: &mut &[u8]) -> Option<Option<String>> {
            let some = flag(b)?;
            let s = text(b)?;
            Some(some.then_some(s))
        }
        let b = &mut bytes;
        let source = text(b)?;
        let samplers = (0..word(b)?)
            .map(|_| Some((text(b)?, word(b)?, word(b)?)))
            .collect::<Option<Vec<_>>>()?;
        let blocks = (0..word(b)?)
            .map(|_| Some((text(b)?, word(b)?)))
            .collect::<Option<Vec<_>>>()?;
        let mut inputs = VertexInputs::default();
        for (c, byte) in inputs.classes.iter_mut().zip(take(b, MAX_VERTEX_ATTRIBS)?) {
            *c = match byte {
                0 => AttribClass::Float,
                1 => AttribClass::Int,
                2 => AttribClass::Uint,
                _ => return None,
            };
        }
        inputs.reads = u16::from_le_bytes(take(b, 2)?.try_into().ok()?);
        let t = Self {
            source,
            samplers,
            blocks,
            inputs,
            clip_distances: option(b)?,
            plain: option(b)?,
            default_block: flag(b)?,
        };
        b.is_empty().then_some(t)
    }
}

/// What a program's vertex stage reads, by attribute location.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct VertexInputs {
    /// The class of the input at each location (for generic attribute values; `Float`
    /// where no input starts).
    pub classes: [AttribClass; MAX_VERTEX_ATTRIBS],
    /// Bit `i`: an input occupies location `i` (matrices and arrays span several). Other
    /// locations are read by nothing, so their generic values need not be set.
    pub reads: u16,
}

/// A linked program as a handle names it.
pub(crate) struct Program {
    /// The native program, `None` when the driver refused it (draws with it are skipped).
    pub native: Option<glow::Program>,
    /// Its cache key.
    pub key: u64,
    pub default_block_size: u32,
    /// Native texture target of each sampler slot.
    pub sampler_targets: Vec<u32>,
    /// Bytes each uniform block slot reads.
    pub uniform_blocks: Vec<u32>,
    /// Shader storage block slots.
    pub storage_blocks: usize,
    /// Image slots (slot `i` is native image unit `i`).
    pub images: usize,
    /// What its vertex inputs read.
    pub inputs: VertexInputs,
    /// The location of the sampler LOD biases (`spirv.rs`), if the program has them.
    pub lod_bias: Option<glow::UniformLocation>,
    /// Its texture query uniforms (`texture_query.rs`), if it has them.
    pub texture_queries: Option<crate::texture_query::Locations>,
    /// The location of [`POINT_ORIGIN`], if the fragment stage reads `gl_PointCoord`.
    pub point_origin: Option<glow::UniformLocation>,
    /// Where the default block's scalars move, if its doubles were narrowed (`narrow.rs`).
    pub repack: Option<std::sync::Arc<crate::narrow::Repack>>,
    /// How GL's provoking-vertex convention reaches what it draws (command.rs).
    pub flat: Flat,
    /// The programs of the other vertex streams its geometry stage emits to (`streams.rs`).
    pub streams: Option<std::sync::Arc<crate::streams::StreamPrograms>>,
    /// Where its default block's bytes go as plain uniforms ([`PlainUniforms`]).
    pub plain: Option<std::sync::Arc<PlainUniforms>>,
}

/// Whether a program's fragment stage reads flat inputs, and from which stage they come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flat {
    /// No flat inputs: the provoking vertex makes no difference.
    None,
    /// Flat inputs from the vertex stage: `FIRST_VERTEX_CONVENTION` draws a rotated list.
    FromVertices,
    /// Flat inputs from a geometry stage, whose output primitives the backend cannot
    /// reorder: the last vertex provides them.
    FromGeometry,
}

/// Whether a program of a vertex and a fragment stage interpolates a member of an input
/// block with `interpolateAtCentroid/Sample/Offset`: GLSL ES takes only variables and their
/// elements as the interpolant, so both stages' blocks become plain variables
/// (SPIRV-Cross's flattened I/O blocks, `<instance>_<member>`, matched by those names).
fn interpolates_members(stages: &[(ShaderStage, Vec<u32>)]) -> bool {
    const OP_EXT_INST: u32 = 12;
    const OP_ACCESS_CHAIN: u32 = 65;
    const OP_IN_BOUNDS_ACCESS_CHAIN: u32 = 66;
    const INTERPOLATE_AT: std::ops::RangeInclusive<u32> = 76..=78;
    if stages.len() != 2 || !stages.iter().any(|(s, _)| *s == ShaderStage::Vertex) {
        return false;
    }
    let Some((_, words)) = stages.iter().find(|(s, _)| *s == ShaderStage::Fragment) else {
        return false;
    };
    let mut chains = std::collections::HashSet::new();
    let mut i = 5;
    while i < words.len() {
        let n = (words[i] >> 16) as usize;
        if n == 0 || i + n > words.len() {
            return false;
        }
        let inst = &words[i..i + n];
        match inst[0] & 0xffff {
            OP_ACCESS_CHAIN | OP_IN_BOUNDS_ACCESS_CHAIN if n >= 5 => {
                chains.insert(inst[2]);
            }
            OP_EXT_INST
                if n >= 6 && INTERPOLATE_AT.contains(&inst[4]) && chains.contains(&inst[5]) =>
            {
                return true;
            }
            _ => {}
        }
        i += n;
    }
    false
}

/// Whether a module decorates anything `Flat` (in a fragment stage, only inputs can be).
fn decorates_flat(words: &[u32]) -> bool {
    const OP_DECORATE: u32 = 71;
    const OP_MEMBER_DECORATE: u32 = 72;
    const DECORATION_FLAT: u32 = 14;
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        if count == 0 {
            return false;
        }
        let at = match words[i] & 0xffff {
            OP_DECORATE => i + 2,
            OP_MEMBER_DECORATE => i + 3,
            _ => 0,
        };
        if at != 0 && words.get(at) == Some(&DECORATION_FLAT) {
            return true;
        }
        i += count;
    }
    false
}

/// What a native link gives.
#[derive(Clone)]
struct Linked {
    native: Option<glow::Program>,
    inputs: VertexInputs,
    /// The location of `ts_lod_bias` (spirv.rs), if a stage samples with it.
    lod_bias: Option<glow::UniformLocation>,
    /// Its texture query uniforms (`texture_query.rs`), if a stage queries.
    texture_queries: Option<crate::texture_query::Locations>,
    /// The location of [`POINT_ORIGIN`], if the fragment stage reads `gl_PointCoord`.
    point_origin: Option<glow::UniformLocation>,
    /// Where the default block's scalars move, if its doubles were narrowed (`narrow.rs`).
    repack: Option<std::sync::Arc<crate::narrow::Repack>>,
    /// The other vertex streams' programs (`streams.rs`).
    streams: Option<std::sync::Arc<crate::streams::StreamPrograms>>,
    /// Where the default block's bytes go as plain uniforms; `None`: all of it is read from
    /// the uniform ring.
    plain: Option<std::sync::Arc<PlainUniforms>>,
}

/// One stage's default uniform block as a plain uniform array of 4-component vectors
/// (SPIRV-Cross's flattened buffer block): element `i` holds the block's std140 bytes
/// `16 i..16 i + 16`, all of them floats, ints or uints.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlainArray {
    /// The location of element 0.
    pub location: glow::UniformLocation,
    /// Active elements (the driver drops unread ones past the last read).
    pub len: u32,
    /// `FLOAT_VEC4`, `INT_VEC4` or `UNSIGNED_INT_VEC4`.
    pub kind: u32,
    /// Element `i` is at `location + i` (as Mesa assigns them): a change from element `i`
    /// on is set from there; otherwise from element 0.
    pub consecutive: bool,
    /// Bit `i`: the stage reads element `i` (elements from 64 on count as read). Only those
    /// are set, so a change of a member that only another stage reads leaves this stage's
    /// constants alone, as a native program's own uniforms would.
    pub reads: u64,
}

/// The elements of the plain uniform array `name` that a translated stage reads: those it
/// indexes with a literal (SPIRV-Cross's flattened accesses, `name[3].xy`), or all of them
/// (`u64::MAX`) where it indexes one with an expression or names the array otherwise.
fn elements_read(source: &str, name: &str) -> u64 {
    let mut reads = 0u64;
    for (at, _) in source.match_indices(name) {
        let before = source[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &source[at + name.len()..];
        let index = rest
            .strip_prefix('[')
            .and_then(|r| r.split_once(']'))
            .and_then(|(i, _)| i.parse::<u32>().ok());
        match index {
            // The declaration's size marks one element more: harmless.
            Some(i) if i < 64 => reads |= 1 << i,
            Some(_) => {}
            None => return u64::MAX,
        }
    }
    reads
}

/// A program's default uniform block as plain uniforms: a change of the block's bytes sets
/// only the elements that changed, with `glUniform4*v`, instead of binding a new range of
/// the uniform ring (which makes the driver rebuild every stage's constant state).
///
/// Each stage that reads the block has its own array (GLSL ES wants one declaration of a
/// uniform name in every stage). Read from the ring as before ([`Self::ring`]): a stage
/// whose block mixes floats and integers or bools (SPIRV-Cross flattens a block of one
/// scalar type only; a stage declares the program's members up to the last it reads, and
/// the engine's float point size after them), the programs of extra vertex streams, a
/// program whose stages have more uniform vectors than the driver takes, and every program
/// with [`crate::GlesOptions::uniform_buffer`].
#[derive(Clone, Debug, Default)]
pub(crate) struct PlainUniforms {
    /// Each stage's array that the driver kept active.
    pub arrays: Vec<PlainArray>,
    /// Elements of the longest array: the words the program holds, in 4-word units.
    pub vec4s: u32,
    /// Some stage still reads the default block as a uniform block at binding 0.
    pub ring: bool,
}

impl PlainUniforms {
    /// The arrays of a linked program's translated stages; `None` when no stage has one
    /// (the ring alone serves the block).
    fn find(
        gl: &glow::Context,
        program: glow::Program,
        stages: &[(ShaderStage, Translated)],
    ) -> Option<std::sync::Arc<Self>> {
        if stages.iter().all(|(_, t)| t.plain.is_none()) {
            return None;
        }
        let mut plain = Self {
            ring: stages.iter().any(|(_, t)| t.default_block),
            ..Self::default()
        };
        // SAFETY: context current; `program` is linked; indices below its active count.
        unsafe {
            let count = gl.get_active_uniforms(program);
            for index in 0..count {
                let Some(u) = gl.get_active_uniform(program, index) else {
                    continue;
                };
                let Some(base) = u.name.strip_suffix("[0]") else {
                    continue;
                };
                let Some((_, stage)) = stages
                    .iter()
                    .find(|(_, t)| t.plain.as_deref() == Some(base))
                else {
                    continue;
                };
                let Some(location) = gl.get_uniform_location(program, base) else {
                    continue;
                };
                let len = u.size.max(1) as u32;
                let last = gl.get_uniform_location(program, &format!("{base}[{}]", len - 1));
                plain.arrays.push(PlainArray {
                    location,
                    len,
                    kind: u.utype,
                    consecutive: last.is_some_and(|l| l.0 == location.0 + len - 1),
                    reads: elements_read(&stage.source, base),
                });
                plain.vec4s = plain.vec4s.max(len);
            }
        }
        Some(std::sync::Arc::new(plain))
    }
}

struct CacheEntry {
    code: Vec<u8>,
    linked: Linked,
    users: u32,
    last_use: u64,
}

/// Native programs by the hash of their code.
#[derive(Default)]
pub(crate) struct ProgramCache {
    entries: HashMap<u64, CacheEntry>,
    clock: u64,
    /// Native shaders compiled so far (reported by `Backend::counters`).
    pub compiled: u64,
    /// Native programs linked so far.
    pub linked: u64,
    /// The driver's identity (`GL_VENDOR`, `GL_RENDERER`, `GL_VERSION`) that keys its
    /// program binaries in the persistent cache; empty when it has no binary formats
    /// (unset: not asked yet).
    driver: Option<String>,
    /// The sampler LOD biases each native program's `ts_lod_bias` holds (absent: zeros).
    pub lod_biases: HashMap<glow::Program, Vec<f32>>,
    /// What each native program's texture query uniforms hold (absent: zeros).
    pub texture_queries: HashMap<glow::Program, crate::texture_query::Held>,
    /// The native programs whose [`POINT_ORIGIN`] holds 1.0 (`LOWER_LEFT`); others hold 0.
    pub lower_left_points: std::collections::HashSet<glow::Program>,
    /// The default-block words each native program's plain uniform arrays hold, by element
    /// ([`PlainUniforms`]; absent: not set yet). Looked up at every uniform change.
    pub plain_held: HashMap<glow::Program, Vec<[u32; 4]>, NameHash>,
}

/// Hashes a native object name (a small integer) with one multiplication, whose high bits
/// the table's probes use, instead of SipHash: the table is looked up at every draw that
/// changes a uniform, and its keys come from the driver.
pub(crate) type NameHash = std::hash::BuildHasherDefault<NameHasher>;

/// The hasher of [`NameHash`].
#[derive(Default)]
pub(crate) struct NameHasher(u64);

impl std::hash::Hasher for NameHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(*b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = (self.0 ^ u64::from(n)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// Unused programs kept for a relink of the same code.
const KEEP_UNUSED: usize = 32;

/// `BuiltIn PrimitiveId`.
const BUILT_IN_PRIMITIVE_ID: u32 = 7;

/// `BuiltIn Layer`.
const BUILT_IN_LAYER: u32 = 9;

/// Whether a module decorates a variable as the built-in `built_in` (glslang declares a
/// stand-alone built-in variable only where the shader uses it).
fn decorates_built_in(words: &[u32], built_in: u32) -> bool {
    const OP_DECORATE: u32 = 71;
    const DECORATION_BUILT_IN: u32 = 11;
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        if count == 0 {
            return false;
        }
        if words[i] & 0xffff == OP_DECORATE
            && words.get(i + 2) == Some(&DECORATION_BUILT_IN)
            && words.get(i + 3) == Some(&built_in)
        {
            return true;
        }
        i += count;
    }
    false
}

/// Whether a SPIR-V module reads cube map arrays (`SampledCubeArray` or `ImageCubeArray`
/// capability) or gathers with variable offsets or four of them (`ImageGatherExtended`:
/// `textureGatherOffset` with a non-constant offset, `textureGatherOffsets`) or interpolates
/// at a centroid, sample or offset (`InterpolationFunction`), which GLSL ES has from 3.20 on.
fn uses_es32_capabilities(words: &[u32]) -> bool {
    const OP_CAPABILITY: u32 = 17;
    const IMAGE_GATHER_EXTENDED: u32 = 25;
    const IMAGE_CUBE_ARRAY: u32 = 34;
    const INTERPOLATION_FUNCTION: u32 = 52;
    const SAMPLED_CUBE_ARRAY: u32 = 45;
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        if count == 0 {
            return false;
        }
        if words[i] & 0xffff == OP_CAPABILITY
            && matches!(
                words.get(i + 1),
                Some(
                    &IMAGE_CUBE_ARRAY
                        | &SAMPLED_CUBE_ARRAY
                        | &IMAGE_GATHER_EXTENDED
                        | &INTERPOLATION_FUNCTION
                )
            )
        {
            return true;
        }
        i += count;
    }
    false
}

/// Whether a SPIR-V module declares a sampled 2D multisample array image
/// (`sampler2DMSArray` and its integer forms): GLSL ES 3.10 has them only with
/// `OES_texture_storage_multisample_2d_array`, 3.20 as core. SPIR-V names no capability
/// for them (`ImageMSArray` is the storage images').
fn samples_multisample_arrays(words: &[u32]) -> bool {
    const OP_TYPE_IMAGE: u32 = 25;
    const DIM_2D: u32 = 1;
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        if count == 0 {
            return false;
        }
        // OpTypeImage: result, sampled type, dim, depth, arrayed, MS, sampled, format.
        if words[i] & 0xffff == OP_TYPE_IMAGE
            && count >= 9
            && let Some(t) = words.get(i + 1..i + 9)
            && t[2] == DIM_2D
            && t[4] == 1
            && t[5] == 1
            && t[6] == 1
        {
            return true;
        }
        i += count;
    }
    false
}

/// Whether a SPIR-V module indexes an array of samplers or of uniform or storage blocks with
/// an index that is not a constant (GLSL 4.00's dynamically uniform indexing), which GLSL ES
/// allows from 3.20 on (3.10 wants constant expressions).
fn indexes_resource_arrays(words: &[u32]) -> bool {
    const OP_TYPE_ARRAY: u32 = 28;
    const OP_TYPE_RUNTIME_ARRAY: u32 = 29;
    const OP_TYPE_POINTER: u32 = 32;
    const OP_CONSTANT: u32 = 43;
    const OP_VARIABLE: u32 = 59;
    const OP_ACCESS_CHAIN: u32 = 65;
    const OP_IN_BOUNDS_ACCESS_CHAIN: u32 = 66;
    const UNIFORM_CONSTANT: u32 = 0;
    const UNIFORM: u32 = 2;
    const STORAGE_BUFFER: u32 = 12;
    let mut arrays = std::collections::HashSet::new();
    let mut array_pointers = std::collections::HashSet::new();
    let mut resource_arrays = std::collections::HashSet::new();
    let mut constants = std::collections::HashSet::new();
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        if count == 0 || i + count > words.len() {
            return false;
        }
        let w = &words[i..i + count];
        match w[0] & 0xffff {
            OP_TYPE_ARRAY | OP_TYPE_RUNTIME_ARRAY if count >= 3 => {
                arrays.insert(w[1]);
            }
            OP_TYPE_POINTER
                if count >= 4
                    && matches!(w[2], UNIFORM_CONSTANT | UNIFORM | STORAGE_BUFFER)
                    && arrays.contains(&w[3]) =>
            {
                array_pointers.insert(w[1]);
            }
            OP_CONSTANT if count >= 3 => {
                constants.insert(w[2]);
            }
            OP_VARIABLE if count >= 4 && array_pointers.contains(&w[1]) => {
                resource_arrays.insert(w[2]);
            }
            OP_ACCESS_CHAIN | OP_IN_BOUNDS_ACCESS_CHAIN
                if count >= 5 && resource_arrays.contains(&w[3]) && !constants.contains(&w[4]) =>
            {
                return true;
            }
            _ => {}
        }
        i += count;
    }
    false
}

fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn stage_tag(stage: ShaderStage) -> char {
    match stage {
        ShaderStage::Vertex => 'v',
        ShaderStage::Geometry => 'g',
        ShaderStage::Fragment => 'f',
        ShaderStage::Compute => 'c',
        ShaderStage::TessControl => 't',
        ShaderStage::TessEvaluation => 'e',
    }
}

fn native_stage(stage: ShaderStage) -> u32 {
    match stage {
        ShaderStage::Vertex => glow::VERTEX_SHADER,
        ShaderStage::Geometry => glow::GEOMETRY_SHADER,
        ShaderStage::Fragment => glow::FRAGMENT_SHADER,
        ShaderStage::Compute => glow::COMPUTE_SHADER,
        ShaderStage::TessControl => glow::TESS_CONTROL_SHADER,
        ShaderStage::TessEvaluation => glow::TESS_EVALUATION_SHADER,
    }
}

impl ProgramPipe for GlesPipe {
    /// `CreateProgram`: translates, links (or reuses the cached link of the same code) and
    /// stores the program. A native refusal is an event, not a session error.
    fn create_program(&mut self, handle: ProgramHandle, desc: &ProgramDesc, stage: Stage<'_>) -> R {
        const N: &str = "CreateProgram";
        let samplers = desc.samplers.len() as u32;
        let blocks = desc.uniform_blocks.len() as u32;
        let storage = desc.storage_blocks.len() as u32;
        // The key covers everything the native program depends on: code, stages, the
        // sampler and block counts (they move bindings) and the GLSL version.
        let mut code = Vec::new();
        code.extend_from_slice(&samplers.to_le_bytes());
        code.extend_from_slice(&blocks.to_le_bytes());
        code.extend_from_slice(&storage.to_le_bytes());
        let xfb = crate::xfb::varyings(&desc.xfb);
        if let Some((names, mode)) = &xfb {
            code.extend_from_slice(&mode.to_le_bytes());
            for n in names {
                code.extend_from_slice(n.as_bytes());
                code.push(0);
            }
        }
        let mut stages = Vec::with_capacity(desc.stages.len());
        for s in &desc.stages {
            let bytes = stage.get(s.spirv)?;
            if bytes.len() % 4 != 0 || bytes.len() < 20 {
                let what = format!("SPIR-V of {} bytes is not a module", bytes.len());
                return Err(bad_value(N, what));
            }
            let words: Vec<u32> = bytes
                .chunks_exact(4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                .collect();
            if words[0] != 0x0723_0203 {
                return Err(bad_value(N, "SPIR-V without the magic number"));
            }
            code.push(s.stage as u8);
            code.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
            code.extend_from_slice(bytes);
            stages.push((s.stage, words));
        }
        // Geometry shaders, gl_PrimitiveID and gl_Layer in a fragment shader (which GL
        // defines with or without a geometry stage), cube map array samplers, multisample
        // array samplers and extended gathers are core in GLSL ES 3.20.
        let needs_320 = stages.iter().any(|(stage, words)| {
            uses_es32_capabilities(words)
                || samples_multisample_arrays(words)
                || indexes_resource_arrays(words)
                || match stage {
                    ShaderStage::Geometry
                    | ShaderStage::TessControl
                    | ShaderStage::TessEvaluation => {
                        self.features.tessellation == Some("") || *stage == ShaderStage::Geometry
                    }
                    ShaderStage::Fragment => {
                        decorates_built_in(words, BUILT_IN_PRIMITIVE_ID)
                            || decorates_built_in(words, BUILT_IN_LAYER)
                    }
                    _ => false,
                }
        });
        let version: u32 = if needs_320 && self.features.minor >= 2 {
            320
        } else if self.features.minor >= 1 {
            310
        } else {
            300
        };
        code.extend_from_slice(&version.to_le_bytes());
        let flat = match (
            stages
                .iter()
                .any(|(stage, words)| *stage == ShaderStage::Fragment && decorates_flat(words)),
            stages
                .iter()
                .any(|(stage, _)| *stage == ShaderStage::Geometry),
        ) {
            (false, _) => Flat::None,
            (true, false) => Flat::FromVertices,
            (true, true) => Flat::FromGeometry,
        };
        let key = fnv1a(0xcbf2_9ce4_8422_2325, &code);
        self.program_cache.clock += 1;
        let clock = self.program_cache.clock;
        let cached = match self.program_cache.entries.get_mut(&key) {
            Some(e) if e.code == code => {
                e.users += 1;
                e.last_use = clock;
                Some(e.linked.clone())
            }
            _ => None,
        };
        let linked = match cached {
            Some(hit) => hit,
            None => {
                let counts = (samplers, blocks, storage);
                let emitted = stages
                    .iter()
                    .find(|(s, _)| *s == ShaderStage::Geometry)
                    .map_or(0, |(_, w)| crate::streams::emitted(w));
                let linked = if emitted & !1 != 0 {
                    self.link_streams(&stages, version, counts, &desc.xfb, emitted)
                } else {
                    self.link(&stages, version, counts, xfb.as_ref(), None)
                };
                // A colliding hash with other code replaces the old entry only when unused.
                let replace = self
                    .program_cache
                    .entries
                    .get(&key)
                    .is_none_or(|e| e.users == 0);
                if replace {
                    if let Some(old) = self.program_cache.entries.remove(&key) {
                        self.delete_native_program(old.linked.native);
                        self.delete_stream_programs(old.linked.streams);
                    }
                    self.program_cache.entries.insert(
                        key,
                        CacheEntry {
                            code,
                            linked: linked.clone(),
                            users: 1,
                            last_use: clock,
                        },
                    );
                }
                linked
            }
        };
        let sampler_targets = desc
            .samplers
            .iter()
            .map(|slot| conv::map_texture_kind(slot.kind, &self.features).0)
            .collect();
        self.programs.insert(
            N,
            handle,
            Program {
                native: linked.native,
                key,
                default_block_size: desc.default_block_size,
                sampler_targets,
                uniform_blocks: desc.uniform_blocks.iter().map(|b| b.size).collect(),
                storage_blocks: desc.storage_blocks.len(),
                images: desc.images.len(),
                inputs: linked.inputs,
                lod_bias: linked.lod_bias,
                texture_queries: linked.texture_queries,
                point_origin: linked.point_origin,
                repack: linked.repack,
                flat,
                streams: linked.streams,
                plain: linked.plain,
            },
        )
    }

    /// `DestroyProgram`: releases the cache entry; unused entries beyond a few are deleted.
    fn destroy_program(&mut self, handle: ProgramHandle) -> R {
        let p = self.programs.remove("DestroyProgram", handle)?;
        // A context that binds it must not draw with it any more (command.rs's fast path).
        self.validity += 1;
        match self.program_cache.entries.get_mut(&p.key) {
            Some(e) if e.linked.native == p.native => e.users = e.users.saturating_sub(1),
            // Not cached (its hash collided with a program in use): delete it now.
            _ => {
                self.delete_native_program(p.native);
                self.delete_stream_programs(p.streams);
            }
        }
        let unused = self
            .program_cache
            .entries
            .values()
            .filter(|e| e.users == 0)
            .count();
        if unused > KEEP_UNUSED {
            let oldest = self
                .program_cache
                .entries
                .iter()
                .filter(|(_, e)| e.users == 0)
                .min_by_key(|(_, e)| e.last_use)
                .map(|(k, _)| *k);
            if let Some(e) = oldest.and_then(|k| self.program_cache.entries.remove(&k)) {
                self.delete_native_program(e.linked.native);
                self.delete_stream_programs(e.linked.streams);
            }
        }
        Ok(())
    }
}

impl GlesPipe {
    /// Sets the program's `ts_lod_bias` (`spirv.rs`) at `location` to the bound samplers'
    /// biases, if they differ from what `native` holds. The program is current. Allocates
    /// only when the biases change.
    pub(crate) fn apply_lod_biases(
        &mut self,
        record: &'static str,
        ctx: &crate::command::GlesContext,
        (location, native): (glow::UniformLocation, glow::Program),
        count: usize,
    ) {
        let count = count.min(MAX_TEXTURE_UNITS);
        let samplers = &self.samplers;
        let bias = |s: usize| {
            ctx.desired.textures[s]
                .1
                .and_then(|h| samplers.get(record, h).ok())
                .map_or(0.0, |s| s.lod_bias)
        };
        // No entry: the program holds zeros (and with no entry at all, nothing to look up).
        let held = if self.program_cache.lod_biases.is_empty() {
            None
        } else {
            self.program_cache.lod_biases.get(&native)
        };
        let same = match held {
            Some(h) => h.len() == count && (0..count).all(|s| h[s] == bias(s)),
            None => (0..count).all(|s| bias(s) == 0.0),
        };
        if !same {
            let biases: Vec<f32> = (0..count).map(bias).collect();
            // SAFETY: context current; `native` is current (prepare made it so) and
            // `location` is its `ts_lod_bias`, an array of at least `count` floats.
            unsafe { self.gl.uniform_1_f32_slice(Some(&location), &biases) };
            self.program_cache.lod_biases.insert(native, biases);
        }
    }

    /// Sets the program's [`POINT_ORIGIN`] at `location` for `lower_left`, if `native` holds
    /// the other value. The program is current.
    pub(crate) fn apply_point_origin(
        &mut self,
        (location, native): (glow::UniformLocation, glow::Program),
        lower_left: bool,
    ) {
        let held = self.program_cache.lower_left_points.contains(&native);
        if held != lower_left {
            // SAFETY: context current; `native` is current (prepare made it so) and
            // `location` is its `ts_point_origin`, a float.
            unsafe {
                self.gl
                    .uniform_1_f32(Some(&location), if lower_left { 1.0 } else { 0.0 })
            };
            if lower_left {
                self.program_cache.lower_left_points.insert(native);
            } else {
                self.program_cache.lower_left_points.remove(&native);
            }
        }
    }

    fn delete_native_program(&mut self, native: Option<glow::Program>) {
        if let Some(p) = native {
            self.program_cache.lod_biases.remove(&p);
            self.program_cache.texture_queries.remove(&p);
            self.program_cache.lower_left_points.remove(&p);
            self.program_cache.plain_held.remove(&p);
            self.shadow.delete_program(&self.gl, p);
        }
    }

    /// Links a program whose geometry stage emits to the streams of `emitted` (bits), one of
    /// them above 0: the program itself for stream 0, one more per other stream
    /// (`streams.rs`).
    fn link_streams(
        &mut self,
        stages: &[(ShaderStage, Vec<u32>)],
        version: u32,
        counts: (u32, u32, u32),
        xfb: &[tessera_wire::record::XfbOutput],
        emitted: u8,
    ) -> Linked {
        use crate::streams;
        let locations = stages
            .iter()
            .find(|(s, _)| *s == ShaderStage::Geometry)
            .map(|(_, w)| streams::location_streams(w))
            .unwrap_or_default();
        let buffers = streams::buffer_streams(xfb, &locations);
        let mut captures = 0;
        let mut each = |s: u8| {
            let (names, mask) = streams::varyings(xfb, &buffers, s);
            if mask != 0 {
                captures |= 1 << s;
            }
            names
        };
        let own = each(0);
        let others: Vec<_> = (1..streams::STREAMS as u8).map(&mut each).collect();
        let mut linked = self.link(stages, version, counts, own.as_ref(), Some(0));
        let mut programs = [None, None, None];
        for (s, names) in (1u32..).zip(&others) {
            if emitted & 1 << s != 0 && linked.native.is_some() {
                let l = self.link(stages, version, counts, names.as_ref(), Some(s));
                programs[s as usize - 1] = l.native.map(|p| (p, l.lod_bias));
            }
        }
        linked.streams = Some(std::sync::Arc::new(streams::StreamPrograms {
            programs,
            buffers,
            captures,
        }));
        linked
    }

    /// Translates and links (the geometry stage, given a stream, keeping that stream's
    /// emits: `streams.rs`); a failure is reported as `ProgramRejected` and gives `None`.
    ///
    /// The default uniform block becomes plain uniforms ([`PlainUniforms`]) except in the
    /// programs of a geometry stage's vertex streams, which draw one after the other with
    /// the same uniforms and read them from the uniform ring, and with
    /// [`crate::GlesOptions::uniform_buffer`].
    fn link(
        &mut self,
        stages: &[(ShaderStage, Vec<u32>)],
        version: u32,
        counts: (u32, u32, u32),
        xfb: Option<&(Vec<String>, u32)>,
        stream: Option<u32>,
    ) -> Linked {
        let plain = stream.is_none() && self.plain_uniforms;
        self.link_as(stages, version, counts, xfb, stream, plain)
    }

    /// [`Self::link`], with the default block as plain uniforms where it can
    /// (`plain_default`). A native link that fails with plain uniforms (too many uniform
    /// vectors for a stage: a uniform buffer holds more) is tried again without.
    fn link_as(
        &mut self,
        stages: &[(ShaderStage, Vec<u32>)],
        version: u32,
        (samplers, blocks, storage): (u32, u32, u32),
        xfb: Option<&(Vec<String>, u32)>,
        stream: Option<u32>,
        plain_default: bool,
    ) -> Linked {
        puffin::profile_scope!("link_native_program");
        let mut inputs = VertexInputs::default();
        let mut translated: Vec<(ShaderStage, Translated)> = Vec::new();
        let mut repack: Option<crate::narrow::Repack> = None;
        let flatten_io = interpolates_members(stages);
        for (stage, words) in stages {
            // OpenGL ES has no doubles: narrowed to floats where the embedder allows it (the
            // engine links no program with doubles otherwise).
            let narrowed = if self.narrow_fp64 {
                match crate::narrow::narrow(words) {
                    Ok(n) => n,
                    Err(e) => {
                        self.events.push(Event::ProgramRejected {
                            log: format!("the {stage:?} stage's doubles: {e}"),
                        });
                        return Linked {
                            native: None,
                            inputs,
                            lod_bias: None,
                            texture_queries: None,
                            point_origin: None,
                            repack: None,
                            streams: None,
                            plain: None,
                        };
                    }
                }
            } else {
                None
            };
            if let Some(r) = narrowed.as_ref().and_then(|n| n.repack.clone()) {
                repack.get_or_insert(r);
            }
            let words = narrowed.as_ref().map_or(&words[..], |n| &n.words[..]);
            let job = StageJob {
                stage: *stage,
                point_size_extension: self.features.geometry_point_size,
                tessellation_extensions: (
                    self.features.tessellation,
                    self.features.tessellation_point_size,
                ),
                clip_distance_extension: self.features.clip_distance,
                vertex_clip_distances: translated
                    .iter()
                    .find_map(|(_, t)| t.clip_distances.clone()),
                tag: stage_tag(*stage),
                version,
                samplers,
                blocks,
                storage,
                flatten_io,
                plain_default,
            };
            // GLSL ES has no explicit block offsets: unused members fill the gaps
            // (block_padding.rs).
            let padded = crate::block_padding::pad(words);
            let words = padded.as_deref().unwrap_or(words);
            // GLES samplers have no LOD bias: the stage adds it from a uniform (spirv.rs).
            // GLSL ES has no xfb layouts: the driver is told by name (xfb.rs).
            let plain = crate::xfb::strip_decorations(words);
            let words = plain.as_deref().unwrap_or(words);
            let selected = stream
                .filter(|_| *stage == ShaderStage::Geometry)
                .map(|s| crate::streams::select_stream(words, s));
            let words = selected.as_deref().unwrap_or(words);
            let biased = crate::spirv::add_lod_bias(words, samplers);
            let words = biased.as_deref().unwrap_or(words);
            // Nor textureQueryLevels or textureQueryLod: uniforms and arithmetic instead.
            let lowered = crate::texture_query::lower(words, samplers);
            let words = lowered.as_deref().unwrap_or(words);
            // GLSL ES has no 1D, rectangle, unformatted or most read-write images either
            // (image_lowering.rs).
            let original = words;
            let images = crate::image_lowering::lower(words, 1 + samplers + blocks + storage);
            let words = images.as_ref().map_or(words, |l| &l.words[..]);
            // GLSL ES has no 1D textures; SPIRV-Cross widens them but not a fetch's offset.
            let folded = crate::spirv::fold_1d_fetch_offsets(words);
            let words = folded.as_deref().unwrap_or(words);
            // Nor the other operands of a 1D array's lookups: those become 2D array ones.
            let widened = crate::spirv::widen_1d_arrays(words);
            let words = widened.as_deref().unwrap_or(words);
            // Nor fine and coarse derivatives: the plain ones (spirv.rs).
            let plain = crate::spirv::plain_derivatives(words);
            let words = plain.as_deref().unwrap_or(words);
            // Nor group votes: each invocation votes alone (spirv.rs).
            let single = crate::spirv::single_invocation_votes(words);
            let words = single.as_deref().unwrap_or(words);
            match self.spirv_cross.translate_cached(words, &job) {
                Ok(mut t) => {
                    if let Some(l) = &images {
                        l.patch(&mut t.source);
                    }
                    crate::image_lowering::enable_extensions(original, &mut t.source);
                    if *stage == ShaderStage::Vertex {
                        inputs = t.inputs;
                    }
                    translated.push((*stage, t));
                }
                Err(e) => {
                    self.events.push(Event::ProgramRejected {
                        log: format!("SPIRV-Cross could not translate the {stage:?} stage: {e}"),
                    });
                    return Linked {
                        native: None,
                        inputs,
                        lod_bias: None,
                        texture_queries: None,
                        point_origin: None,
                        repack: None,
                        streams: None,
                        plain: None,
                    };
                }
            }
        }
        // GL links programs without a fragment stage (rasterization with no colour output,
        // as depth-only passes draw); GLSL ES needs one: a stage that writes nothing, so the
        // colour attachments' values are undefined as GL leaves them, and depth and stencil
        // are written as without it.
        if !stages
            .iter()
            .any(|(s, _)| matches!(s, ShaderStage::Fragment | ShaderStage::Compute))
        {
            translated.push((
                ShaderStage::Fragment,
                Translated {
                    source: format!("#version {version} es\nvoid main() {{}}\n"),
                    samplers: Vec::new(),
                    blocks: Vec::new(),
                    inputs: VertexInputs::default(),
                    clip_distances: None,
                    plain: None,
                    default_block: false,
                },
            ));
        }
        match self.link_native(&translated, xfb) {
            Ok(p) => {
                // SAFETY: context current; `p` is a linked program of this context.
                let lod_bias = unsafe { self.gl.get_uniform_location(p, crate::spirv::LOD_BIAS) };
                // SAFETY: as above.
                let point_origin = unsafe { self.gl.get_uniform_location(p, POINT_ORIGIN) };
                Linked {
                    native: Some(p),
                    inputs,
                    lod_bias,
                    texture_queries: crate::texture_query::Locations::find(&self.gl, p),
                    point_origin,
                    repack: repack.map(std::sync::Arc::new),
                    streams: None,
                    plain: PlainUniforms::find(&self.gl, p, &translated),
                }
            }
            Err(_) if translated.iter().any(|(_, t)| t.plain.is_some()) => {
                let counts = (samplers, blocks, storage);
                self.link_as(stages, version, counts, xfb, stream, false)
            }
            Err(log) => {
                self.events.push(Event::ProgramRejected { log });
                Linked {
                    native: None,
                    inputs,
                    lod_bias: None,
                    texture_queries: None,
                    point_origin: None,
                    repack: None,
                    streams: None,
                    plain: None,
                }
            }
        }
    }

    /// The persistent cache's key of a native program's binary: its translated sources,
    /// transform feedback varyings and the driver; `None` when the driver has no binary
    /// formats.
    fn binary_key(
        &mut self,
        stages: &[(ShaderStage, Translated)],
        xfb: Option<&(Vec<String>, u32)>,
    ) -> Option<[u8; 32]> {
        let gl = &self.gl;
        let driver = self.program_cache.driver.get_or_insert_with(|| {
            // SAFETY: context current; plain queries of valid enums.
            unsafe {
                if gl.get_parameter_i32(glow::NUM_PROGRAM_BINARY_FORMATS) <= 0 {
                    return String::new();
                }
                format!(
                    "{}\n{}\n{}",
                    gl.get_parameter_string(glow::VENDOR),
                    gl.get_parameter_string(glow::RENDERER),
                    gl.get_parameter_string(glow::VERSION)
                )
            }
        });
        if driver.is_empty() {
            return None;
        }
        let mut h = tessera_cache::Sha256::default();
        h.part(driver.as_bytes());
        for (stage, t) in stages {
            h.part(&[stage_tag(*stage) as u8]);
            h.part(t.source.as_bytes());
        }
        if let Some((names, mode)) = xfb {
            h.part(&mode.to_le_bytes());
            for n in names {
                h.part(n.as_bytes());
            }
        }
        Some(h.finish())
    }

    /// A native program from the binary the persistent cache holds for `key`, if there is
    /// one and the driver links it; a refused binary is counted and compiled again.
    fn load_binary(&mut self, key: &[u8; 32]) -> Option<glow::Program> {
        let entry = tessera_cache::load(&BINARY_ENTRIES, key)?;
        let (format, bytes) = entry.split_at_checked(4)?;
        let binary = glow::ProgramBinary {
            buffer: bytes.to_vec(),
            format: u32::from_le_bytes(format.try_into().ok()?),
        };
        let gl = &self.gl;
        // SAFETY: context current; the program is created here; glProgramBinary takes the
        // bytes with their length and reports a refused binary as a failed link.
        unsafe {
            let program = gl.create_program().ok()?;
            gl.program_binary(program, &binary);
            if gl.get_program_link_status(program) {
                self.program_cache.linked += 1;
                tessera_cache::note(tessera_cache::Work::BinaryLoaded);
                return Some(program);
            }
            gl.delete_program(program);
        }
        tessera_cache::note(tessera_cache::Work::BinaryRefused);
        None
    }

    fn link_native(
        &mut self,
        stages: &[(ShaderStage, Translated)],
        xfb: Option<&(Vec<String>, u32)>,
    ) -> Result<glow::Program, String> {
        let binary_key = self.binary_key(stages, xfb);
        let loaded = binary_key.as_ref().and_then(|k| self.load_binary(k));
        let gl = &self.gl;
        let program = if let Some(program) = loaded {
            program
        } else {
            // SAFETY: context current; every object used was just created by this context;
            // sources are Rust strings glow passes with their lengths; failures are read
            // back from the info logs, never assumed.
            unsafe {
                let program = gl.create_program()?;
                let mut shaders = Vec::new();
                let mut log = String::new();
                for (stage, t) in stages {
                    let shader = gl.create_shader(native_stage(*stage))?;
                    gl.shader_source(shader, &t.source);
                    gl.compile_shader(shader);
                    self.program_cache.compiled += 1;
                    if !gl.get_shader_compile_status(shader) {
                        log.push_str(&format!(
                            "{stage:?} stage: {}\n--- translated GLSL ES ---\n{}\n",
                            gl.get_shader_info_log(shader),
                            t.source
                        ));
                    }
                    gl.attach_shader(program, shader);
                    shaders.push(shader);
                }
                if let Some((names, mode)) = xfb {
                    let names: Vec<&str> = names.iter().map(String::as_str).collect();
                    gl.transform_feedback_varyings(program, &names, *mode);
                }
                if log.is_empty() {
                    if binary_key.is_some() {
                        gl.program_binary_retrievable_hint(program, true);
                    }
                    gl.link_program(program);
                    self.program_cache.linked += 1;
                    if !gl.get_program_link_status(program) {
                        log = format!("link: {}", gl.get_program_info_log(program));
                        for (stage, t) in stages {
                            log.push_str(&format!(
                                "--- translated GLSL ES, {stage:?} stage ---\n{}\n",
                                t.source
                            ));
                        }
                    }
                }
                for s in shaders {
                    gl.detach_shader(program, s);
                    gl.delete_shader(s);
                }
                if !log.is_empty() {
                    gl.delete_program(program);
                    return Err(log);
                }
                if let Some(key) = &binary_key
                    && let Some(binary) = gl.get_program_binary(program)
                {
                    let mut entry = binary.format.to_le_bytes().to_vec();
                    entry.extend_from_slice(&binary.buffer);
                    tessera_cache::store(&BINARY_ENTRIES, key, &entry);
                }
                program
            }
        };
        // Bindings by name, once: what GLSL ES 3.00 cannot say in the source (harmless
        // where 3.10's layout(binding) already said it).
        self.shadow.use_program(&self.gl, Some(program));
        self.disturbed |= dirty::PROGRAM;
        let gl = &self.gl;
        for (_, t) in stages {
            for (name, unit, count) in &t.samplers {
                let units: Vec<i32> = (0..*count).map(|i| (unit + i) as i32).collect();
                // SAFETY: context current; `program` is linked and current; the location
                // (if the sampler is active) belongs to it; `units` has one value per
                // element of the sampler array.
                unsafe {
                    if let Some(loc) = gl.get_uniform_location(program, name) {
                        gl.uniform_1_i32_slice(Some(&loc), &units);
                    }
                }
            }
            for (name, binding) in &t.blocks {
                // SAFETY: context current; `program` is linked; the index (if the block is
                // active) belongs to it; `binding` < MAX_UNIFORM_BUFFER_BINDINGS is the
                // engine's limit, which the native one meets (GL 3.3's 36 > ES's 24 is
                // checked at bind time, a GL error otherwise, not UB).
                unsafe {
                    if let Some(index) = gl.get_uniform_block_index(program, name) {
                        gl.uniform_block_binding(program, index, *binding);
                    }
                }
            }
        }
        Ok(program)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The locations a vertex stage reads, a matrix spanning one per column, and the class
    /// of the input starting at each. (GLSL ES has no array vertex inputs: SPIRV-Cross
    /// refuses to translate them.)
    #[test]
    fn vertex_inputs_cover_every_column_of_matrices() {
        let source = "#version 450
layout(location = 0) in vec4 pos;
layout(location = 2) in mat3 m;
layout(location = 6) in ivec2 a;
layout(location = 7) in mat4x2 n;
layout(location = 14) in uint u;
void main() {
    gl_Position = pos + vec4(m[0], float(u)) + vec4(a, 0, 0) + vec4(n[3], 0, 0);
}
";
        let bytes = tessera_backend_harness::spirv(ShaderStage::Vertex, source);
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        let cross = SpirvCross::load().expect("SPIRV-Cross");
        let job = StageJob {
            stage: ShaderStage::Vertex,
            point_size_extension: None,
            tessellation_extensions: (None, None),
            clip_distance_extension: false,
            vertex_clip_distances: None,
            tag: 'v',
            version: 300,
            samplers: 0,
            blocks: 0,
            storage: 0,
            flatten_io: false,
            plain_default: false,
        };
        let t = cross.translate(&words, &job).expect("translates");
        let locations = [0, 2, 3, 4, 6, 7, 8, 9, 10, 14];
        let reads = locations.iter().fold(0u16, |m, l| m | 1 << l);
        assert_eq!(t.inputs.reads, reads, "{:016b}", t.inputs.reads);
        let mut classes = [AttribClass::Float; MAX_VERTEX_ATTRIBS];
        classes[6] = AttribClass::Int;
        classes[14] = AttribClass::Uint;
        assert_eq!(t.inputs.classes, classes);
    }

    /// A stage's literal indices of its plain uniform array are the elements it reads; any
    /// other use of the array reads all of them.
    #[test]
    fn plain_arrays_read_their_literal_elements() {
        let source = "uniform highp vec4 ts_f_ubo0[14];
uniform highp vec4 xts_f_ubo0[2];
void main() { o = ts_f_ubo0[1].xy * mat2(ts_f_ubo0[7].xy, ts_f_ubo0[8].xy); }";
        assert_eq!(
            elements_read(source, "ts_f_ubo0"),
            1 << 1 | 1 << 7 | 1 << 8 | 1 << 14
        );
        let dynamic = "uniform highp vec4 ts_v_ubo0[4];\nvoid main() { o = ts_v_ubo0[i + 1]; }";
        assert_eq!(elements_read(dynamic, "ts_v_ubo0"), u64::MAX);
        assert_eq!(elements_read("void main() {}", "ts_v_ubo0"), 0);
    }

    /// A cached translation reads back as it was; any shorter, longer or altered bytes are
    /// refused rather than misread.
    #[test]
    fn cached_translations_read_back_exactly() {
        let mut inputs = VertexInputs::default();
        inputs.classes[3] = AttribClass::Uint;
        inputs.classes[15] = AttribClass::Int;
        inputs.reads = 0x8009;
        let t = Translated {
            source: "#version 310 es\nvoid main() {}\n".to_owned(),
            samplers: vec![("ts_f_s0".to_owned(), 0, 4), ("ts_f_s4".to_owned(), 4, 1)],
            blocks: vec![("ts_v_ubo2".to_owned(), 3)],
            inputs,
            clip_distances: Some("[8]".to_owned()),
            plain: None,
            default_block: true,
        };
        let bytes = t.encode();
        assert_eq!(Translated::decode(&bytes), Some(t));
        for n in 0..bytes.len() {
            assert_eq!(Translated::decode(&bytes[..n]), None, "{n} bytes");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(Translated::decode(&longer), None);
        let mut bad_class = bytes.clone();
        let classes = bytes.len() - 1 - 5 - 8 - 2 - MAX_VERTEX_ATTRIBS;
        bad_class[classes] = 7;
        assert_eq!(Translated::decode(&bad_class), None);
    }

    #[test]
    fn location_masks_stop_at_the_last_attribute() {
        assert_eq!(location_mask(0, 1), 1);
        assert_eq!(location_mask(3, 4), 0b111_1000);
        assert_eq!(location_mask(14, 4), 0xc000);
        assert_eq!(location_mask(16, 1), 0);
        assert_eq!(location_mask(2, MAX_VERTEX_ATTRIBS as u32), 0xfffc);
    }
}
