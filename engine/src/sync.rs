//! Sync objects (fences).
