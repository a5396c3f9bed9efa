//! Geometry scenes: geometry stages, instancing, generic attributes, primitive restart and
//! unaligned vertex arrays (shared), each also on the floor, where fans and loops are
//! emulated; and points, line loops and fans, native and emulated.

use tessera_backend_harness::{BLACK, GREEN, SOLID_FS, SOLID_VS, floats};
use tessera_wire::TransportKind;
use tessera_wire::format::Topology;
use tessera_wire::record::Record;

use super::{floor, vk, with};

tessera_backend_harness::shared_scenes!(vk => geometry);

tessera_backend_harness::scene_tests!(floor() => geometry:
    geometry_stage_on_the_floor = geometry_stage,
    instances_generic_attributes_and_restart_on_the_floor = instances,
    // Indexed line loops and fans emulated by GPU index copies.
    indexed_emulations_and_unaligned_arrays_on_the_floor = indexed_emulations,
);

/// Points of a set size (GLES ignores `SetPointSize`: its point size comes from the SPIR-V),
/// and line loops and fans, native and on the floor.
#[test]
fn points_lines_loops_and_fans() {
    for floor in [false, true] {
        let (mut s, _) = with(TransportKind::Inproc, floor);
        s.clear([0.0, 0.0, 0.0, 1.0]);
        s.program(SOLID_VS, SOLID_FS, 32, 0, 0);
        // A point of size 4 at the centre, without PROGRAM_POINT_SIZE.
        let vb = s.buffer(&floats(&[0.0, 0.0]));
        s.vertices(vb, &[(2, 8, 0)]);
        s.push(Record::SetPointSize { size: 4.0 });
        s.uniforms([1.0, 1.0, 0.0, 1.0], [0.0; 4]);
        s.draw(Topology::Points, 1);
        let yellow = [255, 255, 0, 255];
        s.expect_pixels(&[(31, 31, yellow), (33, 33, yellow), (35, 35, BLACK)]);
        // A line loop around a square whose edges run through pixel centres (16.5 and
        // 47.5): the closing edge (left side) is drawn, as is the right, not the inside.
        let e = 15.5 / 32.0;
        let vb = s.buffer(&floats(&[-e, -e, e, -e, e, e, -e, e]));
        s.vertices(vb, &[(2, 8, 0)]);
        s.clear([0.0, 0.0, 0.0, 1.0]);
        s.uniforms([0.0, 1.0, 0.0, 1.0], [0.0; 4]);
        s.draw(Topology::LineLoop, 4);
        s.expect_pixels(&[(16, 32, GREEN), (47, 32, GREEN), (32, 32, BLACK)]);
        // The same square as a fan fills it.
        s.clear([0.0, 0.0, 0.0, 1.0]);
        s.draw(Topology::TriangleFan, 4);
        s.expect_pixels(&[(32, 32, GREEN), (20, 44, GREEN), (4, 4, BLACK)]);
        s.finish();
    }
}
