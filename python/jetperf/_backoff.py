"""How long Job.wait() waits before it reconnects to an event stream that ended without `end`:
doubling from 0.1 s up to 5 s, so a daemon or proxy that keeps closing the stream sees a few
requests in the first second and one every 5 s after that, never a spin."""
FIRST_S = 0.1
CAP_S = 5.0


def reconnect_delays(first_s=FIRST_S, cap_s=CAP_S):
    """0.1, 0.2, 0.4, ... 5, 5, ... seconds, without end."""
    delay = first_s
    while True:
        yield min(delay, cap_s)
        delay = min(delay * 2, cap_s)
