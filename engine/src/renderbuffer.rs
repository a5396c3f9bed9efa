//! Renderbuffer objects.
