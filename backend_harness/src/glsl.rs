//! Shaders: Vulkan GLSL 450 compiled to SPIR-V by `glslangValidator`, and the sources the
//! scenes share.
//!
//! Every shader follows the binding contract of `ProgramDesc`: set 0, binding 0 the default
//! block, then the samplers, then the uniform blocks.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

use tessera_wire::format::ShaderStage;

/// Compiles Vulkan GLSL for `stage` to SPIR-V bytes with glslangValidator.
///
/// # Panics
/// When glslangValidator is missing or refuses the source (its log is the message): a scene
/// with a shader that does not compile is a broken test, not a backend failure.
pub fn spirv(stage: ShaderStage, source: &str) -> Vec<u8> {
    // One file pair per call: tests of one binary compile in parallel.
    static N: AtomicU32 = AtomicU32::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir: PathBuf =
        std::env::temp_dir().join(format!("tessera-harness-spv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // glslangValidator infers the stage from the file's ending.
    let ending = match stage {
        ShaderStage::Vertex => "vert",
        ShaderStage::Geometry => "geom",
        ShaderStage::Fragment => "frag",
        ShaderStage::Compute => "comp",
        ShaderStage::TessControl => "tesc",
        ShaderStage::TessEvaluation => "tese",
    };
    let src = dir.join(format!("s{n}.{ending}"));
    let out = dir.join(format!("s{n}.spv"));
    std::fs::write(&src, source).expect("write shader");
    let run = Command::new("glslangValidator")
        .args(["-V", "-o"])
        .arg(&out)
        .arg(&src)
        .output()
        .expect("glslangValidator (Debian glslang-tools) runs");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stdout)
    );
    std::fs::read(&out).expect("read SPIR-V")
}

/// A vertex stage for `pos` at location 0, moved by the default block's `offset` (z too).
pub const SOLID_VS: &str = r"#version 450
layout(location = 0) in vec2 pos;
layout(std140, set = 0, binding = 0) uniform DefaultBlock { vec4 color; vec4 offset; };
void main() { gl_Position = vec4(pos + offset.xy, offset.z, 1.0); }
";

/// The default block's `color`, everywhere.
pub const SOLID_FS: &str = r"#version 450
layout(location = 0) out vec4 o;
layout(std140, set = 0, binding = 0) uniform DefaultBlock { vec4 color; vec4 offset; };
void main() { o = color; }
";

/// `pos` at location 0 and `uv` at location 1, passed on.
pub const TEXTURED_VS: &str = r"#version 450
layout(location = 0) in vec2 pos;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec2 v_uv;
void main() { v_uv = uv; gl_Position = vec4(pos, 0.0, 1.0); }
";

/// One sampler (binding 1) and one uniform block (binding 2) added to what it samples.
pub const TEXTURED_FS: &str = r"#version 450
layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 o;
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(std140, set = 0, binding = 2) uniform Extra { vec4 add; } extra;
void main() { o = texture(tex, v_uv) + extra.add; }
";

/// `pos` at location 0 as it is, nothing else.
pub const POSITION_VS: &str = r"#version 450
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
";
