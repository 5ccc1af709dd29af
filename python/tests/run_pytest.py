"""ctest's entry to the package's tests (label python): pytest over python/tests, or exit 77
(ctest's skip) naming what is missing where pytest, pandas or matplotlib are not installed
(deploy/install-deps.sh --tests installs them)."""
import importlib.util
import os
import sys

missing = [m for m in ("pytest", "pandas", "matplotlib") if importlib.util.find_spec(m) is None]
if missing:
    print("skipped: the Python tests need " + ", ".join("python3-" + m for m in missing))
    sys.exit(77)

import pytest  # noqa: E402

sys.exit(pytest.main(["-p", "no:cacheprovider", "-q", "--durations=5", os.path.dirname(os.path.abspath(__file__))]
                     + sys.argv[1:]))
