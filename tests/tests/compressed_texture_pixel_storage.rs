//! Compressed block pixel storage (GL 4.2's `ARB_compressed_texture_pixel_storage`)
//! against the native driver on both backends (Vulkan with the validation layer on, which
//! must report nothing): the eight `*_COMPRESSED_BLOCK_*` values, set and refused, and BC7
//! blocks picked out of a larger grid of blocks by the row length, skipped pixels and rows
//! (from client memory and from a pixel unpack buffer) and by the image height and skipped
//! images (a 2D array), then fetched. Values, errors and pixels must be exactly the native
//! ones.

use tessera_engine::gl::*;

use super::texture_compression_bptc::{BptcGl, Frame, SIZE, bc7_blocks, compare, fetch_frame};

const PNAMES: [GLenum; 8] = [
    UNPACK_COMPRESSED_BLOCK_WIDTH,
    UNPACK_COMPRESSED_BLOCK_HEIGHT,
    UNPACK_COMPRESSED_BLOCK_DEPTH,
    UNPACK_COMPRESSED_BLOCK_SIZE,
    PACK_COMPRESSED_BLOCK_WIDTH,
    PACK_COMPRESSED_BLOCK_HEIGHT,
    PACK_COMPRESSED_BLOCK_DEPTH,
    PACK_COMPRESSED_BLOCK_SIZE,
];

/// The eight values, then each set to `3 + i`, then to -1 (`INVALID_VALUE`, keeping it).
fn transcript(gl: &mut dyn BptcGl) -> Vec<(GLint, GLenum)> {
    let mut out = Vec::new();
    let get = |gl: &mut dyn BptcGl, out: &mut Vec<(GLint, GLenum)>| {
        for p in PNAMES {
            let mut v = [-7];
            gl.get_integerv(p, &mut v);
            out.push((v[0], gl.get_error()));
        }
    };
    get(gl, &mut out);
    for (i, p) in PNAMES.into_iter().enumerate() {
        gl.pixel_storei(p, 3 + i as GLint);
        out.push((0, gl.get_error()));
        gl.pixel_storei(p, -1);
        out.push((0, gl.get_error()));
    }
    get(gl, &mut out);
    out
}

#[test]
fn block_pixel_storage_state_matches_the_native_driver() {
    let lines = compare(transcript);
    assert_eq!(lines[0], (0, NO_ERROR));
    assert_eq!(lines[9], (0, INVALID_VALUE));
    assert_eq!(lines[24], (3, NO_ERROR));
}

/// Sets the unpack state's compressed block to BC7's (4x4x1, 16 bytes) and the row length
/// and skips to `[row length, skip pixels, skip rows, image height, skip images]`.
fn unpack(gl: &mut dyn BptcGl, [row, pixels, rows, height, images]: [GLint; 5]) {
    for (p, v) in [
        (UNPACK_COMPRESSED_BLOCK_WIDTH, 4),
        (UNPACK_COMPRESSED_BLOCK_HEIGHT, 4),
        (UNPACK_COMPRESSED_BLOCK_DEPTH, 1),
        (UNPACK_COMPRESSED_BLOCK_SIZE, 16),
        (UNPACK_ROW_LENGTH, row),
        (UNPACK_SKIP_PIXELS, pixels),
        (UNPACK_SKIP_ROWS, rows),
        (UNPACK_IMAGE_HEIGHT, height),
        (UNPACK_SKIP_IMAGES, images),
    ] {
        gl.pixel_storei(p, v);
    }
}

/// A 16x16 BC7 image of 16 blocks; its middle 8x8 replaced by blocks 5, 6, 9 and 10 of a
/// grid of 4x4 blocks of client memory (row length 16, one block skipped each way); its
/// bottom-left block replaced by block 7 of the grid in a pixel unpack buffer; a skip that
/// is not a whole block refused. Returns the frame and the errors.
fn picked_blocks(gl: &mut dyn BptcGl) -> (Frame, Vec<GLenum>) {
    let f = COMPRESSED_RGBA_BPTC_UNORM;
    let grid = bc7_blocks();
    let mut reversed: Vec<u8> = grid.chunks(16).rev().flatten().copied().collect();
    reversed[0] ^= 0x80;
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, t);
    gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as GLint);
    gl.compressed_image_2d(TEXTURE_2D, 0, f, [SIZE, SIZE], 0, &grid);
    let mut errors = vec![gl.get_error()];
    unpack(gl, [16, 4, 4, 0, 0]);
    gl.compressed_sub_image_2d(TEXTURE_2D, 0, [4, 4, 8, 8], f, &reversed, 64);
    errors.push(gl.get_error());
    let pbo = gl.gen_buffer();
    gl.bind_buffer(PIXEL_UNPACK_BUFFER, pbo);
    gl.buffer_data(
        PIXEL_UNPACK_BUFFER,
        reversed.len(),
        Some(&reversed),
        STATIC_DRAW,
    );
    unpack(gl, [16, 12, 4, 0, 0]);
    gl.compressed_sub_image_2d_at(TEXTURE_2D, [0, 0, 4, 4], f, 16, 0);
    errors.push(gl.get_error());
    unpack(gl, [16, 5, 0, 0, 0]);
    gl.compressed_sub_image_2d_at(TEXTURE_2D, [0, 0, 4, 4], f, 16, 0);
    errors.push(gl.get_error());
    gl.bind_buffer(PIXEL_UNPACK_BUFFER, 0);
    unpack(gl, [0, 0, 0, 0, 0]);
    (fetch_frame(gl, "sampler2D", 0, 0), errors)
}

#[test]
fn row_length_and_skips_pick_blocks_as_on_the_native_driver() {
    let (frame, errors) = compare(picked_blocks);
    assert_eq!(errors, [NO_ERROR, NO_ERROR, NO_ERROR, INVALID_OPERATION]);
    let tight = compare(|gl| {
        let t = gl.gen_texture();
        gl.bind_texture(TEXTURE_2D, t);
        gl.tex_parameteri(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as GLint);
        let f = COMPRESSED_RGBA_BPTC_UNORM;
        gl.compressed_image_2d(TEXTURE_2D, 0, f, [SIZE, SIZE], 0, &bc7_blocks());
        fetch_frame(gl, "sampler2D", 0, 0)
    });
    assert_ne!(frame, tight, "the sub-images changed blocks");
}

/// A two-layer 8x8 BC7 array from a grid of three slices of 16x16 texels (image height
/// 16), the first skipped, one block skipped each way; layer 1 fetched.
fn picked_layers(gl: &mut dyn BptcGl) -> Frame {
    let f = COMPRESSED_RGBA_BPTC_UNORM;
    let mut grid = bc7_blocks();
    grid.extend(bc7_blocks().chunks(16).rev().flatten());
    grid.extend(bc7_blocks());
    let t = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D_ARRAY, t);
    gl.tex_parameteri(TEXTURE_2D_ARRAY, TEXTURE_MIN_FILTER, NEAREST as GLint);
    unpack(gl, [16, 4, 4, 16, 1]);
    gl.compressed_image_3d(TEXTURE_2D_ARRAY, 0, f, [8, 8, 2], &grid, 128);
    assert_eq!(gl.get_error(), NO_ERROR);
    unpack(gl, [0, 0, 0, 0, 0]);
    fetch_frame(gl, "sampler2DArray", 0, 1)
}

#[test]
fn image_height_and_skipped_images_pick_layers_as_on_the_native_driver() {
    let frame = compare(picked_layers);
    assert!(frame.has_colour());
}
