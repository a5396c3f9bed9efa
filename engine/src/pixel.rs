//! Pixel storage state (`glPixelStore`) and the packing of client pixel data.
//!
//! Records carry tightly packed rows; the unpack state (`UNPACK_ROW_LENGTH`, `_SKIP_*`,
//! `_ALIGNMENT`, `_IMAGE_HEIGHT`, `_SWAP_BYTES`) is applied here when an upload copies the
//! application's bytes into the stage, and the pack state when a read-back copies a reply
//! into the application's memory (GL 3.3 §3.7.4 and §4.3.2).

use bytemuck::Pod;
use tessera_components::gl::*;
use tessera_components::state::PixelStore;
use tessera_wire::format::{Format, FormatClass, PixelFormat, PixelLayout, PixelType};

use crate::context::Context;
use crate::get::Value;

/// Where an upload reads its pixels: GL's `const void *pixels`, which is client memory when
/// no `PIXEL_UNPACK_BUFFER` is bound and a byte offset into that buffer when one is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pixels<'a> {
    /// A null pointer: no data (client memory), or offset 0 (unpack buffer).
    None,
    /// Client memory (only meaningful with no unpack buffer bound).
    Bytes(&'a [u8]),
    /// An offset into the bound unpack buffer.
    Offset(usize),
}

impl<'a> From<&'a [u8]> for Pixels<'a> {
    fn from(bytes: &'a [u8]) -> Self {
        Pixels::Bytes(bytes)
    }
}

impl<'a> From<Option<&'a [u8]>> for Pixels<'a> {
    fn from(bytes: Option<&'a [u8]>) -> Self {
        bytes.map_or(Pixels::None, Pixels::Bytes)
    }
}

/// Where a read-back writes its pixels: client memory when no `PIXEL_PACK_BUFFER` is bound,
/// an offset into that buffer when one is.
#[derive(Debug, PartialEq, Eq)]
pub enum PixelsMut<'a> {
    /// Client memory.
    Bytes(&'a mut [u8]),
    /// An offset into the bound pack buffer.
    Offset(usize),
}

/// Size of one pixel of client data, and of the element that alignment and byte swapping
/// apply to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PixelSize {
    /// Bytes per pixel.
    pub bytes: usize,
    /// Bytes per component (or per packed pixel for packed types).
    pub element: usize,
}

/// The pixel size of a client format and type.
pub fn pixel_size(format: PixelFormat, ty: PixelType) -> PixelSize {
    let bytes = tessera_wire::null::pixel_size(format, ty);
    let element = match ty {
        PixelType::U8 | PixelType::I8 => 1,
        PixelType::U16 | PixelType::I16 | PixelType::F16 => 2,
        PixelType::U32 | PixelType::I32 | PixelType::F32 => 4,
        // Packed types: one element is the whole pixel.
        _ => bytes,
    };
    PixelSize { bytes, element }
}

/// The client layout of one texel of a storage format: the layout that holds its value as
/// the format stores it (its channels, their bits, its numeric class), so that converting
/// client data into it (`wire::pixel::convert`) quantizes and clamps as storing into the
/// format does. That is the texel a buffer clear writes (`clear_buffer`) and the value a
/// multisample texture clear carries (`texture::clear`). Formats no client layout holds
/// exactly take the nearest wider one (`RGB4` as bytes, `RGB10` and `RGBA12` as shorts);
/// compressed formats (never cleared or stored this way) their decoded channels as bytes.
pub fn texel_layout(format: Format) -> PixelLayout {
    use Format as F;
    use PixelFormat as P;
    use PixelType as T;
    let (format, ty) = match format {
        F::R3G3B2 => (P::Rgb, T::U8_332),
        F::Rgb565 => (P::Rgb, T::U16_565),
        F::Rgba4 => (P::Rgba, T::U16_4444),
        F::Rgb5A1 => (P::Rgba, T::U16_5551),
        F::Rgb10A2 => (P::Rgba, T::U32_2101010Rev),
        F::Rgb10A2Ui => (P::RgbaInteger, T::U32_2101010Rev),
        F::R11fG11fB10f => (P::Rgb, T::U32_10f11f11fRev),
        F::Rgb9E5 => (P::Rgb, T::U32_5999Rev),
        F::R16f | F::Rg16f | F::Rgb16f | F::Rgba16f => (channel_format(format, false), T::F16),
        F::R32f | F::Rg32f | F::Rgb32f | F::Rgba32f => (channel_format(format, false), T::F32),
        F::Depth16 => (P::DepthComponent, T::U16),
        F::Depth24 | F::Depth24Stencil8 => (P::DepthStencil, T::U32_248),
        F::Depth32 => (P::DepthComponent, T::U32),
        F::Depth32f => (P::DepthComponent, T::F32),
        F::Depth32fStencil8 => (P::DepthStencil, T::F32U32_248Rev),
        F::Stencil16 => (P::StencilIndex, T::U16),
        F::Stencil1 | F::Stencil4 | F::Stencil8 => (P::StencilIndex, T::U8),
        _ => {
            let info = format.info();
            let integer = matches!(info.class, FormatClass::Int | FormatClass::Uint);
            let signed = info.snorm || info.class == FormatClass::Int;
            let bits = info.rgba_bits.iter().copied().max().unwrap_or(8);
            let ty = match (bits, signed) {
                (0..=8, false) => T::U8,
                (0..=8, true) => T::I8,
                (9..=16, false) => T::U16,
                (9..=16, true) => T::I16,
                (_, false) => T::U32,
                (_, true) => T::I32,
            };
            (channel_format(format, integer), ty)
        }
    };
    PixelLayout { format, ty }
}

/// The client format of a colour format's channels (R, RG, RGB or RGBA; `*_INTEGER` for
/// integer formats).
fn channel_format(format: Format, integer: bool) -> PixelFormat {
    use PixelFormat as P;
    let channels = format.info().rgba_bits.iter().filter(|&&b| b > 0).count();
    match (channels, integer) {
        (0 | 1, false) => P::Red,
        (2, false) => P::Rg,
        (3, false) => P::Rgb,
        (_, false) => P::Rgba,
        (0 | 1, true) => P::RedInteger,
        (2, true) => P::RgInteger,
        (3, true) => P::RgbInteger,
        (_, true) => P::RgbaInteger,
    }
}

/// Where the pixels of a `w` x `h` x `d` image lie in client memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientLayout {
    /// Bytes from one row to the next.
    pub row_stride: usize,
    /// Bytes from one image (slice) to the next.
    pub image_stride: usize,
    /// Offset of the first pixel read or written.
    pub start: usize,
    /// Bytes from the start of client memory to one past the last byte touched.
    pub end: usize,
    /// Bytes of one tightly packed row.
    pub tight_row: usize,
}

/// The client layout of an image under a pixel store state.
pub fn client_layout(
    store: &PixelStore,
    size: PixelSize,
    w: usize,
    h: usize,
    d: usize,
) -> ClientLayout {
    let row_pixels = if store.row_length > 0 {
        store.row_length as usize
    } else {
        w
    };
    let align = store.alignment.max(1) as usize;
    let raw_row = size.bytes * row_pixels;
    let row_stride = if size.element >= align {
        raw_row
    } else {
        raw_row.div_ceil(align) * align
    };
    let rows = if store.image_height > 0 {
        store.image_height as usize
    } else {
        h
    };
    let image_stride = row_stride * rows;
    let start = store.skip_pixels.max(0) as usize * size.bytes
        + store.skip_rows.max(0) as usize * row_stride
        + store.skip_images.max(0) as usize * image_stride;
    let end = if w == 0 || h == 0 || d == 0 {
        start
    } else {
        start + (d - 1) * image_stride + (h - 1) * row_stride + w * size.bytes
    };
    ClientLayout {
        row_stride,
        image_stride,
        start,
        end,
        tight_row: w * size.bytes,
    }
}

/// Swaps the bytes of the `T`s `row` holds, if it can be seen as `T`s (aligned to them, a
/// whole number of them).
fn swap_words<T: Pod>(row: &mut [u8], swap: fn(T) -> T) -> bool {
    match bytemuck::try_cast_slice_mut::<u8, T>(row) {
        Ok(words) => {
            for w in words {
                *w = swap(*w);
            }
            true
        }
        Err(_) => false,
    }
}

/// Reverses the bytes of each `element`-byte element of `row` (`*_SWAP_BYTES`): as words
/// when the row is aligned to them (the stage always is), else byte by byte (client memory
/// may lie anywhere). Both give the same bytes.
fn swap_elements(row: &mut [u8], element: usize) {
    let swapped = match element {
        0 | 1 => true,
        2 => swap_words(row, u16::swap_bytes),
        4 => swap_words(row, u32::swap_bytes),
        8 => swap_words(row, u64::swap_bytes),
        _ => false,
    };
    if !swapped {
        for chunk in row.chunks_exact_mut(element) {
            chunk.reverse();
        }
    }
}

/// Gathers client pixels laid out per `store` into tightly packed rows (`dst` holds
/// `w * h * d * size.bytes` bytes). `src` must hold at least `client_layout(..).end` bytes.
pub fn unpack(
    store: &PixelStore,
    size: PixelSize,
    w: usize,
    h: usize,
    d: usize,
    src: &[u8],
    dst: &mut [u8],
) {
    let l = client_layout(store, size, w, h, d);
    let mut out = 0;
    for z in 0..d {
        for y in 0..h {
            let from = l.start + z * l.image_stride + y * l.row_stride;
            let row = &mut dst[out..out + l.tight_row];
            row.copy_from_slice(&src[from..from + l.tight_row]);
            if store.swap_bytes {
                swap_elements(row, size.element);
            }
            out += l.tight_row;
        }
    }
}

/// Scatters tightly packed rows into client memory laid out per `store`.
pub fn pack(
    store: &PixelStore,
    size: PixelSize,
    w: usize,
    h: usize,
    d: usize,
    src: &[u8],
    dst: &mut [u8],
) {
    let l = client_layout(store, size, w, h, d);
    let mut from = 0;
    for z in 0..d {
        for y in 0..h {
            let to = l.start + z * l.image_stride + y * l.row_stride;
            let row = &mut dst[to..to + l.tight_row];
            row.copy_from_slice(&src[from..from + l.tight_row]);
            if store.swap_bytes {
                swap_elements(row, size.element);
            }
            from += l.tight_row;
        }
    }
}

impl Context {
    /// `glPixelStorei`.
    pub fn pixel_storei(&mut self, pname: GLenum, param: GLint) {
        let st = &mut self.local.st;
        let (store, which) = match pname {
            PACK_SWAP_BYTES
            | PACK_LSB_FIRST
            | PACK_ROW_LENGTH
            | PACK_IMAGE_HEIGHT
            | PACK_SKIP_ROWS
            | PACK_SKIP_PIXELS
            | PACK_SKIP_IMAGES
            | PACK_ALIGNMENT
            | PACK_COMPRESSED_BLOCK_WIDTH..=PACK_COMPRESSED_BLOCK_SIZE => (&mut st.pack, pname),
            UNPACK_SWAP_BYTES
            | UNPACK_LSB_FIRST
            | UNPACK_ROW_LENGTH
            | UNPACK_IMAGE_HEIGHT
            | UNPACK_SKIP_ROWS
            | UNPACK_SKIP_PIXELS
            | UNPACK_SKIP_IMAGES
            | UNPACK_ALIGNMENT
            | UNPACK_COMPRESSED_BLOCK_WIDTH..=UNPACK_COMPRESSED_BLOCK_SIZE => {
                (&mut st.unpack, pname)
            }
            _ => return self.error(INVALID_ENUM),
        };
        let field = match which {
            PACK_SWAP_BYTES | UNPACK_SWAP_BYTES => {
                store.swap_bytes = param != 0;
                return;
            }
            PACK_LSB_FIRST | UNPACK_LSB_FIRST => {
                store.lsb_first = param != 0;
                return;
            }
            PACK_ALIGNMENT | UNPACK_ALIGNMENT => {
                if !matches!(param, 1 | 2 | 4 | 8) {
                    return self.error(INVALID_VALUE);
                }
                &mut store.alignment
            }
            PACK_ROW_LENGTH | UNPACK_ROW_LENGTH => &mut store.row_length,
            PACK_IMAGE_HEIGHT | UNPACK_IMAGE_HEIGHT => &mut store.image_height,
            PACK_SKIP_ROWS | UNPACK_SKIP_ROWS => &mut store.skip_rows,
            PACK_SKIP_PIXELS | UNPACK_SKIP_PIXELS => &mut store.skip_pixels,
            UNPACK_COMPRESSED_BLOCK_WIDTH..=UNPACK_COMPRESSED_BLOCK_SIZE => {
                &mut store.compressed_block[(which - UNPACK_COMPRESSED_BLOCK_WIDTH) as usize]
            }
            PACK_COMPRESSED_BLOCK_WIDTH..=PACK_COMPRESSED_BLOCK_SIZE => {
                &mut store.compressed_block[(which - PACK_COMPRESSED_BLOCK_WIDTH) as usize]
            }
            _ => &mut store.skip_images,
        };
        if param < 0 {
            return self.error(INVALID_VALUE);
        }
        *field = param;
    }

    /// `glPixelStoref` (values are rounded to integers; booleans are non-zero).
    pub fn pixel_storef(&mut self, pname: GLenum, param: GLfloat) {
        self.pixel_storei(pname, param.round() as GLint);
    }

    /// `glClampColor`: core GL 3.3 has only `CLAMP_READ_COLOR` (the vertex and fragment
    /// colour clamps are compatibility state, `INVALID_ENUM` as in Mesa's core contexts),
    /// set to `TRUE`, `FALSE` or `FIXED_ONLY`. The state is exact; read-backs of
    /// floating-point colour buffers are not clamped yet when it is `TRUE` (the clamp
    /// belongs in the read path, which does not consult it).
    pub fn clamp_color(&mut self, target: GLenum, clamp: GLenum) {
        if target != CLAMP_READ_COLOR {
            return self.error(INVALID_ENUM);
        }
        if !matches!(clamp, TRUE | FALSE | FIXED_ONLY) {
            return self.error(INVALID_ENUM);
        }
        self.local.clamp_read_color = clamp;
    }

    /// Pixel store state for `glGet*`.
    pub(crate) fn pixel_store_value(&self, pname: GLenum) -> Option<Value> {
        if pname == CLAMP_READ_COLOR {
            return Some(Value::int(i64::from(self.local.clamp_read_color)));
        }
        let st = &self.local.st;
        let s = match pname {
            PACK_SWAP_BYTES..=PACK_ALIGNMENT
            | PACK_SKIP_IMAGES
            | PACK_IMAGE_HEIGHT
            | PACK_COMPRESSED_BLOCK_WIDTH..=PACK_COMPRESSED_BLOCK_SIZE => &st.pack,
            UNPACK_SWAP_BYTES..=UNPACK_ALIGNMENT
            | UNPACK_SKIP_IMAGES
            | UNPACK_IMAGE_HEIGHT
            | UNPACK_COMPRESSED_BLOCK_WIDTH..=UNPACK_COMPRESSED_BLOCK_SIZE => &st.unpack,
            _ => return None,
        };
        let v = |x: GLint| Some(Value::int(i64::from(x)));
        match pname {
            PACK_SWAP_BYTES | UNPACK_SWAP_BYTES => Some(Value::boolean(s.swap_bytes)),
            PACK_LSB_FIRST | UNPACK_LSB_FIRST => Some(Value::boolean(s.lsb_first)),
            PACK_ROW_LENGTH | UNPACK_ROW_LENGTH => v(s.row_length),
            PACK_SKIP_ROWS | UNPACK_SKIP_ROWS => v(s.skip_rows),
            PACK_SKIP_PIXELS | UNPACK_SKIP_PIXELS => v(s.skip_pixels),
            PACK_ALIGNMENT | UNPACK_ALIGNMENT => v(s.alignment),
            PACK_SKIP_IMAGES | UNPACK_SKIP_IMAGES => v(s.skip_images),
            PACK_IMAGE_HEIGHT | UNPACK_IMAGE_HEIGHT => v(s.image_height),
            UNPACK_COMPRESSED_BLOCK_WIDTH..=UNPACK_COMPRESSED_BLOCK_SIZE => {
                v(s.compressed_block[(pname - UNPACK_COMPRESSED_BLOCK_WIDTH) as usize])
            }
            PACK_COMPRESSED_BLOCK_WIDTH..=PACK_COMPRESSED_BLOCK_SIZE => {
                v(s.compressed_block[(pname - PACK_COMPRESSED_BLOCK_WIDTH) as usize])
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_aligned_and_skips_applied() {
        let store = PixelStore {
            alignment: 4,
            skip_pixels: 1,
            skip_rows: 1,
            ..PixelStore::default()
        };
        // RGB8: 3 bytes per pixel, element 1 < alignment 4: rows of 2 pixels pad 6 -> 8.
        let size = PixelSize {
            bytes: 3,
            element: 1,
        };
        let l = client_layout(&store, size, 2, 2, 1);
        assert_eq!((l.row_stride, l.start, l.end), (8, 8 + 3, 8 + 3 + 8 + 6));
        let src: Vec<u8> = (0..32).collect();
        let mut tight = vec![0; 12];
        unpack(&store, size, 2, 2, 1, &src, &mut tight);
        assert_eq!(tight, [11, 12, 13, 14, 15, 16, 19, 20, 21, 22, 23, 24]);
        let mut back = vec![0; 32];
        pack(&store, size, 2, 2, 1, &tight, &mut back);
        assert_eq!(&back[11..17], &src[11..17]);
        assert_eq!(&back[19..25], &src[19..25]);
    }

    #[test]
    fn byte_swapping_ignores_alignment() {
        // Rows at an 8-aligned start (swapped as words) and one byte past it (byte by
        // byte) give the same bytes.
        let mut words = [0u64; 3];
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut words);
        for element in [2, 4, 8] {
            for start in [0, 1] {
                for (i, b) in bytes.iter_mut().enumerate() {
                    *b = i as u8;
                }
                let row = &mut bytes[start..start + 16];
                let mut expect = row.to_vec();
                for c in expect.chunks_exact_mut(element) {
                    c.reverse();
                }
                swap_elements(row, element);
                assert_eq!(*row, expect[..], "element {element}, start {start}");
            }
        }
    }
}
