"""Running the per-file pipeline over many files: worker processes, budgets, crashes.

``run_tasks`` analyses a run's files (:class:`cudalint.checker.FileTask`) with
:func:`cudalint.checker.run_task`, one at a time in a child forked from this process
(``-j 1``) or in a pool of worker processes (``-j N``), under the per-file CPU and memory
caps of :mod:`cudalint.budget`; a worker that dies costs only the file it was analysing.
The reports come back in the order of the tasks, merged across files
(:func:`cudalint.runmerge.merge_reports`). :class:`IsolatedChecker` is the same for a
long-lived caller (the language server). flake8 calls this part its ``Manager``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from cudalint.budget import (
    HARD_FACTOR,
    HARD_GRACE,
    HARD_WALL_FACTOR,
    MAX_WAIT,
    ForkedWorker,
    abandoned_threads,
    can_fork,
    cap_worker,
    cpu_capped,
    format_seconds,
    release_memory,
    thread_start_failed,
    worker_cpu_cap,
    worker_memory_cap,
)
from cudalint.checker import FileReport, FileTask, _read, enabled_codes, suppress
from cudalint.checker import run_task as _run_task
from cudalint.discovery import is_header
from cudalint.discovery import path_key as _abs
from cudalint.ir import TranslationUnit
from cudalint.linking import link_reports
from cudalint.runmerge import merge_reports

if TYPE_CHECKING:  # imported where the pools start (-j, the language server)
    import multiprocessing
    from concurrent.futures import Future, ProcessPoolExecutor

__all__ = [
    "IsolatedChecker",
    "Progress",
    "covered_report",
    "included_elsewhere",
    "run_tasks",
]


#: Called with (files done, files in all) as files finish.
Progress = Callable[[int, int], None]


def _pool_context(fork: bool = False) -> multiprocessing.context.BaseContext:
    """The start method of a pool's workers. ``fork``: forked from this process once
    it has loaded the pipeline (``_fork_ready``), as the serial run's child is, where
    that is safe: Linux, Python 3.11+ (whose pool with "fork" starts every worker before
    it starts a thread of its own). Otherwise, and for the language server's worker (a
    process with threads of its own), through a fork server."""
    import multiprocessing  # only for -j and the language server (not one file's run)

    if fork and _can_fork_pool() and _fork_ready():
        return multiprocessing.get_context("fork")
    # A fresh server process forks the workers: they do not inherit this process's
    # libclang state or threads (as "fork" would), and start faster than with "spawn".
    if sys.platform != "win32" and "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        # cudalint.fixes is imported lazily (by the first conflict); importing it in the
        # server once saves every worker its import
        ctx.set_forkserver_preload(["cudalint.api", "cudalint.frontend.parse",
                                    "cudalint.model.proof", "cudalint.model.analyze",
                                    "cudalint.fixes"])
        _start_helpers(forkserver=True)
        return ctx
    _start_helpers(forkserver=False)
    return multiprocessing.get_context("spawn")


_helpers_lock = threading.Lock()


def _can_fork_pool() -> bool:
    import multiprocessing

    return (sys.platform.startswith("linux") and sys.version_info >= (3, 11)
            and "fork" in multiprocessing.get_all_start_methods()
            and os.environ.get("CUDALINT_POOL_FORKSERVER", "") in ("", "0"))


def _fork_ready() -> bool:
    """Load here what every worker needs (libclang, the pipeline, the fixes), once,
    before the workers are forked: they start with it, and share its pages. What a
    separate fork server would import again (about 0.5 s before the first file starts,
    and 60 MB more resident memory for the run) is not. False when no thread but this
    one may run (a fork copies only the calling thread, and any lock another holds)."""
    if threading.active_count() != 1:
        return False
    from cudalint.frontend import prepare_fork

    prepare_fork()
    import cudalint.model.analyze
    import cudalint.model.proof
    with contextlib.suppress(ImportError):
        import cudalint.fixes  # noqa: F401
    return True


def _start_helpers(forkserver: bool) -> None:
    """Start multiprocessing's helper processes (the resource tracker, the fork server)
    so that they cannot import code from the current directory.

    Each is a new interpreter run as ``python -c 'from multiprocessing... import main'``,
    which puts the directory it starts in first on ``sys.path``: run from a linted
    repository, a ``multiprocessing/`` package planted there would run. They start here,
    once per process, from the standard library's own directory (where ``''`` finds
    nothing new). The fork server's children, the workers, get this process's
    ``sys.path`` and working directory from multiprocessing, so paths still resolve as
    the user gave them. (The "spawn" workers of Windows start as the same kind of
    ``-c`` interpreter: ``PYTHONSAFEPATH`` keeps the current directory off their path on
    Python 3.11+.)
    """
    from multiprocessing import forkserver as server
    from multiprocessing import resource_tracker

    safe = os.path.dirname(os.path.abspath(os.__file__))
    with _helpers_lock:
        if not forkserver:
            os.environ.setdefault("PYTHONSAFEPATH", "1")
        try:
            back: int | str = os.open(".", os.O_RDONLY)
        except OSError:
            try:
                back = os.getcwd()
            except OSError:  # the current directory is gone: nothing can be found in it
                back = ""
        try:
            if back != "":
                os.chdir(safe)
            resource_tracker.ensure_running()
            if forkserver:
                server.ensure_running()
        finally:
            if isinstance(back, int):
                os.fchdir(back)
                os.close(back)
            elif back:
                os.chdir(back)


def _crash_report(task: FileTask, exc: BaseException) -> FileReport:
    detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return FileReport(
        path=task.path,
        error=f"internal error analyzing {task.path}: {detail}; please report",
    )


def _run_pool(
    tasks: Sequence[FileTask], indices: Sequence[int], workers: int,
    finished: Callable[[int, FileReport | None], None],
) -> list[tuple[int, int | None]]:
    """Run ``indices`` in a pool; ``finished(i, None)`` when the pool broke under task i.
    Returns the workers that died: (exit code, index of the task it was running or
    None)."""
    context = _pool_context(fork=True)
    # The workers' temporary files (libclang's precompiled shim, the empty toolkit
    # directory) go into one directory of this run, removed here: a worker ends with
    # os._exit (no atexit, no finalizers) or is killed, and cannot clean up itself.
    try:
        run_dir: str | None = tempfile.mkdtemp(prefix="cudalint-run-")
    except OSError:
        run_dir = None
    try:
        shims = _shared_shims([tasks[i] for i in indices])
        return _run_pool_in(tasks, indices, workers, finished, context, run_dir, shims)
    finally:
        if run_dir is not None:
            _remove_run_dir(run_dir)


#: At most this many precompiled shims are built before a pool starts (one per set of
#: clang arguments that two or more of its files share, the commonest first).
SHARED_SHIMS = 4


def _shared_shims(tasks: Sequence[FileTask]) -> dict[tuple[str, ...], str | None]:
    """The precompiled shims of the pool's commonest options, built here, once, before
    the workers start: each worker adopts them (``_worker_init``) instead of building
    its own (about 0.05 s of CPU each, and again in every worker a pool replaces).
    Options only one file uses are left to the worker that parses it."""
    from collections import Counter

    counts = Counter(t.options for t in tasks if t.error is None)
    common = [o for o, n in counts.most_common(SHARED_SHIMS) if n >= 2]
    if not common:
        return {}
    try:
        from cudalint.frontend import precompile_shims, prepare_fork

        prepare_fork()  # libclang, and the directory the shims go into, owned here
        return precompile_shims(common)
    except Exception:  # the workers build their own, as before
        return {}


def _remove_run_dir(run_dir: str) -> None:
    """Remove the run's directory; after Ctrl-C, terminated workers may still be writing
    in it for a moment (a second at most is spent on them)."""
    deadline = time.monotonic() + 1.0
    while True:
        shutil.rmtree(run_dir, ignore_errors=True)
        if not os.path.lexists(run_dir) or time.monotonic() > deadline:
            return
        time.sleep(0.05)


def _worker_init(run_dir: str | None, main_pid: int | None = None,
                 memory: int | None = None,
                 shims: Mapping[tuple[str, ...], str | None] | None = None) -> None:
    """In a worker: temporary files under the run's directory (``_run_pool``), the
    memory cap (:func:`cudalint.budget.cap_worker`), the precompiled shims the main
    process built (``_shared_shims``), and an end when the main process is gone
    (killed, or stopped while this worker was deep in libclang)."""
    global _marker_dir, _main_dirs
    import gc
    import signal

    parse = sys.modules.get("cudalint.frontend.parse")
    if parse is not None and main_pid is not None and os.getppid() == main_pid:
        # forked from the main process: its temporary directories, to remove when it is
        # killed (_watch_main)
        _main_dirs = list(parse.temporary_dirs())

    # a worker forked from the main process would run its SIGTERM handler
    # (_sigterm_stops): a worker that is told to end ends
    with contextlib.suppress(ValueError, OSError):
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # what the main process or the fork server loaded is never garbage: the collections
    # after each file (release_memory) then walk only what this worker made
    gc.freeze()
    if shims:
        from cudalint.frontend import adopt_precompiled_shims

        adopt_precompiled_shims(shims)
    if run_dir is not None:
        tempfile.tempdir = run_dir
        os.environ["TMPDIR"] = run_dir  # libclang's own temporary files
        _marker_dir = run_dir
    cap_worker(memory)
    if main_pid is not None:
        threading.Thread(target=_watch_main, args=(main_pid, os.getppid()),
                         name="cudalint-watch", daemon=True).start()


def _watch_main(main_pid: int, parent: int) -> None:
    """Exit this worker as soon as the main process (or the fork server, its parent)
    has gone: a worker must not outlive the run that started it (killed with SIGKILL,
    the main process cannot stop its workers itself)."""
    started = _process_start(main_pid)
    while True:
        time.sleep(0.25)
        if _process_gone(main_pid, started) or os.getppid() != parent:
            for d in (_marker_dir, *_main_dirs):  # the main process cannot remove them now
                if d is not None:
                    shutil.rmtree(d, ignore_errors=True)
            os._exit(1)


def _process_start(pid: int) -> tuple[str, str] | None:
    """(state, start time) of ``pid`` from /proc (None where there is no /proc)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return fields[0], fields[19]
    except (OSError, IndexError):
        return None


def _process_gone(pid: int, started: tuple[str, str] | None) -> bool:
    """Whether ``pid`` has ended: no such process, a zombie (its parent has not yet
    reaped it), or another process that reuses the number."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        pass
    if started is None:
        return False
    now = _process_start(pid)
    return now is None or now[0] in ("Z", "X") or now[1] != started[1]


#: In a worker: the run's directory, where ``_run_task_capped`` leaves its marker.
_marker_dir: str | None = None
#: In a worker forked from the main process: the main process's temporary directories.
_main_dirs: list[str] = []


def _run_task_capped(task: FileTask, index: int = -1) -> FileReport:
    """``_run_task`` in a worker, under the per-file CPU cap; a worker left with an
    abandoned analysis thread (stuck past the backstop) ends once its report is sent,
    so that the thread cannot go on using CPU or memory while later files run.

    While the file is analysed, ``<run dir>/worker-<pid>`` holds ``index``: when the
    worker dies, the main process knows which file killed it (``_deaths``)."""
    marker = (os.path.join(_marker_dir, f"worker-{os.getpid()}")
              if _marker_dir is not None else None)
    if marker is not None:
        with contextlib.suppress(OSError), open(marker, "w", encoding="ascii") as f:
            f.write(str(index))
    with cpu_capped(worker_cpu_cap(task.options.timeout)):
        report = _run_task(task)
    release_memory()  # earlier files' translation units, libclang's freed heap
    if thread_start_failed():
        # out of address space (an abandoned analysis holds it): end without a report;
        # the main process runs this worker's files again in fresh workers
        os._exit(3)
    if marker is not None:
        with contextlib.suppress(OSError):
            os.unlink(marker)
    if abandoned_threads():
        threading.Thread(target=_exit_soon, name="cudalint-exit", daemon=True).start()
    return report


def _exit_soon() -> None:
    time.sleep(0.5)  # the report is sent by then; the pool's next files go elsewhere
    os._exit(3)


def _died(exitcode: int | None, cpu_cap: float | None, memory: int | None) -> str:
    """Why a worker process that ended with ``exitcode`` died, for its file's error."""
    if exitcode is None or exitcode >= 0:
        return "the analysis process died"
    number = -exitcode
    name = _signal_name(number)
    if name == "SIGXCPU" and cpu_cap is not None:
        return (f"analysis stopped: it used more than {format_seconds(cpu_cap)} of CPU "
                "time, the analysis process's cap (see --timeout); the file was not "
                "analyzed")
    mem = f"{memory / (1 << 30):.3g} GiB" if memory is not None else None
    if name in ("SIGABRT", "SIGKILL", "SIGSEGV") and mem is not None:
        return (f"the analysis process died ({name}): libclang crashed or needed more "
                f"than the worker's {mem} of memory (CUDALINT_WORKER_MEMORY)")
    return f"the analysis process died ({name})"


def _capped(exitcode: int) -> bool:
    """Whether a worker ended with ``exitcode`` was killed by its CPU cap."""
    return exitcode < 0 and _signal_name(-exitcode) == "SIGXCPU"


def _signal_name(number: int) -> str:
    import signal

    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _run_pool_in(
    tasks: Sequence[FileTask], indices: Sequence[int], workers: int,
    finished: Callable[[int, FileReport | None], None],
    context: multiprocessing.context.BaseContext, run_dir: str | None,
    shims: Mapping[tuple[str, ...], str | None] | None = None,
) -> list[tuple[int, int | None]]:
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context,
                               initializer=_worker_init,
                               initargs=(run_dir, os.getpid(), worker_memory_cap(workers),
                                         shims or None))
    processes: dict[int, multiprocessing.process.BaseProcess] = {}

    def known() -> list[multiprocessing.process.BaseProcess]:
        processes.update(_processes_of(pool))
        return list(processes.values())

    try:
        with _sigterm_stops():
            futures: dict[Future[FileReport], int] = {
                pool.submit(_run_task_capped, tasks[i], i): i for i in indices
            }
            known()
            for future in _as_completed(futures):
                i = futures[future]
                known()
                try:
                    finished(i, future.result())
                except BrokenProcessPool:
                    finished(i, None)
                except Exception as exc:  # the report did not pickle, or the like
                    finished(i, _crash_report(tasks[i], exc))
    except BaseException:
        # Ctrl-C, SIGTERM or a failing progress callback: do not wait for the queued
        # files, nor for the ones being analysed (whose workers write in the run's
        # directory, and may be deep in libclang where SIGTERM is not enough).
        _stop_pool(pool, known())
        raise
    pool.shutdown(wait=True)
    return _deaths(processes, run_dir)


def _deaths(processes: Mapping[int, multiprocessing.process.BaseProcess],
            run_dir: str | None) -> list[tuple[int, int | None]]:
    """The workers of ``processes`` that died (not a normal exit), each with the index
    of the task it was running when its marker (``_run_task_capped``) says so."""
    out: list[tuple[int, int | None]] = []
    for pid, process in processes.items():
        code = process.exitcode
        if code is None or code == 0:
            continue
        index: int | None = None
        if run_dir is not None:
            marker = os.path.join(run_dir, f"worker-{pid}")
            with contextlib.suppress(OSError, ValueError), open(marker, encoding="ascii") as f:
                index = int(f.read().strip())
        out.append((code, index if index is not None and index >= 0 else None))
    return out


def _processes_of(pool: ProcessPoolExecutor) -> dict[int, multiprocessing.process.BaseProcess]:
    """The pool's worker processes by pid (a copy: its manager thread changes them)."""
    for _ in range(3):
        try:
            return dict(getattr(pool, "_processes", None) or {})
        except RuntimeError:  # changed while copied
            continue
    return {}


def _stop_pool(pool: ProcessPoolExecutor,
               processes: Sequence[multiprocessing.process.BaseProcess]) -> None:
    """Stop ``pool`` now: its queued files cancelled, its workers terminated (killed
    when they do not end within a second), and its manager thread not waited for at
    exit (the interpreter's exit would otherwise hang on it)."""
    with contextlib.suppress(Exception):
        pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    deadline = time.monotonic() + 1.0
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join(1.0)
    with contextlib.suppress(Exception):
        from concurrent.futures import process as futures_process

        thread = getattr(pool, "_executor_manager_thread", None)
        wakeups = getattr(futures_process, "_threads_wakeups", None)
        if thread is not None and isinstance(wakeups, dict):
            wakeup = wakeups.pop(thread, None)
            if wakeup is not None:
                wakeup.wakeup()


class _Terminated(SystemExit):
    """SIGTERM while worker processes run: unwinds as Ctrl-C does, so that they are
    stopped, then exits with 128 + SIGTERM as the signal would have."""


@contextlib.contextmanager
def _sigterm_stops() -> Iterator[None]:
    """While the body runs (on the main thread): SIGTERM raises :class:`_Terminated`."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, _frame: object) -> None:
        raise _Terminated(128 + signum)

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except (ValueError, OSError):
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(ValueError, OSError):
            signal.signal(signal.SIGTERM, previous)


class IsolatedChecker:
    """Analyses one file at a time in a worker process kept from call to call, under
    the workers' CPU and memory caps: for a long-lived caller (the language server), in
    which a file spinning or allocating inside libclang would otherwise go on for good,
    one more thread per edit. A worker that dies is replaced at the next call; when no
    worker process can be started, the file is analysed in this process.
    """

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._run_dir: str | None = None
        self._lock = threading.Lock()

    def check(self, task: FileTask) -> FileReport:
        from concurrent.futures.process import BrokenProcessPool

        with self._lock:
            try:
                pool = self._pool if self._pool is not None else self._start()
                future = pool.submit(_run_task_capped, task, 0)
            except _POOL_FAILURES:
                self._stop()
                return _run_task(task)
            processes = _processes_of(pool)
            try:
                return future.result()
            except BrokenProcessPool:
                processes.update(_processes_of(pool))
                self._stop()
                code = next((p.exitcode for p in processes.values()
                             if p.exitcode not in (None, 0)), None)
                why = _died(code, worker_cpu_cap(task.options.timeout), worker_memory_cap(1))
                if code is None or not _capped(code):
                    why = f"internal error analyzing {task.path}: {why}; please report"
                return FileReport(path=task.path, error=why)
            except Exception as exc:  # the report did not pickle, or the like
                return _crash_report(task, exc)

    def _start(self) -> ProcessPoolExecutor:
        from concurrent.futures import ProcessPoolExecutor

        context = _pool_context()
        if self._run_dir is None:
            try:
                self._run_dir = tempfile.mkdtemp(prefix="cudalint-run-")
            except OSError:
                self._run_dir = None
        self._pool = ProcessPoolExecutor(
            max_workers=1, mp_context=context, initializer=self._initializer(),
            initargs=(self._run_dir, os.getpid(), worker_memory_cap(1)))
        return self._pool

    def _initializer(self) -> Callable[[str | None, int | None, int | None], None]:
        """What the worker runs first (a subclass adds to it: the editor's caches)."""
        return _worker_init

    def _stop(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            _stop_pool(pool, list(_processes_of(pool).values()))

    def close(self) -> None:
        """Stop the worker and remove its temporary files."""
        with self._lock:
            self._stop()
            if self._run_dir is not None:
                _remove_run_dir(self._run_dir)
                self._run_dir = None


class _PerFileProcess:
    """Analyses files in a child forked from this process (``budget.ForkedWorker``):
    the serial run's counterpart of a ``-j`` worker, under the same CPU and memory caps
    and a wall-clock limit past the file's backstop, so that a file spinning or
    allocating inside libclang is stopped and costs only its own result. The fork costs
    a few milliseconds (everything is loaded already) and the child serves file after
    file, until one kills it or its memory grows (libclang's heap goes with it); the
    shared state (libclang, the temporary directories) is made here before the first
    fork, and a precompiled shim a child builds is adopted for the next children.

    In this process instead where there is no ``os.fork`` (Windows), where
    ``CUDALINT_IN_PROCESS=1`` asks for it (profilers, debuggers), or, with a note, once
    a fork has failed.
    """

    def __init__(self, note: Callable[[str], None] | None = None) -> None:
        self._note = note
        self._off = not can_fork() or os.environ.get("CUDALINT_IN_PROCESS", "") not in ("", "0")
        self._worker: ForkedWorker[FileTask, _ChildResult] | None = None
        self._run_dir: str | None = None
        self._memory: int | None = None

    def __call__(self, task: FileTask) -> FileReport:
        if self._off or task.error is not None:
            return _run_task(task)
        worker = self._worker if self._worker is not None else self._prepare()
        timeout = task.options.timeout
        wall: float | None = None
        if timeout is not None and timeout > 0:
            # past the analysis thread's own backstop, which counts CPU time and gives
            # up only after HARD_WALL_FACTOR times it in wall-clock time: a busy machine
            # (a thread waiting for a core) must not decide the file's result
            wall = HARD_WALL_FACTOR * (HARD_FACTOR * timeout + HARD_GRACE) + HARD_GRACE + 5
            if wall >= MAX_WAIT:  # ``--timeout 1e308``: no limit
                wall = None
        cpu = worker_cpu_cap(timeout)
        try:
            forked = worker.call(task, cpu=cpu, wall=wall)
        except OSError as exc:
            self._off = True
            if self._note is not None:
                self._note(f"cannot start a process for the files ({_why(exc)}); analyzing "
                           "them in this process, without the CPU and memory caps")
            return _run_task(task)
        if forked.returned and forked.value is not None:
            report, shims = forked.value
            from cudalint.frontend import adopt_precompiled_shims

            adopt_precompiled_shims(shims)
            return report
        if forked.timed_out:
            return FileReport(path=task.path, error=(
                f"analysis stopped: it did not end within {format_seconds(wall or 0)} "
                "(wall-clock time; see --timeout); the file was not analyzed"))
        if forked.exitcode is not None:
            why = _died(forked.exitcode, cpu, self._memory)
            if not _capped(forked.exitcode) and (
                    why == "the analysis process died" or "crashed" in why):
                why = f"internal error analyzing {task.path}: {why}; please report"
            return FileReport(path=task.path, error=why)
        return FileReport(path=task.path, error=(
            f"internal error analyzing {task.path}: {forked.error}; please report"))

    def _prepare(self) -> ForkedWorker[FileTask, _ChildResult]:
        from cudalint.frontend import prepare_fork  # the pipeline, loaded before the fork

        prepare_fork()
        import cudalint.model.analyze
        import cudalint.model.proof
        with contextlib.suppress(ImportError):  # imported by the first conflict otherwise
            import cudalint.fixes  # noqa: F401
        self._memory = worker_memory_cap(1)
        try:
            self._run_dir = tempfile.mkdtemp(prefix="cudalint-run-")
        except OSError:
            self._run_dir = None
        self._worker = ForkedWorker(_run_in_child, memory=self._memory,
                                    tmpdir=self._run_dir)
        return self._worker

    def close(self) -> None:
        """End the child and remove its temporary directory."""
        if self._worker is not None:
            self._worker.close()
            self._worker = None
        if self._run_dir is not None:
            _remove_run_dir(self._run_dir)
            self._run_dir = None


_ChildResult = tuple[FileReport, dict[tuple[str, ...], str | None]]


def _run_in_child(task: FileTask) -> _ChildResult:
    """In the child of :class:`_PerFileProcess`: the report, and the precompiled shims
    it built."""
    from cudalint.frontend import precompiled_shims

    before = precompiled_shims()
    report = _run_task(task)
    built = {k: v for k, v in precompiled_shims().items() if k not in before}
    return report, built


def run_tasks(
    tasks: Sequence[FileTask], jobs: int = 1, progress: Progress | None = None,
    *, note: Callable[[str], None] | None = None,
) -> list[FileReport]:
    """Analyze every task; reports come back in the order of ``tasks`` whatever ``jobs``.

    With ``jobs`` 1 each file is analyzed in a process of its own, forked from this one
    (:class:`_PerFileProcess`), under the CPU and memory caps of the workers. With
    ``jobs`` > 1 the files are analyzed in that many worker processes. When a
    worker dies (libclang crashing on a file), every file the broken pool did not finish
    is analyzed again on its own, so that only the file that crashes gets an error.
    When worker processes cannot be started at all (no usable ``/dev/shm`` for their
    locks, no processes or memory left), the files are analyzed one at a time in this
    process and ``note`` is told why, once.
    Code in a header that several files include is reported once, and its suppression
    comments count as used by any file of the run (``runmerge.merge_reports``).
    """
    total = len(tasks)
    todo = [i for i, t in enumerate(tasks) if t.error is None]
    reports: list[FileReport | None] = [
        FileReport(path=t.path, error=t.error) if t.error is not None else None for t in tasks
    ]
    # --cache-dir: the reports of unchanged files from an earlier run (cudalint.result_cache)
    from cudalint import result_cache

    misses = result_cache.lookup(tasks, todo, reports)
    todo = [i for i in todo if reports[i] is None]
    done = total - len(todo)

    def count() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    serial: list[str] = []  # why the worker processes could not be used, once they failed

    def unusable(why: str) -> None:
        if not serial and note is not None:
            note(f"cannot use worker processes for -j ({why}); analyzing the files one "
                 "at a time")
        serial.append(why)

    one = _PerFileProcess(note)
    try:
        # Headers found in a directory wait for the files that may include them
        # (whatever ``jobs``, so that the output does not depend on it).
        later = [i for i in todo if tasks[i].discovered and is_header(tasks[i].path)]
        if later:
            _run_indices(tasks, [i for i in todo if i not in set(later)], jobs, reports,
                         count, serial, unusable, one)
            covered = included_elsewhere(reports)
            rest = []
            for i in later:
                if _abs(tasks[i].path) in covered:
                    reports[i] = covered_report(tasks[i], covered[_abs(tasks[i].path)])
                    count()
                else:
                    rest.append(i)
            _run_indices(tasks, rest, jobs, reports, count, serial, unusable, one)
        else:
            _run_indices(tasks, todo, jobs, reports, count, serial, unusable, one)
    finally:
        one.close()
    result_cache.store(misses, reports)  # each file's own report, before the merges below
    out = [r if r is not None else FileReport(path=t.path, error="not analyzed")
           for r, t in zip(reports, tasks, strict=True)]
    link_reports(tasks, out)  # kernels launched from another file of their folder
    merge_reports(out)
    return out


def included_elsewhere(reports: Sequence[FileReport | None]) -> dict[str, str]:
    """Project files that a fully analysed report's unit includes (absolute path), each
    with the first such report's path."""
    out: dict[str, str] = {}
    for report in reports:
        if report is None or report.error is not None or report.unit is None:
            continue
        if not report.unit.parsed:
            continue
        for inc in report.unit.includes:
            out.setdefault(os.path.normcase(inc), report.path)
    return out


def covered_report(task: FileTask, by: str) -> FileReport:
    """The report of a discovered header that ``by`` includes: not analysed on its own.

    Every access in it is analysed in ``by``'s unit (its kernels, instantiated or not,
    and its ``__device__`` functions, called or not: the walker runs them all), where
    ``dedupe_reports`` would prefer those results over the header's own anyway; what the
    header alone adds is only clang's errors of a header parsed without the includes
    and macros its users give it. The file still counts as analysed.
    """
    source = task.contents
    if source is None:
        try:
            source = _read(task.path)
        except OSError:  # read for excerpts and suppressions only: none then
            source = None
    report = FileReport(path=task.path, unit=TranslationUnit(file=task.path),
                        source=source, covered_by=by, codes=enabled_codes(task.selection))
    suppress(report)  # its comments, for the unused ones (``merge_reports``)
    return report


#: What starting a process pool raises when it cannot work here: OSError (no usable
#: /dev/shm for its semaphores, no processes or memory left), ImportError (no sem_open
#: on this platform), NotImplementedError (too few semaphores allowed).
_POOL_FAILURES = (OSError, ImportError, NotImplementedError)


def _run_indices(tasks: Sequence[FileTask], todo: Sequence[int], jobs: int,
                 reports: list[FileReport | None], count: Callable[[], None],
                 serial: Sequence[str] = (),
                 unusable: Callable[[str], None] | None = None,
                 one: Callable[[FileTask], FileReport] = _run_task) -> None:
    """Analyse ``tasks[i]`` for ``i`` in ``todo`` into ``reports[i]``; one at a time with
    ``one`` (a forked child per file: :class:`_PerFileProcess`) when ``jobs`` is 1,
    ``serial`` says that the pool could not be used, or it fails to start."""
    workers = min(jobs, len(todo))
    if workers <= 1 or serial:
        with _sigterm_stops():
            for i in todo:
                reports[i] = one(tasks[i])
                count()
    else:
        broken: list[int] = []

        def finished(i: int, report: FileReport | None) -> None:
            if report is None:
                broken.append(i)
            else:
                reports[i] = report
                count()

        try:
            deaths = _run_pool(tasks, todo, workers, finished)
        except _POOL_FAILURES as exc:
            deaths = []
            if unusable is not None:
                unusable(_why(exc))
            with _sigterm_stops():
                for i in todo:
                    if reports[i] is None and i not in broken:
                        reports[i] = one(tasks[i])
                        count()
        # A file whose worker its CPU cap killed is not run again (it would only be
        # killed again): its error says so.
        for code, j in deaths:
            if j is not None and j in broken and _capped(code):
                broken.remove(j)
                reports[j] = FileReport(path=tasks[j].path, error=_died(
                    code, worker_cpu_cap(tasks[j].options.timeout), None))
                count()
        crashed: list[int] = []

        def alone(j: int, report: FileReport | None) -> None:
            if report is None:
                crashed.append(j)
            else:
                reports[j] = report

        for i in sorted(broken):
            try:
                codes = [code for code, _ in _run_pool(tasks, [i], 1, alone)]
            except _POOL_FAILURES as exc:
                # Not in this process: the file may well crash it.
                reports[i] = FileReport(
                    path=tasks[i].path,
                    error=f"internal error analyzing {tasks[i].path}: the analysis "
                    f"process died, and no new one could be started ({_why(exc)})",
                )
                count()
                continue
            if i in crashed:
                why = _died(next((c for c in codes if c is not None), None),
                            worker_cpu_cap(tasks[i].options.timeout), worker_memory_cap(1))
                if why == "the analysis process died" or "crashed" in why:
                    why = f"internal error analyzing {tasks[i].path}: {why}; please report"
                reports[i] = FileReport(path=tasks[i].path, error=why)
            count()


def _why(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _as_completed(futures: Iterable[Future[FileReport]]) -> Iterable[Future[FileReport]]:
    from concurrent.futures import as_completed

    return as_completed(list(futures))
