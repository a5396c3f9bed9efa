//! Vertex data GLES cannot read as it is: `GL_BGRA` attributes.
//!
//! Desktop GL lets an attribute of four `UNSIGNED_BYTE` or packed `2_10_10_10_REV`
//! components be stored B, G, R, A; GLES reads components in R, G, B, A order only. Such an
//! attribute is read from a converted copy of its buffer instead: the bytes of every
//! element from the attribute's offset on (every `stride` bytes) with the first and third
//! components swapped, at the same offsets, so the native pointer keeps the attribute's own
//! offset and stride. There is one copy per attribute index; it is rebuilt when its source
//! buffer, offset, stride or type differ from what it was built from, or when the source was
//! written since ([`crate::device::Buffer::version`]), which every draw checks.

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
    /// The buffer a `GL_BGRA` attribute at `index` reads: a converted copy of `buffer`,
    /// rebuilt if it is out of date.
    pub(crate) fn bgra_buffer(
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
        swap_bgra(&mut bytes, offset as usize, stride as usize, format.ty);
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
}
