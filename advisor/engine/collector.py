"""The cyclic garbage collector held off while the engine computes one result."""

from __future__ import annotations

import gc
from collections.abc import Callable
from functools import wraps


def paused[**P, T](func: Callable[P, T]) -> Callable[P, T]:
    """`func` with the cyclic collector off while it runs, on again when it returns or raises.

    An evaluation allocates tens of thousands of short-lived objects, nearly all freed by
    reference counting; each collection the allocations trigger also walks the catalog's memos,
    and the full ones took about a tenth of an evaluation. Held off, it is switched on again
    when the call ends and runs at its next allocation threshold, on what the call left behind:
    nothing is kept from it, garbage in cycles is collected then as before. A caller that turned
    the collector off keeps it off; a nested call leaves it to the outer one. The switch is the
    process's: another thread running meanwhile (the web and task workers run one at a time)
    goes without it for the call's milliseconds."""

    @wraps(func)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        if not gc.isenabled():
            return func(*args, **kwargs)
        gc.disable()
        try:
            return func(*args, **kwargs)
        finally:
            gc.enable()

    return run
