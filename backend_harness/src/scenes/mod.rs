//! The scenes whose record streams are the same on every backend, written once.
//!
//! A scene takes the [`Scene`](crate::Scene) it runs on, so a suite can run it on any
//! variant of its backend (the Vulkan 1.1 floor, GLES without extensions) as well; a scene
//! that needs more than one session takes a [`New`](crate::New) and makes them.
//! [`shared_scenes!`](crate::shared_scenes) turns the scenes into the `#[test]`s every suite
//! runs, [`scene_tests!`](crate::scene_tests) into the tests of a suite's variants.

pub mod basics;
pub mod framebuffers;
pub mod geometry;
pub mod textures;
