"""Bounded work: a per-file time budget, and a thread that can take deep input.

Two mechanisms keep one file from hanging or crashing a run:

* **A cooperative deadline.** ``check_file`` opens a :class:`Budget` (CPU time of the
  analysis thread) for the file; the frontend's statement loop and the model's loops
  call :func:`check` (one clock read) once per statement, warp, shift or sample, and
  ``analyze`` stops proving when it has run out. Accesses not reached are reported
  ``unknown`` with :data:`NOT_ANALYZED`, and the file gets an error (exit status 2),
  keeping every result it did prove.
* **A hard backstop.** The file is analyzed in a thread of its own, with a large C stack
  (libclang's parser and the frontend recurse once per nesting level of the source; a
  10000-level expression overflows the default 8 MiB stack and kills the process) and a
  raised recursion limit. When that thread has not finished long after the deadline
  (in wall-clock time), :class:`BudgetExceeded` is raised in it asynchronously (as a ``SIGALRM``
  handler would, but on every platform and in any thread, pool workers included), which
  interrupts any Python code: a sympy call, a frontend loop. Code inside libclang cannot
  be interrupted; a thread still stuck there after a grace period is abandoned (it is
  a daemon thread) and the file reported as not analyzed.
* **Kernel caps in worker processes** (``-j``, the language server): RLIMIT_CPU per
  file and RLIMIT_AS per worker (:func:`cap_worker`, :func:`cpu_capped`), so that a
  file spinning or allocating inside libclang kills only its worker, and a worker left
  with an abandoned thread exits (``cudalint.api``). Serially each file runs in a child
  forked from the main process under the same caps and a wall-clock limit
  (:class:`ForkedWorker`); only where there is no ``fork`` does it run in the main
  process, where only the two mechanisms above apply.

Inputs that would never end or block (devices, FIFOs) are refused before they are
read: :func:`read_regular`.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import gc
import os
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from sys import UnraisableHookArgs

__all__ = [
    "DEFAULT_TIMEOUT",
    "MAX_INPUT_BYTES",
    "NOT_ANALYZED",
    "Budget",
    "BudgetExceeded",
    "Forked",
    "ForkedWorker",
    "can_fork",
    "check",
    "collector_held",
    "collector_paused",
    "current",
    "read_regular",
    "release_memory",
    "run_bounded",
]

#: Seconds one file may take (parse and model) before it is reported as not fully
#: analyzed; ``--timeout`` and the configuration's ``timeout`` change it, 0 disables it.
DEFAULT_TIMEOUT = 10.0
#: The reason of an access the budget did not reach.
NOT_ANALYZED = "not analyzed: the file's time budget ran out (see --timeout)"
#: The hard backstop fires when the analysis thread has run this many times its budget
#: in wall-clock time, plus HARD_GRACE seconds (it is for code that never checks the
#: budget or waits on something, not for slow machines).
HARD_FACTOR = 4.0
HARD_GRACE = 10.0
#: Where the platform measures another thread's CPU time (``pthread_getcpuclockid``), the
#: backstop counts the analysis thread's CPU time rather than the wall clock: on a machine
#: at load 10 a file needing 8 s of its 10 s budget takes 40 s and more of wall time, and
#: its result must not depend on that. A thread that waits without using the processor is
#: still stopped after this many times the backstop in wall-clock time.
HARD_WALL_FACTOR = 8.0
#: The C stack of the analysis thread. Only the pages a deep input touches are used.
STACK_BYTES = 512 << 20
#: The recursion limit while a file is analyzed (the default 1000 is too low for a few
#: hundred nesting levels of source: each costs several Python frames).
RECURSION_LIMIT = 60_000

#: The most bytes read from one input file (source, response file, baseline, stdin): a
#: larger one is refused rather than read (``/dev/zero`` through a pipe never ends).
MAX_INPUT_BYTES = 256 << 20


def read_regular(path: str, what: str = "file") -> bytes:
    """The bytes of ``path`` when it is a regular file; OSError otherwise.

    A FIFO would block forever and a device such as ``/dev/zero`` never end, so both
    are refused before any byte is read: the file is opened non-blocking (opening a
    FIFO with no writer returns at once) and checked with ``fstat``, which follows
    symbolic links to what they name.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, _not_regular(mode, what))
        data = f.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise OSError(errno.EFBIG, f"larger than {MAX_INPUT_BYTES >> 20} MiB")
    return data


def _not_regular(mode: int, what: str) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    kind = ("a FIFO" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode)
            or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "special")
    return f"{kind}, not a regular {what}"


class BudgetExceeded(BaseException):
    """The file's time budget ran out.

    A BaseException, as KeyboardInterrupt is: the frontend's and the model's
    ``except Exception`` fallbacks (one construct's failure must not stop the others)
    must not turn running out of time into a skipped function.
    """


class Budget:
    """``seconds`` of CPU time of the thread that calls :meth:`start` (None or <= 0: no
    limit).

    CPU time, not wall-clock time: on a loaded machine (``-j`` with more jobs than
    cores, a CI runner shared with other builds) a file must not run out of time
    because others took the processor; the same file then gets the same result.
    """

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds if seconds is not None and seconds > 0 else None
        self.deadline = float("inf")
        #: Set once a check found the deadline past (or the backstop fired).
        self.expired = False

    def start(self) -> None:
        """Start counting, on the thread whose CPU time is to be bounded."""
        if self.seconds is not None:
            self.deadline = time.thread_time() + self.seconds

    def check(self) -> None:
        if self.expired or time.thread_time() > self.deadline:
            self.expired = True
            raise BudgetExceeded(self.describe())

    def describe(self) -> str:
        return f"the analysis took longer than {format_seconds(self.seconds or 0)}"


def format_seconds(seconds: float) -> str:
    return f"{seconds:g} s"


_local = threading.local()
_UNLIMITED = Budget(None)


def current() -> Budget:
    """The budget of the file being analyzed on this thread (an unlimited one if none)."""
    budget: Budget | None = getattr(_local, "budget", None)
    return budget if budget is not None else _UNLIMITED


def check() -> None:
    """Raise :class:`BudgetExceeded` when this thread's file has run out of time."""
    budget: Budget | None = getattr(_local, "budget", None)
    if budget is not None:
        budget.check()


T = TypeVar("T")
A = TypeVar("A")

_limit_lock = threading.Lock()
_limit_users = 0
_saved_limit = 0


def _raise_limit() -> None:
    global _limit_users, _saved_limit
    with _limit_lock:
        if _limit_users == 0:
            _saved_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_saved_limit, RECURSION_LIMIT))
        _limit_users += 1


def _restore_limit() -> None:
    global _limit_users
    with _limit_lock:
        _limit_users -= 1
        if _limit_users == 0:
            sys.setrecursionlimit(_saved_limit)


def _quiet_unraisable(previous: Callable[[UnraisableHookArgs], object]
                      ) -> Callable[[UnraisableHookArgs], object]:
    def hook(unraisable: UnraisableHookArgs) -> object:
        if isinstance(unraisable.exc_value, BudgetExceeded):
            return None  # landed in a __del__ or a ctypes callback: the flag stays set
        return previous(unraisable)

    return hook


_hook_lock = threading.Lock()
_hook_installed = False


def _quiet_thread_end(previous: Callable[[threading.ExceptHookArgs], object]
                      ) -> Callable[[threading.ExceptHookArgs], object]:
    def hook(args: threading.ExceptHookArgs) -> object:
        if isinstance(args.exc_value, BudgetExceeded):
            return None  # landed after the file's thread handed its result over
        return previous(args)

    return hook


def _install_hook() -> None:
    """An interruption that lands where Python cannot raise (a finalizer, a ctypes
    callback) would be printed with a traceback; it is dropped instead, and the next
    cooperative check raises again, since the budget is marked expired. So is one that
    lands as the file's thread ends, after its result is in (threading's hook would print
    "Exception in thread cudalint-file")."""
    global _hook_installed
    with _hook_lock:
        if not _hook_installed:
            sys.unraisablehook = _quiet_unraisable(sys.unraisablehook)
            threading.excepthook = _quiet_thread_end(threading.excepthook)
            _hook_installed = True


def _interrupt(thread: threading.Thread) -> None:
    """Raise BudgetExceeded in ``thread`` at its next Python instruction."""
    _install_hook()
    ident = thread.ident
    if ident is None:
        return
    set_async = ctypes.pythonapi.PyThreadState_SetAsyncExc
    set_async.argtypes = (ctypes.c_ulong, ctypes.py_object)
    set_async.restype = ctypes.c_int
    set_async(ident, BudgetExceeded)


#: Set once a file's analysis thread could not be started in this process: its address
#: space cap is used up (in a worker, typically by an abandoned analysis still holding
#: memory). A ``-j`` worker then ends instead of failing every later file
#: (``api._run_task_capped``); its files run again in fresh workers.
_start_failed = False


def thread_start_failed() -> bool:
    """Whether this process could not start a file's analysis thread."""
    return _start_failed


def _thread_cpu(thread: threading.Thread) -> float | None:
    """The CPU time ``thread`` has used so far, where the platform can tell."""
    ident = thread.ident
    getter = getattr(time, "pthread_getcpuclockid", None)
    if ident is None or getter is None:
        return None
    try:
        return time.clock_gettime(getter(ident))
    except (OSError, OverflowError, ValueError):  # ended meanwhile, or not a pthread
        return None


def _wait_for(thread: threading.Thread, limit: float) -> None:
    """Wait until ``thread`` ends, has used ``limit`` seconds of CPU time, or (where its
    CPU time cannot be read, or it waits without using it) HARD_WALL_FACTOR times that in
    wall-clock time. ``--timeout 1e10``: a wait longer than the platform can express is
    none."""
    start = time.monotonic()
    wall_cap = HARD_WALL_FACTOR * limit
    thread.join(min(limit, threading.TIMEOUT_MAX))
    while thread.is_alive():
        used = _thread_cpu(thread)
        waited = time.monotonic() - start
        if used is None or used >= limit or waited >= wall_cap:
            return
        # the CPU time it may still use takes at least as long in wall-clock time
        thread.join(min(max(limit - used, 0.05), wall_cap - waited, threading.TIMEOUT_MAX))


def run_bounded(
    fn: Callable[[Budget], T], seconds: float | None, *, on_hard_timeout: Callable[[], T],
) -> T:
    """``fn(budget)`` on a large-stack thread under a budget of ``seconds`` of CPU time.

    ``fn`` should stop by itself (cooperatively) when the budget runs out; if it has
    not returned after using ``HARD_FACTOR * seconds + HARD_GRACE`` seconds of CPU time
    (of wall-clock time where that cannot be read, and at most HARD_WALL_FACTOR times
    that in wall-clock time) it is interrupted, and if it is stuck in native code even
    ``HARD_GRACE`` seconds later, abandoned: ``on_hard_timeout()`` gives the result. An
    exception from ``fn`` is re-raised here.
    """
    budget = Budget(seconds)
    box: dict[str, object] = {}

    def body() -> None:
        _local.budget = budget
        budget.start()
        try:
            box["result"] = fn(budget)
        except BaseException as exc:  # handed to the caller
            box["error"] = exc
        finally:
            _local.budget = None

    _raise_limit()
    try:
        with _limit_lock:
            old = threading.stack_size()
            with contextlib.suppress(ValueError, RuntimeError):  # a platform that cannot
                threading.stack_size(STACK_BYTES)
            try:
                thread = threading.Thread(target=body, name="cudalint-file", daemon=True)
                thread.start()
            except RuntimeError as exc:  # "can't start new thread": no memory for its stack
                global _start_failed
                _start_failed = True
                raise MemoryError("no memory left to start the file's analysis") from exc
            finally:
                threading.stack_size(old)
        if budget.seconds is None:
            thread.join()
        else:
            _wait_for(thread, HARD_FACTOR * budget.seconds + HARD_GRACE)
            if thread.is_alive():
                budget.expired = True
                _interrupt(thread)
                thread.join(HARD_GRACE)
                if thread.is_alive():
                    return on_hard_timeout()
    finally:
        _restore_limit()
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["result"]  # type: ignore[return-value]


# --- Hard caps of a worker process --------------------------------------------------
#
# A thread cannot stop libclang: a file that spins inside it (``#pragma clang __debug
# overflow_stack``) or allocates without end (an exponential macro) would go on while
# later files run. In the worker processes of ``-j`` each file's analysis is therefore
# also capped by the kernel: RLIMIT_CPU (the process gets SIGXCPU and dies when one file
# has used WORKER_CPU_FACTOR * timeout + WORKER_CPU_GRACE seconds of CPU time) and
# RLIMIT_AS (an allocation beyond the cap fails: libclang gives up on the file, or the
# worker dies). A dead worker costs only its file: ``run_tasks`` runs the files of a
# broken pool again, each in a pool of its own, and reports why the one that dies died.

#: A worker's CPU cap per file: this many times the file's budget plus the grace (at
#: most the budget again: ``--timeout 0.5`` gives 1.5 s). Below
#: the thread's wall-clock backstop, so that a file spinning in libclang kills its
#: worker rather than being abandoned in it.
WORKER_CPU_FACTOR = 2.0
WORKER_CPU_GRACE = 5.0
#: A worker's address-space cap: the machine's memory shared among the workers, but at
#: least WORKER_MEMORY_MIN and at most WORKER_MEMORY_MAX bytes (address space, not
#: resident memory: libclang and the analysis thread's stack reserve more than they use).
#: ``CUDALINT_WORKER_MEMORY`` (bytes, or with a K/M/G suffix; 0 for none) overrides it.
WORKER_MEMORY_MIN = 3 << 30
WORKER_MEMORY_MAX = 16 << 30


def worker_memory_cap(workers: int) -> int | None:
    """The address-space cap of each of ``workers`` worker processes (None: none)."""
    text = os.environ.get("CUDALINT_WORKER_MEMORY", "").strip()
    if text:
        scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:].upper(), 1)
        try:
            value = int(float(text[:-1] if scale > 1 else text) * scale)
        except ValueError:
            value = -1
        if value >= 0:
            return value or None
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):
        return WORKER_MEMORY_MAX
    return max(WORKER_MEMORY_MIN, min(WORKER_MEMORY_MAX, total // max(1, workers)))


def worker_cpu_cap(seconds: float | None) -> float | None:
    """The CPU seconds one file may use in a worker with a budget of ``seconds``."""
    if seconds is None or seconds <= 0:
        return None
    cap = WORKER_CPU_FACTOR * seconds + min(WORKER_CPU_GRACE, seconds)
    # ``--timeout 1e308``: more than a process limit can hold (or infinite) is none
    return cap if cap < MAX_WAIT else None


#: The longest wait or cap that is still one (about 31 years); beyond it, none.
MAX_WAIT = 1e9


def cap_worker(memory: int | None) -> None:
    """In a worker process: no core files (a worker killed by its CPU cap would leave
    one in the linted repository) and at most ``memory`` bytes of address space."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on this platform
        return
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if memory is not None:
        with contextlib.suppress(ValueError, OSError):
            _, hard = resource.getrlimit(resource.RLIMIT_AS)
            if hard != resource.RLIM_INFINITY:
                memory = min(memory, hard)
            resource.setrlimit(resource.RLIMIT_AS, (memory, hard))


@contextlib.contextmanager
def cpu_capped(seconds: float | None) -> Iterator[None]:
    """In a worker process: the process dies (SIGXCPU) when the body uses more than
    ``seconds`` of CPU time (None: no cap)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on this platform
        yield
        return
    saved = None
    if seconds is not None:
        with contextlib.suppress(ValueError, OSError):
            usage = resource.getrusage(resource.RUSAGE_SELF)
            soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
            limit = int(usage.ru_utime + usage.ru_stime + seconds) + 1
            if hard != resource.RLIM_INFINITY:
                limit = min(limit, hard)
            resource.setrlimit(resource.RLIMIT_CPU, (limit, hard))
            saved = (soft, hard)
    try:
        yield
    finally:
        if saved is not None:
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(resource.RLIMIT_CPU, saved)


# --- A forked worker (the serial run) ----------------------------------------------------
#
# Serially, the files are analysed in a child forked from the main process
# (copy-on-write: libclang and every module are already loaded, a fork costs a few
# milliseconds), kept from file to file, under the same caps as a ``-j`` worker; it sends
# each result back through a pipe. The main process waits with a wall-clock limit and
# kills the child past it, so nothing a file does inside libclang outlives the file; the
# child leaves when its memory has grown (libclang's heap goes with it).


@dataclass
class Forked(Generic[T]):
    """How a call in a forked child ended: ``value`` when it returned; otherwise
    ``error`` (it raised, or its result could not be sent), ``timed_out`` (killed at the
    wall-clock limit) or ``exitcode`` (it died: ``-signal`` or its exit status)."""

    value: T | None = None
    returned: bool = False
    error: str | None = None
    timed_out: bool = False
    exitcode: int | None = None


def can_fork() -> bool:
    """Whether :class:`ForkedWorker` can work here (POSIX with ``os.fork``)."""
    return hasattr(os, "fork") and sys.platform != "win32"


#: ``prctl`` (Linux), looked up in the parent once: the child asks to be killed when
#: the main process dies (even by SIGKILL, when it cannot kill the child itself).
_prctl: Callable[..., int] | None = None
_prctl_looked_up = False
_PR_SET_PDEATHSIG = 1


def _find_prctl() -> None:
    global _prctl, _prctl_looked_up
    if _prctl_looked_up:
        return
    _prctl_looked_up = True
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            _prctl = ctypes.CDLL(None, use_errno=True).prctl


_malloc_trim: Callable[[int], int] | None = None
_malloc_trim_looked_up = False


#: :func:`release_memory` collects once the process has grown by this much since it last
#: did. 0: after every file, which the freeze makes cheap (without it, a full collection
#: cost 50 ms a file in a worker that had run 185 cuda-samples files: 9 s of 32; with
#: it, 0, 8 and 16 MiB cost the same CPU, within the noise, and 0 the least memory).
RELEASE_GROWTH = 0
_released_at = -1


def release_memory(force: bool = False) -> bool:
    """In a worker, after a file: collect the garbage of the files since the last call
    that did, give the C heap's free pages back to the system (glibc's ``malloc_trim``;
    nothing where there is none), and freeze what is left: once the process has grown by
    :data:`RELEASE_GROWTH` since the last time (the first call, and with ``force``:
    always). True when it did.

    A file's libclang translation unit is disposed only when its Python object is
    collected, and the frontend's objects that reach it form reference cycles (the
    walker and its host-launch evaluator), so the units of earlier files stayed alive
    until Python's next full collection (1-3 of them after each llm.c file), and the
    heap libclang frees stayed with the process. What survives a collection here
    (compiled code, the IR of reports not yet sent) is frozen (``gc.freeze``): the next
    collections, this one's and Python's own, walk only what later files made; a frozen
    object is still freed when its last reference goes, only a cycle among frozen
    objects is not, which the worker's size limit (:data:`FORK_WORKER_RSS`) bounds.
    """
    global _malloc_trim, _malloc_trim_looked_up, _released_at
    if not force and _released_at >= 0:
        now = _resident_bytes()
        if now and now - _released_at < RELEASE_GROWTH:
            return False
    gc.collect()
    gc.freeze()
    if not _malloc_trim_looked_up:
        _malloc_trim_looked_up = True
        if sys.platform.startswith("linux"):
            with contextlib.suppress(Exception):
                trim = ctypes.CDLL(None).malloc_trim
                trim.argtypes = [ctypes.c_size_t]
                trim.restype = ctypes.c_int
                _malloc_trim = trim
    if _malloc_trim is not None:
        with contextlib.suppress(Exception):
            _malloc_trim(0)
    _released_at = _resident_bytes()
    return True


# --- Python's cyclic collector during a file's analysis --------------------------------

class _Hold(threading.local):
    #: collector_held()s open on this thread, and whether one must turn the collector on
    depth = 0
    resume = False


_hold = _Hold()


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's automatic cyclic collections off meanwhile, and back on after where they
    were on: at the end of this thread's enclosing :func:`collector_held` if one is
    open.

    A file's walk makes hundreds of thousands of objects that live as long as it does
    (the cursor trees, the IR), and each automatic collection of the older generations
    visits them all again (``cudalint.frontend.walker``)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            if _hold.depth:
                _hold.resume = True
            else:
                gc.enable()


@contextlib.contextmanager
def collector_held() -> Iterator[None]:
    """A :func:`collector_paused` of this thread that ends inside leaves the collector
    off until this ends (then on again).

    The model and the rules of a file read the IR its walk made, and the automatic
    collections they would start (a young generation holding every object the walk
    made, then the older ones as those objects move up) visit all of it again, two or
    three times: 0.9-1.2 s of CPU in ggml's 5-7 s files. The file's cyclic garbage waits
    for the next collection (``release_memory``'s after each file in a worker). A walk
    that does not pause (the language server's, which keeps documents) pauses nothing
    here either, nor does a parse abandoned in libclang before its walk leave the
    collector off."""
    _hold.depth += 1
    try:
        yield
    finally:
        _hold.depth -= 1
        if not _hold.depth and _hold.resume:
            _hold.resume = False
            gc.enable()


#: A forked worker leaves (and the next file gets a fresh one) once its resident memory
#: is past this after a file: libclang's heap and the analysis caches grow over a run,
#: and the process tree's peak stays near this plus one file's need. (120 MiB before
#: :func:`release_memory`: cuda-samples then peaked at 154-160 MiB PSS in 9 children;
#: now 141-150 MiB in 2, the same CPU.)
FORK_WORKER_RSS = 100 << 20
#: ... or past its size when it was forked plus this much, when that is more.
FORK_WORKER_ROOM = 64 << 20

_HEADER = 8  # bytes of a message's length, before its pickle


class ForkedWorker(Generic[A, T]):
    """A child forked from this process that runs ``fn(arg)`` for one argument at a time,
    each result pickled back through a pipe: the serial run's counterpart of a ``-j``
    worker (``cudalint.api``).

    Forked, it starts in a few milliseconds with everything this process has loaded
    (libclang, the modules, the precompiled shim), and it is kept from call to call, so
    that the caches warm by one file serve the next. It has no core files, at most
    ``memory`` bytes of address space (:func:`cap_worker`), ``cpu`` seconds of CPU time
    per call (:func:`cpu_capped`) and its temporary files in ``tmpdir``; a call that has
    not answered after ``wall`` seconds kills it, and it dies with this process (Linux:
    ``PR_SET_PDEATHSIG``). It leaves by itself after a call that left an analysis thread
    behind (:func:`abandoned_threads`) or took its memory past :data:`FORK_WORKER_RSS`
    (measured after :func:`release_memory`). Whenever it is gone, the next call forks a
    new one. Ctrl-C or an exception during a call kills it before re-raising.
    :meth:`call` raises OSError when no child can be started (no ``os.fork``, no
    processes or memory left): run ``fn`` here then.
    """

    def __init__(self, fn: Callable[[A], T], *, memory: int | None,
                 tmpdir: str | None = None, rss: int | None = None,
                 release: bool = True) -> None:
        self._fn = fn
        #: :func:`release_memory` after each call (in the child).
        self.release = release
        self._memory = memory
        self._tmpdir = tmpdir
        self._rss = rss if rss is not None else FORK_WORKER_RSS
        self._pid: int | None = None
        self._to = -1  # our ends of the pipes
        self._from = -1
        #: How many children were forked (for tests and measurements).
        self.started = 0

    def call(self, arg: A, *, cpu: float | None, wall: float | None) -> Forked[T]:
        if self._pid is None:
            self._start()
        assert self._pid is not None
        import pickle

        request = pickle.dumps((arg, cpu), pickle.HIGHEST_PROTOCOL)
        try:
            try:
                _write_message(self._to, request)
            except OSError:  # it left or died since the last call: a new one, once
                self._reap()
                self._start()
                _write_message(self._to, request)
            answer = _read_message(self._from, wall)
        except BaseException:
            self._stop(kill=True)
            raise
        if answer is _TIMED_OUT:
            self._stop(kill=True)
            return Forked(timed_out=True)
        if not isinstance(answer, bytes):  # it died during the call
            status = self._reap()
            if status is not None and os.waitstatus_to_exitcode(status):
                return Forked(exitcode=os.waitstatus_to_exitcode(status))
            return Forked(error="the analysis process ended without a result")
        try:
            ok, value, leaving = pickle.loads(answer)
        except Exception as exc:
            self._stop(kill=True)
            return Forked(error=f"unreadable result ({type(exc).__name__})")
        if leaving:
            self._reap()
        return Forked(value=value, returned=True) if ok else Forked(error=str(value))

    def close(self) -> None:
        """End the child (it is waiting for a call: closing its pipe ends it)."""
        self._stop(kill=False)

    def _start(self) -> None:
        if not can_fork():
            raise OSError(errno.ENOSYS, "os.fork is not available")
        import warnings

        _find_prctl()
        parent = os.getpid()
        for stream in (sys.stdout, sys.stderr):  # else the child would write them again
            with contextlib.suppress(Exception):
                stream.flush()
        down_r, down_w = os.pipe()
        try:
            up_r, up_w = os.pipe()
        except BaseException:
            os.close(down_r)
            os.close(down_w)
            raise
        try:
            with warnings.catch_warnings():  # 3.12+: a warning when other threads run
                warnings.simplefilter("ignore", DeprecationWarning)
                pid = os.fork()
        except BaseException:
            for fd in (down_r, down_w, up_r, up_w):
                os.close(fd)
            raise
        if pid == 0:  # pragma: no cover - the child (its coverage is not collected)
            try:
                os.close(down_w)
                os.close(up_r)
                self._serve(parent, down_r, up_w)
            finally:
                os._exit(70)
        os.close(down_r)
        os.close(up_w)
        self._pid, self._to, self._from = pid, down_w, up_r
        self.started += 1

    def _serve(self, parent: int, requests: int, answers: int) -> None:  # pragma: no cover
        """The child's loop: one call per request until the pipe closes."""
        import pickle
        import signal

        # What the parent made is never collected here: the collector walking it would
        # copy every page of it (copy-on-write) for nothing.
        gc.freeze()
        if _prctl is not None:
            _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)
        cap_worker(self._memory)
        with contextlib.suppress(ValueError, RuntimeError):  # a platform that cannot
            threading.stack_size(STACK_BYTES)
        sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
        # a caller far larger than cudalint's own process (a test runner, an embedding
        # application) gives its size to the child: room for the files above it. Its
        # size once the heap it inherits free is given back, as after every file.
        if self.release:
            release_memory(force=True)
        rss = max(self._rss, _resident_bytes() + FORK_WORKER_ROOM)
        if self._tmpdir is not None:
            import tempfile

            tempfile.tempdir = self._tmpdir
            os.environ["TMPDIR"] = self._tmpdir  # libclang's own temporary files
        while True:
            request = _read_message(requests, None)
            if not isinstance(request, bytes):
                os._exit(0)
            arg, cpu = pickle.loads(request)
            answer: tuple[bool, object, bool]
            try:
                with cpu_capped(cpu):
                    value = self._fn(arg)
                released = self.release and release_memory()
                big = _resident_bytes() > rss
                if big and self.release and not released and release_memory(force=True):
                    big = _resident_bytes() > rss  # only what a collection cannot free
                leaving = abandoned_threads() or thread_start_failed() or big
                answer = (True, value, leaving)
            except Exception as exc:
                leaving = True
                answer = (False, _describe(exc), leaving)
            data = _pickled(answer)
            _write_message(answers, data)
            with contextlib.suppress(BaseException):
                sys.stderr.flush()
            if leaving:
                os._exit(0)

    def _reap(self) -> int | None:
        pid, self._pid = self._pid, None
        for fd in (self._to, self._from):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._to = self._from = -1
        return _reap(pid) if pid is not None else None

    def _stop(self, *, kill: bool) -> None:
        if self._pid is None:
            return
        pid = self._pid
        if kill:
            _kill(pid)
            self._reap()
            return
        for fd in (self._to, self._from):  # EOF: the child leaves its loop
            with contextlib.suppress(OSError):
                os.close(fd)
        self._to = self._from = -1
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            with contextlib.suppress(ChildProcessError):
                done, _ = os.waitpid(pid, os.WNOHANG)
                if done == 0:
                    time.sleep(0.01)
                    continue
            self._pid = None
            return
        _kill(pid)
        self._reap()


_TIMED_OUT = object()


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _pickled(answer: tuple[bool, object, bool]) -> bytes:  # pragma: no cover - in the child
    """``answer`` pickled on a thread with a large stack and a high recursion limit (as
    the analysis ran): a deeply nested unit pickles as deeply as it was built. The
    analysis thread is gone by now, so the two large stacks are never reserved at once
    (the memory cap counts address space)."""
    import pickle

    box: list[bytes] = []

    def dump() -> None:
        try:
            box.append(pickle.dumps(answer, pickle.HIGHEST_PROTOCOL))
        except Exception as exc:
            box.append(pickle.dumps((False, f"the result could not be sent ({_describe(exc)})",
                                     True), pickle.HIGHEST_PROTOCOL))

    thread = threading.Thread(target=dump, name="cudalint-answer", daemon=True)
    thread.start()
    thread.join()
    return box[0] if box else pickle.dumps((False, "the result could not be sent", True),
                                           pickle.HIGHEST_PROTOCOL)


def _write_message(fd: int, data: bytes) -> None:
    view = memoryview(len(data).to_bytes(_HEADER, "little") + data)
    while view:
        view = view[os.write(fd, view):]


def _read_message(fd: int, wall: float | None) -> bytes | object | None:
    """One message from ``fd``; None at EOF (the writer is gone), ``_TIMED_OUT`` when it
    has not come whole within ``wall`` seconds."""
    import select

    deadline = time.monotonic() + wall if wall is not None else None
    buf = bytearray()
    need = _HEADER
    header = True
    while len(buf) < need:
        if deadline is not None:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                return _TIMED_OUT
        chunk = os.read(fd, min(need - len(buf), 1 << 20))
        if not chunk:
            return None
        buf += chunk
        if header and len(buf) == _HEADER:
            need = _HEADER + int.from_bytes(buf, "little")
            header = False
    return bytes(buf[_HEADER:])


def _resident_bytes() -> int:
    """This process's resident memory (0 where /proc cannot tell)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _kill(pid: int) -> None:
    import signal

    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)


def _reap(pid: int) -> int | None:
    """Wait for ``pid`` to end; its wait status (None when it was reaped elsewhere)."""
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return None
    return status


def abandoned_threads() -> bool:
    """Whether an analysis thread given up by :func:`run_bounded` is still running."""
    return any(t.name == "cudalint-file" and t.is_alive() for t in threading.enumerate())
