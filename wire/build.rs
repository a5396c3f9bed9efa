//! Declares the `loom` cfg, under which the transport's atomics come from loom so the ring and
//! doorbell protocols can be model-checked (`RUSTFLAGS="--cfg loom" cargo test -p tessera-wire
//! --release loom`).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(loom)");
}
