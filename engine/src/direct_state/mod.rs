//! GL 4.5's direct state access (`ARB_direct_state_access`) for every object kind but
//! buffers: `glCreate*`, and the calls that name the object they change or query instead
//! of finding it through a binding (`glTextureParameteri(texture, ..)` for
//! `glTexParameteri(target, ..)`).
//!
//! A named form never has a body of its own: it finds the object by name, with the error
//! Mesa raises for a name that is no object of the kind (`INVALID_OPERATION`; for a texture
//! name `glGenTextures` reserved and nothing bound, each call's error for an object without a
//! target), and hands it to the body the bound form uses: vertex arrays and framebuffers
//! through a parameter of that body (`vertex_array::ArrayRef`,
//! `framebuffer::WhichFramebuffer`), renderbuffers through the `*_of` bodies, textures through
//! `Local::named_texture`, which `Local::bound_texture` returns instead of the active unit's
//! binding while the body runs (the texture bodies are many and deep, and all find their
//! texture through that one function). `glCreate*` makes the objects at once, so their names
//! are objects before any bind (and a texture's target is fixed at creation).
//!
//! `vertex_array` holds the vertex array calls (and `glCreateTransformFeedbacks`, the other
//! per-context container), `transform_feedback` the transform feedback objects' bindings and
//! queries, `texture` the texture calls, `framebuffer` the framebuffer, renderbuffer and
//! sampler calls (the clears and blits among them bind the named framebuffers for the verb).

mod framebuffer;
mod sub_image;
mod texture;
mod transform_feedback;
mod vertex_array;
