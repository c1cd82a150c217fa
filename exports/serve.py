"""Serve a built site over http on 127.0.0.1 (used by the browser tests, the bench and people).

WebAssembly pages must come over http (file:// is blocked) with the right MIME types.
"""

from __future__ import annotations

import argparse
import functools
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

MIME = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript"}


class QuietHandler(SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **SimpleHTTPRequestHandler.extensions_map,
        **MIME,
    }

    def log_message(self, format: str, *args: object) -> None:
        pass


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        # A browser that closes a page mid-download breaks the pipe: not the server's fault.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


@contextmanager
def serving(
    root: Path,
    host: str = "127.0.0.1",
    port: int = 0,
    handler_class: type[QuietHandler] = QuietHandler,
) -> Iterator[str]:
    """Serve ``root`` from a background thread with ``handler_class``; yield its base URL
    (ending in ``/``)."""
    handler = functools.partial(handler_class, directory=str(root))
    server = QuietServer((host, port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve the built site on 127.0.0.1.")
    parser.add_argument("root", type=Path, nargs="?", default=Path(__file__).parent / "site")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    with serving(args.root, port=args.port) as url:
        print(f"serving {args.root} at {url} (Ctrl-C to stop)")
        threading.Event().wait()


if __name__ == "__main__":
    main()
