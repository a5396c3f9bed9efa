//! Differential: the `glGetIntegerv`/`glGetFloatv` pnames the native driver answers in its
//! 3.3 core context, against Tessera's answers.
//!
//! Mesa answers more than GL 3.3's state tables in a 3.3 core context: it hands out the
//! highest core version it has (4.5 on llvmpipe) and exposes extensions whose state
//! belongs to later versions (`ARB_ES2_compatibility`'s `MAX_VARYING_VECTORS`, ...).
//! Programs written against Mesa query those, so Tessera answers every one whose feature
//! it carries out, with its own value; the rest stay `INVALID_ENUM` and are listed in
//! [`UNSUPPORTED`] with the feature Tessera lacks.
//!
//! The candidates are every enum of GL 1.0 through 4.6 (`components/src/gl.rs`, generated
//! from Khronos' `glcorearb.h`) except the mask bits. A pname counts as answered when both
//! `glGetIntegerv` and `glGetFloatv` raise no error. Where both implementations answer, the
//! values agree unless Tessera's differs for a listed reason ([`OWN_VALUES`]), or the
//! value is derived from another limit the same way on both sides ([`DERIVED`]).

use tessera_engine::gl::*;
use tessera_engine::wire::TransportKind;
use tessera_tests::gl::{Gl, NativeGl};

/// Pnames native answers that Tessera keeps `INVALID_ENUM`, grouped by the reason.
const UNSUPPORTED: &[(&str, &[GLenum])] = &[
    (
        "compatibility-profile state that Mesa answers in core contexts too (as CURRENT_COLOR)",
        &[BLEND_SRC, BLEND_DST, VERTEX_ARRAY],
    ),
    (
        "ARB_tessellation_shader (GL 4.0): whether primitive restart applies to patches \
         (Vulkan's primitiveTopologyPatchListRestart) is not asked of the backends",
        &[PRIMITIVE_RESTART_FOR_PATCHES_SUPPORTED],
    ),
    (
        "EXT_memory_object's device UUIDs: memory objects import Vulkan memory, which only \
         the Vulkan backend carries out, and this comparison runs on GLES",
        &[NUM_DEVICE_UUIDS_EXT, DEVICE_UUID_EXT, DRIVER_UUID_EXT],
    ),
];

/// Pnames both answer where Tessera's value is its own, grouped by the reason.
const OWN_VALUES: &[(&str, &[GLenum])] = &[
    (
        "Tessera is a 3.3 core context with its own extension list",
        &[MAJOR_VERSION, MINOR_VERSION, NUM_EXTENSIONS],
    ),
    (
        "GL 4.3's GLSL version list: Tessera lists the desktop versions up to its own (GLSL \
         3.30 .. 1.10), native those up to 4.50; both then list the ES ones they compile \
         (native also 3.10 ES and 3.20 ES, with ARB_ES3_1/3_2_compatibility)",
        &[NUM_SHADING_LANGUAGE_VERSIONS],
    ),
    (
        "ARB_gl_spirv (GL 4.6): the SPIR-V extensions the backend carries out \
         (SPV_KHR_shader_draw_parameters where draw parameters are, not on GLES), not llvmpipe's",
        &[NUM_SPIR_V_EXTENSIONS],
    ),
    (
        "GL 3.3 requires no compressed format to be listed (RGTC is generic)",
        &[NUM_COMPRESSED_TEXTURE_FORMATS, COMPRESSED_TEXTURE_FORMATS],
    ),
    (
        "multisample images are not carried out (ARB_shader_image_load_store): no image unit \
         takes a multisample texture",
        &[MAX_IMAGE_SAMPLES],
    ),
    (
        "program binaries are Tessera's own format (engine::program::binary::FORMAT), not Mesa's",
        &[PROGRAM_BINARY_FORMATS],
    ),
    (
        "the default framebuffer's buffer is BACK (Mesa names a single-buffered pbuffer's FRONT)",
        &[READ_BUFFER],
    ),
    (
        "stencil masks start as all ones (GL 3.3 table 6.22; Mesa starts them at 255)",
        &[
            STENCIL_VALUE_MASK,
            STENCIL_WRITEMASK,
            STENCIL_BACK_VALUE_MASK,
            STENCIL_BACK_WRITEMASK,
        ],
    ),
    (
        "limits every backend honours (GL 3.3's minimums, or the common floor of OpenGL ES \
         3.0 and Vulkan), not llvmpipe's",
        &[
            LINE_WIDTH_RANGE,
            LINE_WIDTH_GRANULARITY,
            ALIASED_LINE_WIDTH_RANGE,
            POINT_SIZE_GRANULARITY,
            SUBPIXEL_BITS,
            MAX_ELEMENTS_VERTICES,
            MAX_ELEMENTS_INDICES,
            MAX_TEXTURE_LOD_BIAS,
            MAX_TEXTURE_IMAGE_UNITS,
            MAX_VERTEX_TEXTURE_IMAGE_UNITS,
            MAX_GEOMETRY_TEXTURE_IMAGE_UNITS,
            MAX_COMBINED_TEXTURE_IMAGE_UNITS,
            MAX_VERTEX_UNIFORM_COMPONENTS,
            MAX_FRAGMENT_UNIFORM_COMPONENTS,
            MAX_GEOMETRY_UNIFORM_COMPONENTS,
            MAX_VARYING_COMPONENTS,
            MAX_GEOMETRY_OUTPUT_VERTICES,
            MIN_PROGRAM_TEXEL_OFFSET,
            MAX_PROGRAM_TEXEL_OFFSET,
            MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS,
            MAX_TEXTURE_BUFFER_SIZE,
            MAX_VERTEX_UNIFORM_BLOCKS,
            MAX_GEOMETRY_UNIFORM_BLOCKS,
            MAX_FRAGMENT_UNIFORM_BLOCKS,
            MAX_COMBINED_UNIFORM_BLOCKS,
            MAX_UNIFORM_BUFFER_BINDINGS,
            MAX_UNIFORM_BLOCK_SIZE,
            MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS,
            MAX_COMBINED_GEOMETRY_UNIFORM_COMPONENTS,
            MAX_COMBINED_FRAGMENT_UNIFORM_COMPONENTS,
            UNIFORM_BUFFER_OFFSET_ALIGNMENT,
            MAX_COMPUTE_UNIFORM_BLOCKS,
            MAX_COMPUTE_TEXTURE_IMAGE_UNITS,
            MAX_COMPUTE_UNIFORM_COMPONENTS,
            MAX_COMBINED_COMPUTE_UNIFORM_COMPONENTS,
            MAX_TESS_CONTROL_UNIFORM_COMPONENTS,
            MAX_TESS_EVALUATION_UNIFORM_COMPONENTS,
            MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS,
            MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS,
            MAX_TESS_CONTROL_UNIFORM_BLOCKS,
            MAX_TESS_EVALUATION_UNIFORM_BLOCKS,
            MAX_COMBINED_TESS_CONTROL_UNIFORM_COMPONENTS,
            MAX_COMBINED_TESS_EVALUATION_UNIFORM_COMPONENTS,
        ],
    ),
    (
        "a program's storage blocks share the wire's 16 storage slots (what llvmpipe and \
         lavapipe give one stage), not Mesa's 80 (the 80 binding points are the client's)",
        &[MAX_COMBINED_SHADER_STORAGE_BLOCKS],
    ),
    (
        "read at a different moment (nanoseconds; only the clamped integer view agrees)",
        &[TIMESTAMP],
    ),
];

/// `(pname, limit, divisor)`: `pname` is `limit / divisor` on both sides (the `*_VECTORS`
/// forms count vec4s of a component limit).
const DERIVED: &[(GLenum, GLenum, i64)] = &[
    (MAX_VARYING_VECTORS, MAX_VARYING_COMPONENTS, 4),
    (MAX_VERTEX_UNIFORM_VECTORS, MAX_VERTEX_UNIFORM_COMPONENTS, 4),
    (
        MAX_FRAGMENT_UNIFORM_VECTORS,
        MAX_FRAGMENT_UNIFORM_COMPONENTS,
        4,
    ),
];

/// The candidates: every enum of GL 1.0 through 4.6, one name per value, without the mask
/// bits (`COLOR_BUFFER_BIT` shares its value with compatibility state).
fn candidates() -> Vec<(&'static str, GLenum)> {
    let source = include_str!("../../../components/src/gl.rs");
    let mut seen = std::collections::BTreeSet::new();
    let list: Vec<_> = source
        .lines()
        .filter_map(|l| {
            let (name, value) = l.strip_prefix("pub const ")?.split_once(": GLenum = 0x")?;
            let value = GLenum::from_str_radix(value.strip_suffix(';')?, 16).ok()?;
            (!name.ends_with("_BIT") && seen.insert(value)).then_some((name, value))
        })
        .collect();
    assert!(list.len() > 1000, "components/src/gl.rs lists GL 1.0-4.6");
    list
}

/// Sentinels: values the queries leave alone past a pname's length.
const SENTINEL_I: GLint = -77_777;
const SENTINEL_F: GLfloat = -77_777.0;

/// One pname's answer through `glGetIntegerv` and `glGetFloatv`.
#[derive(Clone, Debug, PartialEq)]
struct Answer {
    /// The errors the two queries raised.
    errors: [GLenum; 2],
    /// The values written (up to the first sentinel).
    ints: Vec<GLint>,
    floats: Vec<GLfloat>,
}

impl Answer {
    fn answered(&self) -> bool {
        self.errors == [NO_ERROR; 2]
    }
}

fn ask(gl: &mut dyn Gl, pname: GLenum) -> Answer {
    let mut ints = [SENTINEL_I; 16];
    gl.get_integerv(pname, &mut ints);
    let int_error = gl.get_error();
    let mut floats = [SENTINEL_F; 16];
    gl.get_floatv(pname, &mut floats);
    let float_error = gl.get_error();
    Answer {
        errors: [int_error, float_error],
        ints: ints
            .iter()
            .copied()
            .take_while(|v| *v != SENTINEL_I)
            .collect(),
        floats: floats
            .iter()
            .copied()
            .take_while(|v| *v != SENTINEL_F)
            .collect(),
    }
}

fn listed(list: &[(&'static str, &[GLenum])], pname: GLenum) -> Option<&'static str> {
    list.iter()
        .find(|(_, pnames)| pnames.contains(&pname))
        .map(|(reason, _)| *reason)
}

#[test]
fn tessera_answers_every_pname_the_native_driver_answers() {
    let candidates = candidates();
    // Native first, and gone before Tessera starts: the in-process GLES backend makes its
    // own context current on this thread.
    let native: Vec<Answer> = {
        let mut gl = NativeGl::new(16, 16).expect("native desktop GL through the system EGL");
        candidates.iter().map(|(_, p)| ask(&mut gl, *p)).collect()
    };
    let mut ctx = tessera_tests::differential::tessera(TransportKind::Inproc, 16, 16);
    let tessera: Vec<Answer> = candidates.iter().map(|(_, p)| ask(&mut ctx, *p)).collect();
    let value = |answers: &[Answer], pname: GLenum| {
        let i = candidates.iter().position(|(_, p)| *p == pname)?;
        answers[i].ints.first().copied().map(i64::from)
    };

    let mut problems = Vec::new();
    for (((name, pname), n), t) in candidates.iter().zip(&native).zip(&tessera) {
        let unsupported = listed(UNSUPPORTED, *pname);
        match (n.answered(), t.answered(), unsupported) {
            (true, true, None) => {}
            (true, true, Some(_)) => problems.push(format!(
                "{name} ({pname:#x}) is answered now: remove it from UNSUPPORTED"
            )),
            (true, false, Some(_)) => {
                if t.errors != [INVALID_ENUM; 2] || !t.ints.is_empty() || !t.floats.is_empty() {
                    problems.push(format!("{name}: unsupported but {t:?}"));
                }
                continue;
            }
            (true, false, None) => {
                problems.push(format!(
                    "{name} ({pname:#x}): native answers {:?}, Tessera raises {:#x}/{:#x}",
                    n.ints, t.errors[0], t.errors[1]
                ));
                continue;
            }
            (false, _, Some(_)) => {
                problems.push(format!(
                    "{name} ({pname:#x}): native no longer answers it: remove it from UNSUPPORTED"
                ));
                continue;
            }
            (false, true, None) => {
                problems.push(format!(
                    "{name} ({pname:#x}): Tessera answers {:?}, native raises {:#x}/{:#x}",
                    t.ints, n.errors[0], n.errors[1]
                ));
                continue;
            }
            (false, false, None) => continue,
        }
        // Both answer: the same values, unless derived or Tessera's own.
        if let Some((_, limit, divisor)) = DERIVED.iter().find(|(p, ..)| p == pname) {
            for (side, answers) in [("native", &native), ("Tessera", &tessera)] {
                let (v, l) = (value(answers, *pname), value(answers, *limit));
                if v.is_none() || v != l.map(|l| l / divisor) {
                    problems.push(format!(
                        "{name} on {side}: {v:?}, not {limit:#x} ({l:?}) / {divisor}"
                    ));
                }
            }
            continue;
        }
        let same = n.ints == t.ints && n.floats == t.floats;
        match (same, listed(OWN_VALUES, *pname)) {
            (true, None) => {}
            (false, Some(_)) => {}
            (true, Some(_)) if *pname == TIMESTAMP => {}
            (true, Some(_)) => problems.push(format!(
                "{name} ({pname:#x}) agrees with native ({:?}): remove it from OWN_VALUES",
                n.ints
            )),
            (false, None) => problems.push(format!(
                "{name} ({pname:#x}): native {:?} / {:?}, Tessera {:?} / {:?}",
                n.ints, n.floats, t.ints, t.floats
            )),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_lists_name_candidates_once() {
    let candidates = candidates();
    let mut all: Vec<GLenum> = UNSUPPORTED
        .iter()
        .chain(OWN_VALUES)
        .flat_map(|(_, pnames)| pnames.iter().copied())
        .chain(DERIVED.iter().map(|(p, ..)| *p))
        .collect();
    for p in &all {
        assert!(
            candidates.iter().any(|(_, c)| c == p),
            "{p:#x} is no candidate"
        );
    }
    let n = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), n, "a pname is listed twice");
}

#[test]
fn every_extension_tessera_advertises_is_one_the_native_core_context_advertises() {
    let native = NativeGl::new(16, 16)
        .expect("native desktop GL through the system EGL")
        .extensions();
    let mut ctx = tessera_tests::differential::tessera(TransportKind::Inproc, 16, 16);
    let n = ctx.get_integer(NUM_EXTENSIONS) as GLuint;
    let ours: Vec<String> = (0..n)
        .map(|i| ctx.get_stringi(EXTENSIONS, i).expect("an extension"))
        .collect();
    // The EXT extensions GL 3.3 contains that Mesa advertises in core contexts.
    for e in [
        "GL_EXT_texture_integer",
        "GL_EXT_texture_array",
        "GL_EXT_texture_swizzle",
        "GL_EXT_provoking_vertex",
    ] {
        assert!(
            ours.iter().any(|o| o == e),
            "Tessera does not advertise {e}"
        );
    }
    let missing: Vec<_> = ours.iter().filter(|e| !native.contains(e)).collect();
    assert_eq!(
        missing, OWN_EXTENSIONS,
        "advertised by Tessera, not by native"
    );
}

/// Extensions Tessera advertises that Mesa lists in compatibility contexts only: GL 3.3
/// core contains both (floating-point colour buffers, occlusion queries), and programs
/// written for 3.0 look for them.
const OWN_EXTENSIONS: &[&str] = &["GL_ARB_color_buffer_float", "GL_ARB_occlusion_query"];
