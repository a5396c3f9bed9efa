//! Tessera's integration tests: one binary, a module per domain.

mod architecture;
mod buffer;
mod buffer_map;
mod differential;
mod draw;
mod dropin;
mod faults;
mod framebuffer;
mod handles;
mod names;
mod piglit;
mod profiling;
mod program;
mod query;
mod records;
mod render_state;
mod renderbuffer;
mod sampler;
mod scenes;
mod server_limits;
mod shaders;
mod state_query;
mod steady;
mod texture;
mod transport;
mod vertex_array;
