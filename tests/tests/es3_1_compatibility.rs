//! `GL_ARB_ES3_1_compatibility` (GL 4.5) against the native driver on both backends (Vulkan
//! with the validation layer on, which must report nothing): GLSL ES 3.10 shaders in a core
//! context (a compute shader with a storage block, shared memory, barriers and atomics; a
//! vertex and fragment program with explicit locations and bindings, arrays of arrays,
//! integer `mix()` and `gl_HelperInvocation`), `glMemoryBarrierByRegion`'s errors bit by bit,
//! `BACK` as a draw and read buffer, and `GL_SHADING_LANGUAGE_VERSION`'s list. Bytes, pixels
//! and errors must be exactly the native ones.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::{link_program, link_stages};

const SIZE: i32 = 8;

/// Advertised on both backends, and `"310 es"` listed before `"300 es"` as Mesa lists it.
#[test]
fn es3_1_compatibility_is_advertised_with_its_glsl_version() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        let names: Vec<String> = (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
            .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
            .collect();
        assert!(
            names.iter().any(|e| e == "GL_ARB_ES3_1_compatibility"),
            "{}: {names:?}",
            backend.name()
        );
        let versions: Vec<String> = (0..ctx.get_integer(NUM_SHADING_LANGUAGE_VERSIONS) as GLuint)
            .filter_map(|i| ctx.get_stringi(SHADING_LANGUAGE_VERSION, i))
            .collect();
        assert_eq!(
            versions[versions.len() - 3..],
            ["310 es", "300 es", "100"],
            "{}",
            backend.name()
        );
        assert_eq!(ctx.get_error(), NO_ERROR);
    }
}

const COMPUTE: &str = "#version 310 es
layout(local_size_x = 16) in;
layout(std430, binding = 2) buffer Data { uint values[64]; uint total; };
shared uint partial[16];
void main() {
    uint i = gl_LocalInvocationIndex;
    uint g = gl_WorkGroupID.x;
    partial[i] = values[g * 16u + i] * (i + 1u);
    barrier();
    if (i < 8u) { partial[i] += partial[i + 8u]; }
    barrier();
    if (i < 4u) { partial[i] += partial[i + 4u]; }
    barrier();
    if (i == 0u) {
        uint sum = partial[0] + partial[1] + partial[2] + partial[3];
        values[g * 16u] = sum;
        atomicAdd(total, sum);
    }
}
";

/// The compute shader over 64 values in four work groups; the buffer read back.
fn compute(gl: &mut dyn Gl) -> (Vec<u8>, GLenum) {
    let p = link_stages(gl, &[(COMPUTE_SHADER, COMPUTE)]);
    gl.use_program(p);
    let buf = gl.gen_buffer();
    gl.bind_buffer(SHADER_STORAGE_BUFFER, buf);
    let data: Vec<u8> = (0..65u32)
        .map(|i| if i == 64 { 7 } else { i * 3 + 1 })
        .flat_map(u32::to_le_bytes)
        .collect();
    gl.buffer_data(SHADER_STORAGE_BUFFER, data.len(), Some(&data), DYNAMIC_COPY);
    gl.bind_buffer_base(SHADER_STORAGE_BUFFER, 2, buf);
    gl.dispatch_compute(4, 1, 1);
    gl.memory_barrier(BUFFER_UPDATE_BARRIER_BIT);
    let mut out = vec![0; data.len()];
    gl.get_buffer_sub_data(SHADER_STORAGE_BUFFER, 0, &mut out);
    (out, gl.get_error())
}

const VS: &str = "#version 310 es
layout(location = 3) in vec2 pos;
out vec2 v;
void main() { v = pos; gl_Position = vec4(pos, 0.0, 1.0); }
";

const FS: &str = "#version 310 es
precision highp float;
in vec2 v;
layout(location = 0) out vec4 o;
layout(location = 5) uniform ivec2 pick;
layout(binding = 1) uniform sampler2D tex;
const float weights[2][2] = float[2][2](float[2](0.25, 0.5), float[2](0.75, 1.0));
void main() {
    ivec2 cell = ivec2(gl_FragCoord.xy) % 2;
    ivec2 m = mix(ivec2(1, 2), pick, bvec2(cell.x == 1, cell.y == 1));
    vec4 t = texture(tex, v * 0.5 + 0.5);
    o = vec4(weights[cell.x][cell.y], float(m.x) / 8.0, float(m.y) / 8.0,
             gl_HelperInvocation ? 0.0 : t.a);
}
";

/// The graphics program drawing a quad into an RGBA8 renderbuffer; the pixels read back.
fn graphics(gl: &mut dyn Gl) -> (Vec<u8>, GLenum) {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let buf = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, buf);
    let bytes: Vec<u8> = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    gl.vertex_attrib_pointer(3, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(3);
    let tex = gl.gen_texture();
    gl.active_texture(TEXTURE1);
    gl.bind_texture(TEXTURE_2D, tex);
    let texels: Vec<u8> = (0..4u8).flat_map(|i| [0, 0, 0, 60 * i + 15]).collect();
    gl.tex_image_2d(
        TEXTURE_2D,
        0,
        RGBA8 as GLint,
        2,
        2,
        0,
        RGBA,
        UNSIGNED_BYTE,
        Some(&texels),
    );
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as GLint);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as GLint);
    let fb = gl.gen_framebuffer();
    gl.bind_framebuffer(FRAMEBUFFER, fb);
    let rb = gl.gen_renderbuffer();
    gl.bind_renderbuffer(RENDERBUFFER, rb);
    gl.renderbuffer_storage(RENDERBUFFER, RGBA8, SIZE, SIZE);
    gl.framebuffer_renderbuffer(FRAMEBUFFER, COLOR_ATTACHMENT0, RENDERBUFFER, rb);
    gl.viewport(0, 0, SIZE, SIZE);
    let p = link_program(gl, VS, FS);
    gl.use_program(p);
    gl.uniform2iv(5, &[5, 7]);
    gl.clear_color(0.0, 0.0, 0.0, 0.0);
    gl.clear(COLOR_BUFFER_BIT);
    gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
    let mut px = vec![0; (SIZE * SIZE * 4) as usize];
    gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut px);
    (px, gl.get_error())
}

/// `glMemoryBarrierByRegion` of each single bit, of every bit and of the six it takes; the
/// error after each.
fn region_barriers(gl: &mut dyn Gl) -> Vec<GLenum> {
    let allowed = ATOMIC_COUNTER_BARRIER_BIT
        | FRAMEBUFFER_BARRIER_BIT
        | SHADER_IMAGE_ACCESS_BARRIER_BIT
        | SHADER_STORAGE_BARRIER_BIT
        | TEXTURE_FETCH_BARRIER_BIT
        | UNIFORM_BARRIER_BIT;
    (0..32)
        .map(|b| 1u32 << b)
        .chain([
            ALL_BARRIER_BITS,
            allowed,
            allowed | VERTEX_ATTRIB_ARRAY_BARRIER_BIT,
            0,
        ])
        .map(|bits| {
            gl.memory_barrier_by_region(bits);
            gl.get_error()
        })
        .collect()
}

/// `BACK` as a draw and read buffer (ES 3.1's name for the default framebuffer's colour
/// buffer, which GL 4.5 takes in `glDrawBuffers` too): `glDrawBuffers` and `glReadBuffer` of
/// it on the default framebuffer (accepted) and on a framebuffer object (`INVALID_ENUM` and
/// `INVALID_OPERATION`); the error and the draw or read buffer after each.
fn back_buffer(gl: &mut dyn Gl) -> Vec<GLint> {
    let mut out = Vec::new();
    let fb = gl.gen_framebuffer();
    for framebuffer in [0, fb] {
        gl.bind_framebuffer(FRAMEBUFFER, framebuffer);
        let mut v = [0];
        gl.draw_buffers(&[BACK]);
        out.push(gl.get_error() as GLint);
        gl.get_integerv(DRAW_BUFFER0, &mut v);
        out.push(v[0]);
        gl.read_buffer(BACK);
        out.push(gl.get_error() as GLint);
        gl.get_integerv(READ_BUFFER, &mut v);
        out.push(v[0]);
    }
    gl.bind_framebuffer(FRAMEBUFFER, 0);
    out
}

#[test]
fn back_as_a_draw_buffer_matches_the_native_driver() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = back_buffer(&mut native);
    drop(native);
    let (back, color0) = (BACK as GLint, COLOR_ATTACHMENT0 as GLint);
    let (enum_, operation) = (INVALID_ENUM as GLint, INVALID_OPERATION as GLint);
    assert_eq!(
        expected,
        [0, back, 0, back, enum_, color0, operation, color0]
    );
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        assert_eq!(back_buffer(&mut ctx), expected, "{}", backend.name());
    }
}

#[test]
fn glsl_es_3_10_programs_and_region_barriers_match_the_native_driver() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = (
        compute(&mut native),
        graphics(&mut native),
        region_barriers(&mut native),
    );
    drop(native);
    assert_eq!((expected.0.1, expected.1.1), (NO_ERROR, NO_ERROR));
    // The sums were written (not the values uploaded) and the total counted them.
    let word = |b: &[u8], i: usize| u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap());
    assert_ne!(word(&expected.0.0, 0), 1);
    assert_ne!(word(&expected.0.0, 64), 7);
    // Every cell of the 2x2 pattern differs, and the texture's alpha reached the pixels.
    let px = &expected.1.0;
    assert_ne!(px[..4], px[4..8]);
    assert!(px.chunks(4).any(|p| p[3] == 195));
    assert_eq!(
        expected.2.iter().filter(|&&e| e == NO_ERROR).count(),
        9,
        "six bits, all bits, their union and none"
    );
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx: Context = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let name = format!("{} {}", backend.name(), transport.name());
            assert_eq!(compute(&mut ctx), expected.0, "{name}: compute");
            assert_eq!(graphics(&mut ctx), expected.1, "{name}: graphics");
            assert_eq!(region_barriers(&mut ctx), expected.2, "{name}: barriers");
            ctx.finish();
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{name}: {events:?}");
        }
    }
}

/// What compiles as natively: GLSL ES 3.10 in every stage GL ES 3.1 has and in no other
/// (geometry and tessellation shaders need ES 3.2), with several layout qualifiers on one
/// declaration (which desktop GLSL takes from 4.20), and the extension's `#extension` line
/// and macro in desktop GLSL, where it brings `mix()` of booleans (GLSL 4.50's), which
/// GLSL 4.30 has not without it.
#[test]
fn es3_1_shaders_compile_where_the_native_driver_compiles_them() {
    let sources: [(GLenum, &str); 8] = [
        (
            FRAGMENT_SHADER,
            "#version 310 es\nprecision highp float;\nlayout(location = 1) layout(location = 0) out vec4 o;\nvoid main() { o = vec4(1.0); }\n",
        ),
        (
            GEOMETRY_SHADER,
            "#version 310 es\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\nvoid main() { EmitVertex(); }\n",
        ),
        (
            TESS_CONTROL_SHADER,
            "#version 310 es\nlayout(vertices = 3) out;\nvoid main() { }\n",
        ),
        (VERTEX_SHADER, VS),
        (FRAGMENT_SHADER, FS),
        (COMPUTE_SHADER, COMPUTE),
        (
            FRAGMENT_SHADER,
            "#version 430 core\n#extension GL_ARB_ES3_1_compatibility : require\nout vec4 o;\nvoid main() {\n#if GL_ARB_ES3_1_compatibility == 1\n    o = vec4(mix(bvec2(true), bvec2(false), bvec2(true, false)), gl_MaxCombinedShaderOutputResources, 1);\n#endif\n}\n",
        ),
        (
            FRAGMENT_SHADER,
            "#version 430 core\nout vec4 o;\nvoid main() { o = vec4(mix(bvec2(true), bvec2(false), bvec2(true, false)), 0, 1); }\n",
        ),
    ];
    let check = |gl: &mut dyn Gl| -> Vec<i32> {
        sources
            .iter()
            .map(|&(kind, src)| {
                let s = gl.create_shader(kind);
                gl.shader_source(s, src);
                gl.compile_shader(s);
                let status = gl.get_shaderi(s, COMPILE_STATUS);
                gl.delete_shader(s);
                status
            })
            .collect()
    };
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = check(&mut native);
    drop(native);
    let (t, f) = (TRUE as i32, FALSE as i32);
    assert_eq!(expected, [t, f, f, t, t, t, t, f]);
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        assert_eq!(check(&mut ctx), expected, "{}", backend.name());
    }
}
