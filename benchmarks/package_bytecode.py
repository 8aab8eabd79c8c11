"""What ``pip install`` leaves behind, for every benchmark: sglang-lint's
compiled bytecode.

An editable install writes a module's bytecode on its first import, unless
``PYTHONDONTWRITEBYTECODE`` is set (as on this machine's sandbox); then every
run compiles the whole package from source again: ~50 ms of a warm run on
SGLang's tree (0.33 s measured, 0.28 s with bytecode), which an installed tool
never pays. ``compileall`` writes it explicitly (the variable only stops the
import system from writing it), beside the sources, where an import reads it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def compile_package() -> Path:
    """Compile sglang-lint's modules (quietly; a failure costs only time) and
    return the package's directory."""
    import sglang_lint

    package = Path(sglang_lint.__file__).resolve().parent
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=False, capture_output=True)
    print(f"bytecode compiled for {package}")
    return package
