//! Builds the C++ shim between the Rust front end and glslang, and links Debian's static
//! glslang 12 libraries (packages `glslang-dev` and `spirv-tools`).

use std::path::Path;

/// Where Debian puts glslang's headers.
const INCLUDE_DIR: &str = "/usr/include";
/// Where Debian puts glslang's static libraries (overridable for other layouts).
const DEFAULT_LIB_DIR: &str = "/usr/lib/x86_64-linux-gnu";

/// glslang's static libraries, each before the ones it uses.
const LIBS: &[&str] = &[
    "glslang",
    "glslang-default-resource-limits",
    "SPIRV",
    "MachineIndependent",
    "OSDependent",
    "GenericCodeGen",
    "OGLCompiler",
    "SPIRV-Tools-opt",
    "SPIRV-Tools",
];

fn main() {
    println!("cargo:rerun-if-changed=src/shim.cpp");
    println!("cargo:rerun-if-env-changed=TESSERA_GLSLANG_LIB_DIR");
    // Android: glslang and the shim need the NDK's C++ compiler and glslang built for
    // Android (TESSERA_GLSLANG_LIB_DIR). Without them the crate is only type-checked
    // (`cargo check --target aarch64-linux-android`, which scripts/test runs); a build
    // would not link.
    if std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "android")
        && std::env::var_os("TESSERA_GLSLANG_LIB_DIR").is_none()
    {
        println!(
            "cargo:warning=tessera-shader for Android without TESSERA_GLSLANG_LIB_DIR: \
             type-checked only, glslang is not linked"
        );
        println!("cargo:rustc-env=TESSERA_GLSLANG_VERSION=unknown");
        return;
    }
    let header = Path::new(INCLUDE_DIR).join("glslang/Public/ShaderLang.h");
    let build_info = Path::new(INCLUDE_DIR).join("glslang/build_info.h");
    let lib_dir =
        std::env::var("TESSERA_GLSLANG_LIB_DIR").unwrap_or_else(|_| DEFAULT_LIB_DIR.to_string());
    let missing_lib = LIBS
        .iter()
        .find(|l| !Path::new(&lib_dir).join(format!("lib{l}.a")).exists());
    if !header.exists() || missing_lib.is_some() {
        let what = match missing_lib {
            Some(l) if header.exists() => format!("{lib_dir}/lib{l}.a"),
            _ => header.display().to_string(),
        };
        panic!(
            "\n\ntessera-shader needs glslang's C++ headers and static libraries, and {what} \
             is missing.\nInstall the Debian packages: apt-get install glslang-dev spirv-tools\n\
             (or point TESSERA_GLSLANG_LIB_DIR at a directory holding libglslang.a and its \
             companions).\n\n"
        );
    }
    println!("cargo:rerun-if-changed={}", build_info.display());
    println!(
        "cargo:rustc-env=TESSERA_GLSLANG_VERSION={}",
        glslang_version(&build_info)
    );
    cc::Build::new()
        .cpp(true)
        .std("c++17")
        .file("src/shim.cpp")
        .include(INCLUDE_DIR)
        // Debian builds glslang with HLSL enabled; the headers' inline methods must agree.
        .define("ENABLE_HLSL", "1")
        // And without RTTI: the shim's subclass of TProgram must not need its type info.
        .flag("-fno-rtti")
        .warnings(false)
        .compile("tessera_glslang_shim");
    println!("cargo:rustc-link-search=native={lib_dir}");
    for lib in LIBS {
        println!("cargo:rustc-link-lib=static={lib}");
    }
    println!("cargo:rustc-link-lib=dylib=stdc++");
}

/// glslang's `major.minor.patch` and flavor, from its `build_info.h` (`unknown` without one:
/// the version then only names the build as one of unknown glslang).
fn glslang_version(build_info: &Path) -> String {
    let text = std::fs::read_to_string(build_info).unwrap_or_default();
    let field = |name: &str| {
        text.lines()
            .find_map(|l| {
                l.strip_prefix("#define ")?
                    .strip_prefix(name)?
                    .strip_prefix(' ')
            })
            .map(|v| v.trim().trim_matches('"').to_string())
    };
    match (
        field("GLSLANG_VERSION_MAJOR"),
        field("GLSLANG_VERSION_MINOR"),
        field("GLSLANG_VERSION_PATCH"),
    ) {
        (Some(major), Some(minor), Some(patch)) => {
            let flavor = field("GLSLANG_VERSION_FLAVOR").unwrap_or_default();
            format!("{major}.{minor}.{patch}{flavor}")
        }
        _ => "unknown".into(),
    }
}
