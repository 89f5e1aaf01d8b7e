"""The language server's stdin/stdout transport: LSP's ``Content-Length`` framing, read
so that no input can make the server print a traceback, stop answering, or exit.

pygls' own reader skips a header it cannot parse and then waits for a ``Content-Length``
that never comes (the server goes deaf), reads any length it is given (a huge one ends
the process), and answers a body that is not UTF-8 or not JSON with a traceback on
stderr and a pop-up instead of a JSON-RPC error. Here every bad message gets the
JSON-RPC 2.0 answer and the server reads on:

- a header block without a valid ``Content-Length`` (missing, not a number, more than
  ``MAX_BODY`` bytes), or with a line that is not a header: ``-32700`` (id null); the
  reader then skips to the next ``Content-Length:`` and goes on from there;
- a body that is not UTF-8 or not JSON: ``-32700``, with the request's id when it can
  still be read, else null;
- JSON that is not a JSON-RPC 2.0 message (an array, no ``"jsonrpc": "2.0"``, a method
  that is not a string, an id that is neither a string nor an integer): ``-32600``;
- a request whose params do not fit its method (a negative or too large position, a
  missing field): ``-32602`` with the request's id (a notification is only logged:
  it must not be answered).

Only the framing and the checks are here; pygls still dispatches every valid message.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
import threading
from collections.abc import Awaitable, Callable
from typing import IO, Any, BinaryIO, cast

from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer

__all__ = ["MAX_BODY", "MAX_HEADER_LINE", "Framing", "install_logging", "start_io"]

#: The largest message body read (a document of a few hundred MB is not source code).
MAX_BODY = 256 << 20
#: A header line longer than this is not one (read in pieces of this size, so that a
#: stream without newlines cannot fill the memory).
MAX_HEADER_LINE = 8192

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

_CONTENT_LENGTH = b"content-length:"
_DIGITS = re.compile(rb"[0-9]+")

MsgId = int | str | None
ReadLine = Callable[[], Awaitable[bytes]]
Read = Callable[[int], Awaitable[bytes]]


class FramingError(Exception):
    """The header block just read does not frame a message (its body is skipped)."""


class Framing:
    """Reads LSP messages (their bodies) from a byte stream, resynchronising after a
    malformed header at the next ``Content-Length:``. ``stray`` hears of data found
    between messages (once per run of it)."""

    def __init__(self, readline: ReadLine, read: Read,
                 stray: Callable[[str], None] | None = None) -> None:
        self._readline = readline
        self._read = read
        self._stray = stray
        self._skipping = False

    def _garbage(self, size: int, said: bool) -> bool:
        if not said and self._stray is not None:
            self._stray(f"{size} bytes of data outside any message (skipped)")
        return True

    async def message(self) -> bytes | None:
        """The next body; None at the end of the stream. Raises FramingError (after
        reading the bad header block) when the headers do not frame a message."""
        length: int | None = None
        problem: str | None = None
        started = said = False
        while True:
            line = await self._readline()
            if not line:
                return None
            if not started:
                # Between messages, or after a bad one: a header starts at the next
                # Content-Length, which may follow the rest of an unframed body.
                at = line.lower().find(_CONTENT_LENGTH)
                if at < 0 and (self._skipping or not line.strip()):
                    continue
                if at < 0 and b":" not in line:
                    said = self._garbage(len(line), said)
                    continue
                if at > 0:
                    if not self._skipping and line[:at].strip():
                        said = self._garbage(at, said)
                    line = line[at:]
                self._skipping = False
            elif not line.strip():
                break
            started = True
            if not line.endswith(b"\n"):
                problem = problem or f"a header line longer than {MAX_HEADER_LINE} bytes"
                continue
            name, colon, value = line.partition(b":")
            if not colon:
                problem = problem or f"not a header line: {_show(line)}"
                continue
            if name.strip().lower() == b"content-length":
                text = value.strip()
                if not _DIGITS.fullmatch(text):
                    problem = problem or f"invalid Content-Length: {_show(text)}"
                elif len(text) > 12 or int(text) > MAX_BODY:
                    problem = problem or (f"Content-Length {text.decode()} is more than "
                                          f"{MAX_BODY} bytes")
                else:
                    length = int(text)
        if problem is None and length is None:
            problem = "no Content-Length header"
        if problem is not None:
            self._skipping = True
            raise FramingError(problem)
        assert length is not None
        body = await self._read(length) if length else b""
        if len(body) < length:
            return None  # the stream ended inside the body
        return body


def _show(data: bytes) -> str:
    text = data.strip().decode("utf-8", errors="replace")
    return repr(text if len(text) <= 60 else text[:60] + "…")


def _error(msg_id: MsgId, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}


def _valid_id(value: object) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or isinstance(value, str)


def _salvage_id(body: bytes) -> MsgId:
    """The id of a request whose body is not UTF-8, when the rest still parses."""
    try:
        data = json.loads(body.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError):
        return None
    msg_id = data.get("id") if isinstance(data, dict) else None
    return msg_id if _valid_id(msg_id) else None


def _leaf(exc: BaseException) -> str:
    """The first underlying reason of a (cattrs) validation error, one line."""
    seen = 0
    while seen < 50:
        seen += 1
        nested = getattr(exc, "exceptions", None)
        if nested:
            exc = nested[0]
        elif exc.__cause__ is not None:
            exc = exc.__cause__
        else:
            break
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


class Dispatcher:
    """Checks one body and hands it to pygls, answering what pygls cannot."""

    def __init__(self, server: LanguageServer, send: Callable[[dict[str, Any]], None],
                 log: Callable[[str], None]) -> None:
        self.server = server
        self.send = send
        self.log = log

    def framing_error(self, problem: str) -> None:
        self.log(f"invalid message header: {problem}")
        self.send(_error(None, PARSE_ERROR, f"Parse error: invalid message header: {problem}"))

    def stray(self, problem: str) -> None:
        self.log(f"invalid input: {problem}")
        self.send(_error(None, PARSE_ERROR, f"Parse error: {problem}"))

    def body(self, body: bytes) -> None:
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            self.log(f"message body is not UTF-8: {exc}")
            self.send(_error(_salvage_id(body), PARSE_ERROR,
                             f"Parse error: the message is not UTF-8 ({exc.reason} at "
                             f"byte {exc.start})"))
            return
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:  # RecursionError: nested too deeply
            reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
            self.log(f"message body is not JSON: {reason}")
            self.send(_error(None, PARSE_ERROR, f"Parse error: invalid JSON: {reason}"))
            return
        problem = self._invalid_request(data)
        if problem is not None:
            msg_id = data.get("id") if isinstance(data, dict) else None
            self.log(f"invalid request: {problem}")
            self.send(_error(msg_id if _valid_id(msg_id) else None, INVALID_REQUEST,
                             f"Invalid request: {problem}"))
            return
        assert isinstance(data, dict)
        is_request = "method" in data and "id" in data
        protocol = self.server.protocol
        try:
            message = protocol.structure_message(data)
        except JsonRpcException as exc:
            reason = _leaf(exc)
            method = data.get("method", "the response")
            self.log(f"invalid params for {method}: {reason}")
            if is_request:
                code = INVALID_PARAMS if exc.code == INVALID_PARAMS else exc.code
                self.send(_error(data["id"], code, f"Invalid params for {method}: {reason}"))
            return
        except Exception as exc:  # pygls' converter failing some other way
            self.log(f"cannot read {data.get('method', 'a message')}: {_leaf(exc)}")
            if is_request:
                self.send(_error(data["id"], INTERNAL_ERROR, f"Internal error: {_leaf(exc)}"))
            return
        try:
            protocol.handle_message(message)
        except Exception as exc:  # pygls answers handler errors itself; this is a backstop
            self.log(f"error handling {data.get('method', 'a message')}: {_leaf(exc)}")
            if is_request:
                self.send(_error(data["id"], INTERNAL_ERROR, f"Internal error: {_leaf(exc)}"))

    @staticmethod
    def _invalid_request(data: object) -> str | None:
        if isinstance(data, list):
            return "a batch (JSON array); LSP sends one message at a time"
        if not isinstance(data, dict):
            return "expected a JSON object"
        if data.get("jsonrpc") != "2.0":
            return 'expected "jsonrpc": "2.0"'
        if "id" in data and data["id"] is not None and not _valid_id(data["id"]):
            return "'id' must be a string or an integer"
        if "method" in data:
            if not isinstance(data["method"], str):
                return "'method' must be a string"
            params = data.get("params")
            if params is not None and not isinstance(params, (dict, list)):
                return "'params' must be an object or an array"
        elif "id" not in data:
            return "neither a request, a notification nor a response"
        return None


class _Log:
    """One line per problem on stderr (the client's log), never a traceback."""

    def __init__(self, stream: IO[str] | None) -> None:
        self.stream = stream

    def __call__(self, message: str) -> None:
        if self.stream is None:
            return
        try:
            self.stream.write(f"cudalint lsp: {message}\n")
            self.stream.flush()
        except (OSError, ValueError):
            pass


class _OneLine(logging.Handler):
    """pygls' log records as single lines (its ``logger.exception`` calls would print
    tracebacks)."""

    def __init__(self, log: Callable[[str], None]) -> None:
        super().__init__(logging.WARNING)
        self.log = log

    def emit(self, record: logging.LogRecord) -> None:
        try:
            lines = record.getMessage().strip().splitlines()
        except Exception:  # a record whose arguments do not format
            lines = [str(record.msg)]
        reason = f": {_leaf(record.exc_info[1])}" if record.exc_info and record.exc_info[1] \
            else ""
        self.log(f"{record.levelname.lower()}: {lines[0] if lines else ''}{reason}")


def install_logging(log: Callable[[str], None] | None = None) -> None:
    """Route pygls' warnings and errors through one-line messages on stderr."""
    handler = _OneLine(log or _Log(sys.stderr))
    logger = logging.getLogger("pygls")
    for old in [h for h in logger.handlers if isinstance(h, _OneLine)]:
        logger.removeHandler(old)
    logger.addHandler(handler)
    logger.propagate = False


def start_io(server: LanguageServer, stdin: IO[bytes] | None = None,
             stdout: IO[bytes] | None = None) -> None:
    """Serve ``server`` over ``stdin``/``stdout`` (LSP's framing) until ``exit`` or the end
    of the input; pygls' ``start_io`` with the reader above."""
    from pygls.io_ import StdoutWriter

    source = stdin if stdin is not None else sys.stdin.buffer
    writer = StdoutWriter(cast(BinaryIO, stdout if stdout is not None else sys.stdout.buffer))
    server.protocol.set_writer(writer)
    stop = threading.Event()
    server._stop_event = stop  # what pygls' shutdown sets
    log = _Log(sys.stderr)
    install_logging(log)
    lock = threading.Lock()

    def send(message: dict[str, Any]) -> None:
        body = json.dumps(message).encode("utf-8")
        with lock:
            writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    dispatcher = Dispatcher(server, send, log)

    async def loop() -> None:
        running = asyncio.get_running_loop()
        pool = server.thread_pool

        def readline() -> Awaitable[bytes]:
            return running.run_in_executor(pool, source.readline, MAX_HEADER_LINE)

        def read(n: int) -> Awaitable[bytes]:
            return running.run_in_executor(pool, source.read, n)

        framing = Framing(readline, read, dispatcher.stray)
        while not stop.is_set():
            try:
                body = await framing.message()
            except FramingError as exc:
                dispatcher.framing_error(str(exc))
                continue
            if body is None:
                break
            dispatcher.body(body)

    try:
        asyncio.run(loop())
    except BrokenPipeError:
        log("the client closed the connection")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()  # type: ignore[no-untyped-call]
