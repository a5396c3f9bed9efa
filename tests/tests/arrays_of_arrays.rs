//! Arrays of arrays (`ARB_arrays_of_arrays`, GL 4.3) in a program's reflection against the
//! native driver on the GLES backend: the active uniforms of a default-block array of arrays and of a sampler array
//! of arrays (each innermost array a uniform of its own, `s[1][0]`) and their locations, in
//! GLSL 4.30 and in 1.50 with the extension. Arrays of arrays of blocks are left out:
//! GLSL ES has none (the GLES backend's translation would have to flatten them); the
//! shader crate's unit test covers their reflection. Vulkan's SPIR-V has neither arrays
//! of arrays of blocks nor of samplers (a Uniform or UniformConstant variable is one or an
//! array of one, and the validation layer refuses more), so the Vulkan backend is left
//! out until the link flattens them.

use tessera_engine::gl::*;
use tessera_engine::wire::{Event, TransportKind};
use tessera_tests::differential::{Backend, tessera_on};
use tessera_tests::gl::{Gl, NativeGl};
use tessera_tests::scenes::link_program;

const SIZE: i32 = 4;

const VS: &str = "#version 150
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
";

/// Every element read (with constant indices, as GLSL 1.50 wants for blocks), so that no
/// driver may trim an array.
const FS_BODY: &str = "
uniform float a[2][3];
uniform sampler2D s[2][2];
out vec4 o;
void main() {
    vec4 t = vec4(a[0][0] + a[0][1] + a[0][2] + a[1][0] + a[1][1] + a[1][2]);
    t += texture(s[0][0], vec2(0.5)) + texture(s[0][1], vec2(0.5));
    t += texture(s[1][0], vec2(0.5)) + texture(s[1][1], vec2(0.5));
    o = t;
}
";

const NAMES: &[&str] = &[
    "a", "a[0]", "a[0][0]", "a[0][2]", "a[1][0]", "a[1][2]", "a[1][3]", "s[0][0]", "s[0][1]",
    "s[1][0]", "s[1][1]", "s[2][0]",
];

const BLOCKS: &[&str] = &[
    "B", "B[0]", "B[0][0]", "B[0][2]", "B[1][0]", "B[1][2]", "B[2][0]",
];

/// Runs the transcript; returns its values, names and types.
fn transcript(gl: &mut dyn Gl) -> Vec<String> {
    let mut v = Vec::new();
    for head in [
        "#version 430 core\n",
        "#version 150\n#extension GL_ARB_arrays_of_arrays : require\n",
    ] {
        let fs = format!("{head}{FS_BODY}");
        let p = link_program(gl, VS, &fs);
        v.push(format!("link {}", gl.get_programi(p, LINK_STATUS)));
        let mut active: Vec<String> = (0..gl.get_programi(p, ACTIVE_UNIFORMS) as GLuint)
            .map(|i| {
                let (name, size, ty) = gl.get_active_uniform(p, i);
                format!("{name} {size} {ty:#x}")
            })
            .collect();
        // GL leaves the order of active uniforms to the implementation.
        active.sort();
        v.extend(active);
        for name in NAMES {
            let location = gl.get_uniform_location(p, name);
            v.push(format!("{name} {}", location >= 0));
        }
        let mut blocks: Vec<String> = (0..gl.get_programi(p, ACTIVE_UNIFORM_BLOCKS) as GLuint)
            .map(|i| {
                let mut size = [0];
                gl.get_active_uniform_blockiv(p, i, UNIFORM_BLOCK_DATA_SIZE, &mut size);
                format!("{} {}", gl.get_active_uniform_block_name(p, i), size[0])
            })
            .collect();
        blocks.sort();
        v.extend(blocks);
        for name in BLOCKS {
            let index = gl.get_uniform_block_index(p, name);
            v.push(format!("{name} {}", index != INVALID_INDEX));
        }
        v.push(format!("error {:#x}", gl.get_error()));
    }
    v
}

#[test]
fn arrays_of_arrays_reflect_as_in_the_native_driver() {
    let mut native = NativeGl::new(SIZE, SIZE).expect("native desktop GL through the system EGL");
    let expected = transcript(&mut native);
    drop(native);
    assert!(
        expected.contains(&"s[1][0] 2 0x8b5e".to_string()),
        "{expected:?}"
    );
    // Vulkan is left out: its SPIR-V has no arrays of arrays of samplers either (the
    // validation layer refuses them; the link would have to flatten them).
    for backend in [Backend::Gles] {
        for transport in [TransportKind::Inproc, TransportKind::Thread] {
            let mut ctx = tessera_on(backend, transport.clone(), SIZE, SIZE);
            let got = transcript(&mut ctx);
            assert_eq!(got, expected, "{} {}", backend.name(), transport.name());
            ctx.finish();
            let events: Vec<Event> = ctx.take_events();
            assert!(events.is_empty(), "{}: {events:?}", backend.name());
        }
    }
}
