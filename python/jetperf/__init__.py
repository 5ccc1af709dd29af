"""jetperf from Python: jobs on jetperfd and their results as pandas tables and plots.

    import jetperf
    b = jetperf.connect()                     # as the CLI: $JETPERF_HOST, ~/.config/jetperf/config
    j = b.submit("gemm", device="cpu", sizes=[128, 256], cpu_freqs=["min", "max"])
    j.wait()
    df = j.results()                          # the CLI's CSV, typed; df.attrs["units"]
"""
from .board import Board, connect
from .errors import JetperfError, MissingDependency, SpecError
from .fleet import results
from .job import Job
from .plot import plot

__all__ = ["connect", "Board", "Job", "JetperfError", "SpecError", "MissingDependency", "results", "plot"]
__version__ = "0.1.0"
