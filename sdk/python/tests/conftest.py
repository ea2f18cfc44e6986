"""A real HTTP server on 127.0.0.1 that answers what the test scripts (409/429/503, then 200, or a
dropped connection): the client under test is the one integrators get, unmocked."""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass
class Scripted:
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    raw: bytes | None = None
    drop: bool = False
    """Close the connection without answering (a network error for the client)."""


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class ScriptedServer:
    base_url: str
    script: list[Scripted] = field(default_factory=list)
    seen: list[Seen] = field(default_factory=list)


def error_body(tag: str, **extra: Any) -> dict[str, Any]:
    return {
        "_tag": tag,
        "type": tag,
        "message": f"{tag} happened",
        "docs_url": f"http://localhost/docs/errors#{tag}",
        "request_id": str(uuid.uuid4()),
        **extra,
    }


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    state = ScriptedServer(base_url="")

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def _answer(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length) if length else b""
            headers = {k.lower(): v for k, v in self.headers.items()}
            state.seen.append(Seen(self.command, self.path, headers, body))
            step = state.script.pop(0) if state.script else Scripted(500, error_body("InternalError"))
            if step.drop:
                self.close_connection = True
                self.connection.shutdown(2)
                return
            payload = step.raw if step.raw is not None else json.dumps(step.body or {}).encode()
            self.send_response(step.status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            for name, value in step.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)

        do_GET = _answer
        do_POST = _answer

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    state.base_url = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()
