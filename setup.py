"""Build the Cython core.

Compiler directives are set once here (boundscheck, wraparound off; cdivision on).  Set
``BIDEUCHRE_DEBUG=1`` when building to turn bounds and wrap-around checks back on.  OpenMP is
used when the compiler supports it (``-fopenmp``); otherwise the build is serial.
"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("BIDEUCHRE_DEBUG", "") not in ("", "0")


def openmp_flags() -> list[str]:
    """['-fopenmp'] if the C compiler builds and links an OpenMP program, else []."""
    if sys.platform == "win32" or os.environ.get("BIDEUCHRE_NO_OPENMP"):
        return []
    cc = os.environ.get("CC", "cc")
    if shutil.which(cc) is None:
        return []
    src = "#include <omp.h>\nint main(void){return omp_get_max_threads() > 0 ? 0 : 1;}\n"
    with tempfile.TemporaryDirectory() as tmp:
        c = Path(tmp) / "t.c"
        c.write_text(src)
        try:
            r = subprocess.run([cc, "-fopenmp", str(c), "-o", str(Path(tmp) / "t")],
                               capture_output=True, timeout=60)
        except (OSError, subprocess.SubprocessError):
            return []
        return ["-fopenmp"] if r.returncode == 0 else []


omp = openmp_flags()
directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": not DEBUG,
    "initializedcheck": DEBUG,
}
extensions = [
    Extension(f"solver.{p.stem}", [str(p)], extra_compile_args=["-O3"] + omp, extra_link_args=omp)
    for p in sorted(Path("solver").glob("*.pyx"))
]

setup(
    ext_modules=cythonize(extensions, compiler_directives=directives,
                          compile_time_env={"HAVE_OPENMP": bool(omp)}),
)
