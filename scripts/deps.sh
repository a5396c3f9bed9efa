# Sourced by the scripts in this directory: makes sure the Debian packages Tessera needs are
# installed (with apt-get when running as root, otherwise printing the command to run), and
# sets the environment Mesa's drivers expect.

# Packages needed to build and test: glslang (the GLSL front end, linked statically),
# SPIRV-Tools (glslang's optimizer libraries), a C++ compiler for the shim; Mesa's EGL and GLES
# (llvmpipe) and SPIRV-Cross for the GLES backend; glslangValidator for the backends' tests;
# the Vulkan loader, Mesa's lavapipe and the Khronos validation layer for the Vulkan backend;
# gcc and the EGL/GL headers for the C programs that test the drop-in libraries; piglit, the
# conformance suite the drop-in is judged by; Xvfb, GLFW, SDL2 and Xlib for the on-screen
# tests (tests/tests/window.rs: toolkit programs drawing in X windows over GLX and EGL, read
# back from the X server), and Weston with the Wayland client headers for the same on Wayland
# (tests/tests/wayland.rs: libwayland-dev has wayland-client and wayland-egl and, through
# libwayland-bin, wayland-scanner; wayland-protocols has the xdg-shell XML the test program's
# window is made with).
TESSERA_PACKAGES=(glslang-dev spirv-tools g++ pkg-config
    libegl1 libegl-mesa0 libgles2 libgl1-mesa-dri libspirv-cross-c-shared0 glslang-tools
    libvulkan1 mesa-vulkan-drivers vulkan-validationlayers
    gcc libegl-dev libopengl-dev libgl-dev piglit
    xvfb libglfw3-dev libsdl2-dev libx11-dev weston libwayland-dev wayland-protocols)

tessera_missing_packages() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    echo "${missing[@]}"
}

tessera_install() {
    local missing
    missing=$(tessera_missing_packages "$@")
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" = 0 ]; then
        echo "tessera: installing Debian packages: $missing" >&2
        DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
        # shellcheck disable=SC2086
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >&2
    else
        echo "tessera: missing Debian packages. Run:" >&2
        echo "    sudo apt-get install -y $missing" >&2
        exit 1
    fi
}

if ! command -v cargo >/dev/null 2>&1; then
    echo "tessera: cargo is not installed; install Rust from https://rustup.rs (the pinned toolchain in rust-toolchain.toml is fetched automatically)" >&2
    exit 1
fi

tessera_install "${TESSERA_PACKAGES[@]}"

# Mesa warns on every call without a private runtime directory.
if [ -z "${XDG_RUNTIME_DIR:-}" ] || [ ! -d "$XDG_RUNTIME_DIR" ]; then
    export XDG_RUNTIME_DIR="${TMPDIR:-/tmp}/tessera-runtime-$(id -u)"
    mkdir -p "$XDG_RUNTIME_DIR"
    chmod 0700 "$XDG_RUNTIME_DIR"
fi
