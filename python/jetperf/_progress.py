"""job.wait()'s progress display: a tqdm bar where tqdm is installed, else one line rewritten in
place ("job 12: 3/8 points, ETA 41 s") on a terminal and a line per change elsewhere."""
import sys


class _Line:
    def __init__(self, job_id, stream):
        self.job_id, self.stream, self.last = job_id, stream, None
        self.tty = stream.isatty()

    def update(self, done, total, eta_s, state):
        eta = f", ETA {eta_s:.0f} s" if isinstance(eta_s, (int, float)) else ""
        text = f"job {self.job_id} ({state}): {done}/{total} points{eta}"
        if text == self.last:
            return
        self.last = text
        self.stream.write(("\r" + text.ljust(60)) if self.tty else text + "\n")
        self.stream.flush()

    def close(self):
        if self.tty and self.last:
            self.stream.write("\n")
            self.stream.flush()


class _Tqdm:
    def __init__(self, job_id, tqdm):
        self.bar = tqdm(total=0, desc=f"job {job_id}", unit="point")

    def update(self, done, total, eta_s, state):
        if total and self.bar.total != total:
            self.bar.total = total
        self.bar.n = done
        self.bar.set_postfix_str(state, refresh=False)
        self.bar.refresh()

    def close(self):
        self.bar.close()


def progress_display(job_id, stream=None):
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return _Line(job_id, stream or sys.stderr)
    return _Tqdm(job_id, tqdm)
