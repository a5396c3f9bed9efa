//! Group votes (`ARB_shader_group_vote`, GL 4.6) against the native driver on both backends
//! (Vulkan with the validation layer on, which must report nothing): `anyInvocationARB`,
//! `allInvocationsARB` and `allInvocationsEqualARB` in compute, vertex and fragment shaders
//! of GLSL 1.50 and 4.30, over values every invocation of a draw or dispatch shares (uniforms,
//! constants, the work group), where every grouping of invocations gives the same answer, so
//! the values must be exactly the native ones. The Vulkan backend votes over lavapipe's
//! subgroups (`VK_EXT_shader_subgroup_vote`), and one invocation at a time on the Vulkan 1.1
//! floor, as the GLES backend does.

use tessera_engine::Context;
use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::{link_program, link_stages};

const SIZE: i32 = 8;

/// The extensions a context advertises.
fn advertised(ctx: &mut Context) -> Vec<String> {
    (0..ctx.get_integer(NUM_EXTENSIONS) as GLuint)
        .filter_map(|i| ctx.get_stringi(EXTENSIONS, i))
        .collect()
}

#[test]
fn group_vote_is_advertised_on_both_backends() {
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        let names = advertised(&mut ctx);
        assert!(
            names.iter().any(|e| e == "GL_ARB_shader_group_vote"),
            "{}: {names:?}",
            backend.name()
        );
    }
}

/// 2 x 2 work groups of 8 x 4 invocations: each writes its votes on the uniform `k`, on
/// constants and on its work group as bits of one word.
const CS: &str = "#version 430
#extension GL_ARB_shader_group_vote : require
layout(local_size_x = 8, local_size_y = 4) in;
layout(std430, binding = 0) buffer Out { uint r[]; };
uniform int k;
void main() {
    uint i = gl_GlobalInvocationID.y * 16u + gl_GlobalInvocationID.x;
    bool g = gl_WorkGroupID.x == 1u;
    uint v = 0u;
    v |= anyInvocationARB(k > 1) ? 1u : 0u;
    v |= allInvocationsARB(k > 2) ? 2u : 0u;
    v |= allInvocationsEqualARB(k > 3) ? 4u : 0u;
    v |= anyInvocationARB(true) ? 8u : 0u;
    v |= allInvocationsARB(false) ? 16u : 0u;
    v |= anyInvocationARB(g) ? 32u : 0u;
    v |= allInvocationsARB(g) ? 64u : 0u;
    v |= allInvocationsEqualARB(g) ? 128u : 0u;
    v |= allInvocationsEqualARB(k == 2 || g) ? 256u : 0u;
    if (k > 2) {
        v |= allInvocationsARB(k > 2) ? 512u : 0u;
    }
    r[i] = v;
}
";

/// The words each of the 128 invocations wrote, for `k` of 0 to 4.
fn compute(gl: &mut dyn Gl) -> (Vec<Vec<u32>>, GLenum) {
    let p = link_stages(gl, &[(COMPUTE_SHADER, CS)]);
    gl.use_program(p);
    let k = gl.get_uniform_location(p, "k");
    let b = gl.gen_buffer();
    gl.bind_buffer(SHADER_STORAGE_BUFFER, b);
    gl.buffer_data(SHADER_STORAGE_BUFFER, 4 * 128, None, DYNAMIC_COPY);
    gl.bind_buffer_base(SHADER_STORAGE_BUFFER, 0, b);
    let mut out = Vec::new();
    for value in 0..5 {
        gl.uniform1iv(k, &[value]);
        gl.dispatch_compute(2, 2, 1);
        gl.memory_barrier(BUFFER_UPDATE_BARRIER_BIT);
        let mut bytes = vec![0u8; 4 * 128];
        gl.get_buffer_sub_data(SHADER_STORAGE_BUFFER, 0, &mut bytes);
        out.push(
            bytes
                .chunks_exact(4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                .collect(),
        );
    }
    (out, gl.get_error())
}

/// piglit's shaders (GLSL 1.50 with the extension): the vertex stage votes on a uniform,
/// the fragment stage on another and on a constant.
const VS: &str = "#version 150
#extension GL_ARB_shader_group_vote : enable
uniform int a;
in vec2 pos;
out vec4 colour;
void main() {
    gl_Position = vec4(pos, 0.0, 1.0);
    colour = vec4(anyInvocationARB(a > 0) ? 1.0 : 0.0,
                  allInvocationsARB(a > 1) ? 1.0 : 0.0,
                  allInvocationsEqualARB(a == 1) && allInvocationsEqualARB(a != 1) ? 1.0 : 0.0,
                  1.0);
}
";

const FS: &str = "#version 150
#extension GL_ARB_shader_group_vote : enable
uniform int b;
in vec4 colour;
out vec4 o;
void main() {
    o = colour * vec4(1.0, 1.0, allInvocationsARB(b == 3) ? 1.0 : 0.5,
                      anyInvocationARB(b > 3) || allInvocationsARB(true) ? 1.0 : 0.25);
}
";

/// The frames of the quad for (a, b) of (0, 3), (1, 4), (2, 0).
fn draws(gl: &mut dyn Gl) -> (Vec<Vec<u8>>, GLenum) {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    let buf = gl.gen_buffer();
    gl.bind_buffer(ARRAY_BUFFER, buf);
    let bytes: Vec<u8> = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    gl.buffer_data(ARRAY_BUFFER, bytes.len(), Some(&bytes), STATIC_DRAW);
    let p = link_program(gl, VS, FS);
    gl.use_program(p);
    let pos = gl.get_attrib_location(p, "pos") as GLuint;
    gl.vertex_attrib_pointer(pos, 2, FLOAT, false, 0, 0);
    gl.enable_vertex_attrib_array(pos);
    let (a, b) = (
        gl.get_uniform_location(p, "a"),
        gl.get_uniform_location(p, "b"),
    );
    gl.viewport(0, 0, SIZE, SIZE);
    let mut frames = Vec::new();
    for (x, y) in [(0, 3), (1, 4), (2, 0)] {
        gl.uniform1iv(a, &[x]);
        gl.uniform1iv(b, &[y]);
        gl.clear_color(0.0, 0.0, 0.0, 0.0);
        gl.clear(COLOR_BUFFER_BIT);
        gl.draw_arrays(TRIANGLE_STRIP, 0, 4);
        let mut px = vec![0; (SIZE * SIZE * 4) as usize];
        gl.read_pixels(0, 0, SIZE, SIZE, RGBA, UNSIGNED_BYTE, &mut px);
        frames.push(px);
    }
    (frames, gl.get_error())
}

/// Runs `scene` natively and on both backends (inproc and thread), which must match.
fn compare<T: PartialEq + std::fmt::Debug>(scene: impl Fn(&mut dyn Gl) -> T) -> T {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = scene(&mut native);
    drop(native);
    for backend in Backend::ALL {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = scene(&mut ctx);
            ctx.finish();
            let events: Vec<Event> = ctx.take_events();
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
    expected
}

#[test]
fn votes_in_compute_shaders_match_the_native_driver() {
    let (words, error) = compare(compute);
    assert_eq!(error, NO_ERROR);
    // Every grouping gives these: the votes on k and on constants, those on the work group
    // (g true in work group x = 1), and all-equal of values each work group shares.
    let expected = |i: usize, k: i32| {
        let g = (i % 16) >= 8;
        let mut v = 4 | 8 | 128 | 256;
        if k > 1 {
            v |= 1;
        }
        if k > 2 {
            v |= 2 | 512;
        }
        if g {
            v |= 32 | 64;
        }
        v
    };
    for (k, w) in words.iter().enumerate() {
        for (i, &v) in w.iter().enumerate() {
            assert_eq!(v, expected(i, k as i32), "k {k}, invocation {i}");
        }
    }
}

/// The Vulkan backend on the Vulkan 1.1 floor (no `VK_EXT_shader_subgroup_vote`), where
/// each invocation votes alone: the same values, and no validation message (the module
/// keeps no vote, capability or extension the device was not given).
#[test]
fn single_invocation_votes_on_a_vulkan_device_without_subgroup_votes_match_the_native_driver() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = (compute(&mut native), draws(&mut native));
    drop(native);
    tessera_tests::ensure_runtime_dir();
    tessera_tests::ensure_lavapipe();
    let options = tessera_backend_vk::VkOptions {
        validation: true,
        floor: true,
        ..tessera_backend_vk::VkOptions::default()
    };
    let vk = tessera_backend_vk::VulkanBackend::with_options(&options)
        .expect("the Vulkan backend (lavapipe, vulkan-validationlayers) on this machine");
    let config = tessera_engine::Config {
        transport: TransportKind::Inproc,
        surface: Some(tessera_engine::SurfaceConfig::new(SIZE as u32, SIZE as u32)),
        ..tessera_engine::Config::default()
    };
    let mut ctx = Context::with_backend(&config, Box::new(vk));
    assert!(
        advertised(&mut ctx)
            .iter()
            .any(|e| e == "GL_ARB_shader_group_vote")
    );
    let got = (compute(&mut ctx), draws(&mut ctx));
    ctx.finish();
    let events: Vec<Event> = ctx.take_events();
    assert_eq!(got, expected);
    assert!(events.is_empty(), "{events:?}");
}

#[test]
fn votes_in_vertex_and_fragment_shaders_match_the_native_driver() {
    let (frames, error) = compare(draws);
    assert_eq!(error, NO_ERROR);
    assert_eq!(&frames[0][..4], &[0, 0, 255, 255]);
    assert_eq!(&frames[1][..4], &[255, 0, 128, 255]);
    assert_eq!(&frames[2][..4], &[255, 255, 128, 255]);
}

/// A shader that names the votes without enabling the extension fails to compile, as
/// natively, and the extension's macro is defined.
#[test]
fn votes_need_the_extension_before_glsl_460() {
    let check = |gl: &mut dyn Gl| -> Vec<i32> {
        let mut out = Vec::new();
        for src in [
            "#version 430\nout vec4 o;\nvoid main() {\n#ifdef GL_ARB_shader_group_vote\n    o = vec4(1.0);\n#else\n    o = vec4(notAFunction(1.0));\n#endif\n}\n",
            "#version 430\nuniform bool u;\nout vec4 o;\nvoid main() { o = vec4(anyInvocationARB(u)); }\n",
            "#version 430\n#extension GL_ARB_shader_group_vote : disable\nuniform bool u;\nout vec4 o;\nvoid main() { o = vec4(allInvocationsARB(u)); }\n",
        ] {
            let s = gl.create_shader(FRAGMENT_SHADER);
            gl.shader_source(s, src);
            gl.compile_shader(s);
            out.push(gl.get_shaderi(s, COMPILE_STATUS));
            gl.delete_shader(s);
        }
        out
    };
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = check(&mut native);
    drop(native);
    assert_eq!(expected, [TRUE as i32, FALSE as i32, FALSE as i32]);
    for backend in Backend::ALL {
        let mut ctx = tessera_on(backend, TransportKind::Inproc, SIZE, SIZE);
        assert_eq!(check(&mut ctx), expected, "{}", backend.name());
    }
}
