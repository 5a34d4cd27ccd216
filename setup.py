"""Build the Cython core.

Compiler directives are set once here (boundscheck, wraparound off; cdivision on).  Set
``BIDEUCHRE_DEBUG=1`` when building to turn bounds and wrap-around checks back on.  OpenMP is
used when the compiler supports it (``-fopenmp``); otherwise the build is serial.

The core is compiled for the CPU it is built on (``-march=native``: the search then uses the
BMI2 ``pext`` and ``popcnt`` instructions where the CPU has them, about 20 % faster on double
decks).  ``pip install`` builds on the machine that runs it, so this is safe; set
``BIDEUCHRE_PORTABLE=1`` to build a binary for other machines (plain C fallbacks).
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


def compiles_with(flag: str, src: str = "int main(void){return 0;}\n") -> bool:
    """Whether the C compiler builds and links the program ``src`` with ``flag``."""
    cc = os.environ.get("CC", "cc")
    if sys.platform == "win32" or shutil.which(cc) is None:
        return False
    with tempfile.TemporaryDirectory() as tmp:
        c = Path(tmp) / "t.c"
        c.write_text(src)
        try:
            r = subprocess.run([cc, flag, str(c), "-o", str(Path(tmp) / "t")],
                               capture_output=True, timeout=60)
        except (OSError, subprocess.SubprocessError):
            return False
        return r.returncode == 0


OMP_TEST = "#include <omp.h>\nint main(void){return omp_get_max_threads() > 0 ? 0 : 1;}\n"
omp = [] if os.environ.get("BIDEUCHRE_NO_OPENMP") or not compiles_with("-fopenmp", OMP_TEST) \
    else ["-fopenmp"]
native = [] if os.environ.get("BIDEUCHRE_PORTABLE") or not compiles_with("-march=native") \
    else ["-march=native"]
directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": not DEBUG,
    "initializedcheck": DEBUG,
}


def pxd_tree() -> str:
    """An include folder where the .pxd files stand under the import name: solver/ installs as
    the package ``bideuchre`` (pyproject.toml: package-dir), so a cimport such as
    ``from ._search cimport ...`` in bideuchre.search._lone looks for
    ``bideuchre/search/_search.pxd``.  Copies keep their times, so Cython's dependency
    tracking still sees a changed .pxd."""
    root = Path("build") / "pxd"
    for p in Path("solver").rglob("*"):
        if p.suffix == ".pxd" or p.name == "__init__.py":
            dest = root / "bideuchre" / p.relative_to("solver")
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(p, dest)
    return str(root)


# solver/ installs as the package ``bideuchre`` (pyproject.toml: package-dir)
extensions = [
    Extension("bideuchre." + ".".join(p.relative_to("solver").with_suffix("").parts), [str(p)],
              extra_compile_args=["-O3"] + native + omp, extra_link_args=omp)
    for p in sorted(Path("solver").rglob("*.pyx"))
]

setup(
    ext_modules=cythonize(extensions, compiler_directives=directives, include_path=[pxd_tree()],
                          compile_time_env={"HAVE_OPENMP": bool(omp)}),
)
