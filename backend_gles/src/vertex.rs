//! Vertex data GLES cannot read as it is: `GL_BGRA` attributes and packed floats.
//!
//! Desktop GL lets an attribute of four `UNSIGNED_BYTE` or packed `2_10_10_10_REV`
//! components be stored B, G, R, A; GLES reads components in R, G, B, A order only. Such an
//! attribute is read from a converted copy of its buffer instead: the bytes of every
//! element from the attribute's offset on (every `stride` bytes) with the first and third
//! components swapped, at the same offsets, so the native pointer keeps the attribute's own
//! offset and stride.
//!
//! GL 4.4's `UNSIGNED_INT_10F_11F_11F_REV` attributes (three unsigned floats of 11, 11 and
//! 10 bits in a word), which GLES has no vertex type for, are read the same way from a copy
//! of three 32-bit floats per element: element `k` (the source word at `offset + k *
//! stride`) at byte `12 k`, so the native pointer reads the copy from offset 0 with a stride
//! of 12 (0 stays 0: one element for every vertex) and the same vertices and instances
//! fetch the same elements.
//!
//! There is one copy per attribute index; it is rebuilt when its source buffer, offset,
//! stride or type differ from what it was built from, or when the source was written since
//! ([`crate::device::Buffer::version`]), which every draw checks.

use glow::HasContext;
use tessera_wire::SessionError;
use tessera_wire::format::{AttribType, VertexFormat};
use tessera_wire::handle::{BufferHandle, Handle, RawHandle};

use crate::device::GlesPipe;

/// What a converted copy was built from: source buffer, its version, offset, stride, type.
pub(crate) type BgraKey = (RawHandle, u64, u64, u32, AttribType);

/// The converted copy of one attribute's buffer.
pub(crate) struct BgraCopy {
    name: glow::Buffer,
    key: Option<BgraKey>,
}

/// Bytes of one element of a packed-float copy: three floats.
pub(crate) const PACKED_FLOAT_BYTES: u32 = 12;

/// The three floats of each `UNSIGNED_INT_10F_11F_11F_REV` element of `bytes` whose first
/// element is at `offset`, `stride` bytes apart (0: one element), element `k` at `12 k`.
pub(crate) fn unpack_packed_floats(bytes: &[u8], offset: usize, stride: usize) -> Vec<u8> {
    let count = if stride == 0 {
        usize::from(offset + 4 <= bytes.len())
    } else if offset + 4 <= bytes.len() {
        (bytes.len() - offset - 4) / stride + 1
    } else {
        0
    };
    let mut out = Vec::with_capacity(count * PACKED_FLOAT_BYTES as usize);
    for k in 0..count {
        let at = offset + k * stride;
        let w = u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
        for v in tessera_wire::pixel::unpack_10f_11f_11f(w) {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    out
}

/// Swaps the first and third components of each element of a `GL_BGRA` attribute whose
/// first element is at `offset`, `stride` bytes apart (0: tightly packed).
pub(crate) fn swap_bgra(bytes: &mut [u8], offset: usize, stride: usize, ty: AttribType) {
    let step = if stride == 0 { 4 } else { stride };
    let mut at = offset;
    while at + 4 <= bytes.len() {
        let e = &mut bytes[at..at + 4];
        match ty {
            AttribType::I2_10_10_10Rev | AttribType::U2_10_10_10Rev => {
                let v = u32::from_le_bytes([e[0], e[1], e[2], e[3]]);
                let (x, z) = (v & 0x3ff, (v >> 20) & 0x3ff);
                let swapped = (v & !(0x3ff | (0x3ff << 20))) | (x << 20) | z;
                e.copy_from_slice(&swapped.to_le_bytes());
            }
            _ => e.swap(0, 2),
        }
        at += step;
    }
}

impl GlesPipe {
    /// The buffer a `GL_BGRA` or packed-float attribute at `index` reads: a converted copy
    /// of `buffer`, rebuilt if it is out of date.
    pub(crate) fn converted_buffer(
        &mut self,
        record: &'static str,
        index: usize,
        buffer: BufferHandle,
        offset: u64,
        stride: u32,
        format: VertexFormat,
    ) -> Result<glow::Buffer, SessionError> {
        let (size, version) = {
            let b = self.buffers.get(record, buffer)?;
            (b.size, b.version)
        };
        let key = (buffer.raw(), version, offset, stride, format.ty);
        let name = match self.bgra.get(index).and_then(Option::as_ref) {
            Some(copy) if copy.key == Some(key) => return Ok(copy.name),
            Some(copy) => copy.name,
            None => {
                // SAFETY: context current; glGenBuffers has no preconditions.
                unsafe { self.gl.create_buffer() }.map_err(|e| Self::native_error(record, e))?
            }
        };
        let mut bytes = self.read_buffer_as(record, buffer, 0, size)?;
        if format.ty == AttribType::U10f11f11fRev {
            bytes = unpack_packed_floats(&bytes, offset as usize, stride as usize);
        } else {
            swap_bgra(&mut bytes, offset as usize, stride as usize, format.ty);
        }
        self.shadow
            .bind_buffer(&self.gl, glow::COPY_WRITE_BUFFER, Some(name));
        // SAFETY: context current; `name` is a buffer of this context bound to
        // COPY_WRITE_BUFFER; glBufferData copies `bytes` (its size fits 31 bits, as the
        // source's does: create_buffer refuses larger ones).
        unsafe {
            self.gl
                .buffer_data_u8_slice(glow::COPY_WRITE_BUFFER, &bytes, glow::STREAM_DRAW)
        };
        if let Some(slot) = self.bgra.get_mut(index) {
            *slot = Some(BgraCopy {
                name,
                key: Some(key),
            });
        }
        Ok(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_and_packed_words_swap_their_first_and_third_components() {
        // A header byte, then two elements 8 bytes apart.
        let mut b = vec![9, 1, 2, 3, 4, 0xee, 0xee, 0xee, 0xee, 5, 6, 7, 8, 0xee];
        swap_bgra(&mut b, 1, 8, AttribType::U8);
        assert_eq!(b, [9, 3, 2, 1, 4, 0xee, 0xee, 0xee, 0xee, 7, 6, 5, 8, 0xee]);
        let word = 1023u32 | (5 << 10) | (512 << 20) | (3 << 30);
        let mut b = word.to_le_bytes().repeat(2);
        swap_bgra(&mut b, 0, 0, AttribType::U2_10_10_10Rev);
        let swapped = 512u32 | (5 << 10) | (1023 << 20) | (3 << 30);
        assert_eq!(b, swapped.to_le_bytes().repeat(2));
    }

    #[test]
    fn packed_floats_unpack_to_three_floats_per_element() {
        // 1.0 (exponent 15), 0.5 with a mantissa of 1/64 (2^-1 * (1 + 1/64)), and 2.0 in
        // the 10-bit field; then the largest 11- and 10-bit values, infinity and a
        // denormal, after a header byte and 8 bytes apart.
        let one = 15u32 << 6;
        let half = (14u32 << 6) | 1;
        let two = 16u32 << 5;
        let first = one | (half << 11) | (two << 22);
        let second = ((30u32 << 6) | 63) | ((31u32 << 6) << 11) | (1u32 << 22);
        let mut b = vec![0xee];
        b.extend_from_slice(&first.to_le_bytes());
        b.extend_from_slice(&[0xee; 4]);
        b.extend_from_slice(&second.to_le_bytes());
        let out = unpack_packed_floats(&b, 1, 8);
        let floats: Vec<f32> = out
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(
            floats,
            [
                1.0,
                0.5 * (1.0 + 1.0 / 64.0),
                2.0,
                65024.0,
                f32::INFINITY,
                2f32.powi(-14) / 32.0
            ]
        );
        assert_eq!(unpack_packed_floats(&b, 1, 0).len(), 12);
    }
}
