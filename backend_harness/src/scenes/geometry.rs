//! Geometry scenes: geometry stages, instancing, generic attributes, primitive restart,
//! indexed line loops and fans, and unaligned vertex arrays.

use tessera_wire::Record;
use tessera_wire::format::{IndexType, ShaderStage, Topology};
use tessera_wire::state::DepthStencilState;

use crate::{BLACK, GREEN, SOLID_FS, SOLID_VS, Scene, WHITE, f32_attrib, floats, u16s, u32s};

/// The colour [`instances`] and [`base_vertex`] draw with.
const CYAN: [u8; 4] = [0, 255, 255, 255];

/// A geometry stage that passes triangles through, moved right by 0.5, drawn with a depth
/// test at z = -0.5: visible only if GL's clip-space depth is honoured at each EmitVertex.
pub fn geometry_stage(mut s: Scene) {
    let gs = r"#version 450
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(std140, set = 0, binding = 0) uniform DefaultBlock { vec4 color; vec4 offset; };
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position + vec4(0.5, 0.0, 0.0, 0.0);
        EmitVertex();
    }
    EndPrimitive();
}
";
    let stages = [
        (ShaderStage::Vertex, SOLID_VS),
        (ShaderStage::Geometry, gs),
        (ShaderStage::Fragment, SOLID_FS),
    ];
    s.program_of(&stages, 32, 0, 0);
    let vb = s.buffer(&floats(&[-0.5, -0.5, 0.5, -0.5, 0.0, 0.5]));
    s.vertices(vb, &[(2, 8, 0)]);
    s.clear([0.0, 0.0, 0.0, 1.0]);
    s.depth_stencil(DepthStencilState {
        depth_test: true,
        ..DepthStencilState::default()
    });
    s.uniforms([1.0, 1.0, 1.0, 1.0], [0.0, 0.0, -0.5, 0.0]);
    s.draw(Topology::Triangles, 3);
    s.expect_pixels(&[(48, 32, WHITE), (16, 32, BLACK)]);
    s.finish();
}

/// A quad drawn as two strips split by a restart index, twice (attribute 1 is per instance),
/// coloured by a disabled attribute's generic value.
pub fn instances(mut s: Scene) {
    // Attribute 1 is per instance (x offset); attribute 2 is disabled and reads the
    // generic value (the colour).
    let vs = r"#version 450
layout(location = 0) in vec2 pos;
layout(location = 1) in float shift;
layout(location = 2) in vec4 color;
layout(location = 0) out vec4 v_color;
void main() { v_color = color; gl_Position = vec4(pos.x * 0.25 + shift, pos.y * 0.25, 0.0, 1.0); }
";
    let fs = r"#version 450
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o;
void main() { o = v_color; }
";
    s.program(vs, fs, 0, 0, 0);
    // A quad as a strip of 4 vertices, drawn as two strips split by a restart index.
    let quad = s.buffer(&floats(&[-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]));
    let shifts = s.buffer(&floats(&[-0.5, 0.5]));
    let cso = s.vertex_layout(&[f32_attrib(2, 8, 0), f32_attrib(1, 4, 1)]);
    s.push(Record::BindVertexLayout { cso });
    for (slot, buffer) in [(0, quad), (1, shifts)] {
        s.push(Record::SetVertexBuffer {
            slot,
            buffer: Some(buffer),
            offset: 0,
        });
    }
    s.push(Record::SetGenericAttrib {
        index: 2,
        value: [0.0f32, 1.0, 1.0, 1.0].map(f32::to_bits),
    });
    // Strip 0,1,2 then restart then 1,2,3: the whole quad, twice (instances).
    let ib = s.buffer(&u16s(&[0, 1, 2, 0xffff, 1, 2, 3]));
    s.push(Record::SetIndexBuffer { buffer: Some(ib) });
    s.push(Record::SetPrimitiveRestart {
        enabled: true,
        index: 0xffff,
        fixed: false,
    });
    s.clear([0.0, 0.0, 0.0, 1.0]);
    s.draw_indexed(Topology::TriangleStrip, IndexType::U16, 7, 2);
    // Instance 0, instance 1, the upper right half of instance 0's quad (the second strip),
    // and between the instances.
    s.expect_pixels(&[
        (16, 32, CYAN),
        (48, 32, CYAN),
        (21, 36, CYAN),
        (32, 32, BLACK),
    ]);
    s.finish();
}

/// Indexed line loops and fans (emulated by index copies where the device lacks them) from
/// a vertex array whose offset and stride are not multiples of its component size.
pub fn indexed_emulations(mut s: Scene) {
    s.program(SOLID_VS, SOLID_FS, 32, 0, 0);
    // Positions as 9-byte records: one pad byte, then two f32 (unaligned for floats).
    let e = 15.5 / 32.0;
    let mut bytes = Vec::new();
    for p in [[-e, -e], [e, -e], [e, e], [-e, e]] {
        bytes.push(0xaa);
        bytes.extend(floats(&p));
    }
    let vb = s.buffer(&bytes);
    s.push(Record::SetVertexBuffer {
        slot: 0,
        buffer: Some(vb),
        offset: 1,
    });
    let cso = s.layout(&[(2, 9)]);
    s.push(Record::BindVertexLayout { cso });
    let ib = s.buffer(&u32s(&[0, 1, 2, 3]));
    s.push(Record::SetIndexBuffer { buffer: Some(ib) });
    s.uniforms([0.0, 1.0, 0.0, 1.0], [0.0; 4]);
    s.clear([0.0, 0.0, 0.0, 1.0]);
    s.draw_indexed(Topology::LineLoop, IndexType::U32, 4, 1);
    // The closing edge (left side) is drawn; the inside is not.
    s.expect_pixels(&[(16, 32, GREEN), (32, 32, BLACK)]);
    s.clear([0.0, 0.0, 0.0, 1.0]);
    s.draw_indexed(Topology::TriangleFan, IndexType::U32, 4, 1);
    s.expect_pixels(&[(32, 32, GREEN), (44, 20, GREEN)]);
    s.finish();
}

/// Indexed draws with a nonzero base vertex: a quad as two restarted strips drawn twice
/// (attribute 1 per instance, which the base vertex must not move) from vertices 4..8 of
/// its buffer, then a triangle of 8-bit indices from vertices 2..5 with a negative base.
pub fn base_vertex(mut s: Scene) {
    let vs = r"#version 450
layout(location = 0) in vec2 pos;
layout(location = 1) in float shift;
layout(location = 0) out vec4 v_color;
void main() { v_color = vec4(0.0, 1.0, 1.0, 1.0); gl_Position = vec4(pos.x * 0.25 + shift, pos.y * 0.25, 0.0, 1.0); }
";
    let fs = r"#version 450
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o;
void main() { o = v_color; }
";
    s.program(vs, fs, 0, 0, 0);
    // Four vertices far outside the viewport, then the quad: index i draws vertex i + 4.
    let far = [9.0, 9.0];
    let mut points = [far; 4].concat();
    points.extend([-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]);
    let quad = s.buffer(&floats(&points));
    // Instance 0 at -0.5, instance 1 at 0.5; entries past 2 would be drawn were the
    // per-instance attribute moved by the base vertex.
    let shifts = s.buffer(&floats(&[-0.5, 0.5, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0]));
    let cso = s.vertex_layout(&[f32_attrib(2, 8, 0), f32_attrib(1, 4, 1)]);
    s.push(Record::BindVertexLayout { cso });
    for (slot, buffer) in [(0, quad), (1, shifts)] {
        s.push(Record::SetVertexBuffer {
            slot,
            buffer: Some(buffer),
            offset: 0,
        });
    }
    let ib = s.buffer(&u16s(&[0, 1, 2, 0xffff, 1, 2, 3]));
    s.push(Record::SetIndexBuffer { buffer: Some(ib) });
    s.push(Record::SetPrimitiveRestart {
        enabled: true,
        index: 0xffff,
        fixed: false,
    });
    s.clear([0.0, 0.0, 0.0, 1.0]);
    s.push(Record::DrawIndexed {
        topology: Topology::TriangleStrip,
        index_type: IndexType::U16,
        offset: 0,
        count: 7,
        instances: 2,
        base_vertex: 4,
        base_instance: 0,
    });
    s.expect_pixels(&[
        (16, 32, CYAN),
        (48, 32, CYAN),
        (21, 36, CYAN),
        (32, 32, BLACK),
    ]);
    // 8-bit indices 6, 7, 9 with base -2: vertices 4, 5, 7 (the quad's lower right half),
    // restart off, once.
    s.push(Record::SetPrimitiveRestart {
        enabled: false,
        index: 0,
        fixed: false,
    });
    let ib8 = s.buffer(&[6, 7, 9]);
    s.push(Record::SetIndexBuffer { buffer: Some(ib8) });
    s.clear([0.0, 0.0, 0.0, 1.0]);
    s.push(Record::DrawIndexed {
        topology: Topology::Triangles,
        index_type: IndexType::U8,
        offset: 0,
        count: 3,
        instances: 1,
        base_vertex: -2,
        base_instance: 0,
    });
    // Instance 0's quad spans x 8..24, y 24..40: its lower right half is drawn, not the
    // upper left.
    s.expect_pixels(&[(22, 27, CYAN), (10, 38, BLACK), (48, 32, BLACK)]);
    s.finish();
}
