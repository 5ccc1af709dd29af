"""jetperf from Python: jobs on jetperfd and their results as pandas tables and plots.

    import jetperf
    with jetperf.connect() as b:              # as the CLI: $JETPERF_HOST, ~/.config/jetperf/config
        j = b.submit("gemm", device="cpu", sizes=[128, 256], cpu_freqs=["min", "max"])
        j.wait()                              # a tqdm bar where tqdm is installed; JobFailed if it failed
        df = j.results()                      # the CLI's CSV, typed; df.attrs["units"]
"""
from .board import Board, connect
from ._limits import Limits
from .errors import (BadResponse, ConnectionFailed, JetperfError, JobFailed, MissingDependency, PagingStuck,
                     RedirectRefused, SpecError, TimedOut, TooLarge)
from .fleet import results
from .job import Job
from .plot import plot

__all__ = ["connect", "Board", "Job", "Limits", "JetperfError", "SpecError", "ConnectionFailed", "TimedOut",
           "TooLarge", "BadResponse", "PagingStuck", "RedirectRefused", "JobFailed", "MissingDependency", "results",
           "plot"]
__version__ = "0.1.0"
