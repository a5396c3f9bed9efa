//! Internal-format queries (GL 4.2's `ARB_internalformat_query`): `glGetInternalformativ`
//! of `NUM_SAMPLE_COUNTS` and `SAMPLES` for `RENDERBUFFER`, `TEXTURE_2D_MULTISAMPLE` and
//! `TEXTURE_2D_MULTISAMPLE_ARRAY`.
//!
//! The counts are the ones the engine gives images (`Limits::allocated_samples`): every
//! count of two or more samples the backend has ([`Limits::sample_counts`]) up to
//! `MAX_SAMPLES`, largest first. Errors are Mesa's, which has `_query2` too: a target or
//! pname outside the three and two is `INVALID_ENUM`, a negative `bufSize` `INVALID_VALUE`,
//! and a format that is not renderable is no error but has no counts (query2's rule; query
//! alone made it `INVALID_ENUM`). At most `bufSize` values are written, none past them.
//!
//! [`Limits::sample_counts`]: crate::limits::Limits::sample_counts

use tessera_components::gl::*;

use crate::context::Context;
use crate::renderbuffer::renderbuffer_format;

impl Context {
    /// The sample counts a renderable format gets, largest first.
    fn sample_counts(&self) -> Vec<GLint> {
        let l = &self.local.limits;
        (1..31)
            .rev()
            .map(|k| 1i32 << k)
            .filter(|&n| n <= l.max_samples && l.sample_counts & n as u32 != 0)
            .collect()
    }

    /// `glGetInternalformativ`.
    pub fn get_internalformativ(
        &mut self,
        target: GLenum,
        internalformat: GLenum,
        pname: GLenum,
        buf_size: GLsizei,
        params: &mut [GLint],
    ) {
        if !matches!(
            target,
            RENDERBUFFER | TEXTURE_2D_MULTISAMPLE | TEXTURE_2D_MULTISAMPLE_ARRAY
        ) || !matches!(pname, NUM_SAMPLE_COUNTS | SAMPLES)
        {
            return self.error(INVALID_ENUM);
        }
        if buf_size < 0 {
            return self.error(INVALID_VALUE);
        }
        let counts = if renderbuffer_format(internalformat).is_some() {
            self.sample_counts()
        } else {
            Vec::new()
        };
        let values = if pname == NUM_SAMPLE_COUNTS {
            vec![counts.len() as GLint]
        } else {
            counts
        };
        for (out, v) in params.iter_mut().zip(values).take(buf_size as usize) {
            *out = v;
        }
    }
}
