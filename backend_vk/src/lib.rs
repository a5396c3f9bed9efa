//! # tessera-backend-vk
//!
//! The Vulkan backend: consumes pipe records only (ash + vk-mem), never the frontend. It
//! depends on `tessera-wire` alone, so a server process can be built without the GL engine;
//! `tests/` checks that from `cargo metadata`.
//!
//! Not implemented yet: this crate holds the place and the dependency rule of DESIGN.md §2
//! until the Vulkan backend lands.
