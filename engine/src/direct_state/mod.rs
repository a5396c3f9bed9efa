//! GL 4.5's direct state access (`ARB_direct_state_access`) for every object kind but
//! buffers: `glCreate*`, and the calls that name the object they change or query instead
//! of finding it through a binding (`glTextureParameteri(texture, ..)` for
//! `glTexParameteri(target, ..)`).
//!
//! A named form never has a body of its own: it finds the object by name, with the error
//! Mesa raises for a name that is no object of the kind (`INVALID_OPERATION`, also for a name
//! `glGen*` reserved that was never bound, since no object exists yet), and hands it to the
//! body the bound form uses (`vertex_array::ArrayRef`, `Local::named_texture`,
//! `framebuffer::WhichFramebuffer`). `glCreate*`
//! makes the objects at once, so their names are objects before any bind (and a texture's
//! target is fixed at creation).
//!
//! `vertex_array` holds the vertex array calls, `texture` the texture calls, `framebuffer`
//! the framebuffer, renderbuffer and sampler calls.

mod framebuffer;
mod texture;
mod vertex_array;
