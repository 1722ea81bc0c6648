"""The test data that lives outside the repository (``<repo>/../shared/data``, see its README).

One place finds it: ``WEBNN_BRIDGE_DATA`` names another folder (as for scripts/gpu_check.py). A test that needs a file or folder
that is not there fails with the path to fetch (CI always has the data; a developer without it is
told what is missing), never skips or passes over nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ENV = "WEBNN_BRIDGE_DATA"


class MissingTestData(FileNotFoundError):
    """Test data under ../shared/data (or $WEBNN_BRIDGE_DATA) is not there."""


def root() -> Path:
    """The data folder: $WEBNN_BRIDGE_DATA, else ``<repo>/../shared/data``."""
    return Path(os.environ.get(ENV) or REPO.parent / "shared" / "data").resolve()


def path(*parts: str) -> Path:
    """A path under the data folder (not checked: see :func:`require`)."""
    return root().joinpath(*parts)


def require(*parts: str, glob: str | None = None) -> Path:
    """The path under the data folder (``parts`` may also be one absolute path), which must exist;
    a folder given ``glob`` must hold a match."""
    p = path(*parts)
    if not p.exists():
        raise MissingTestData(
            f"test data missing: {p} does not exist. Fetch the project's shared test data into "
            f"{REPO.parent / 'shared' / 'data'} (see its README.md) or point ${ENV} at a copy."
        )
    if glob is not None and not any(p.glob(glob)):
        raise MissingTestData(f"test data missing: {p} holds no {glob} files (see ../shared/data/README.md)")
    return p
