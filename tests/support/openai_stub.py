"""A scripted OpenAI-compatible server on loopback: /v1/chat/completions with tool calls, plain and SSE, and faults.

Each request takes the next reply of the script (the last one repeats), so a test states exactly what the
model "says" and the real `openai` client, pydantic-ai's OpenAIChatModel included, does the rest.
"""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Reply:
    tool_calls: list[tuple[str, str]] = field(default_factory=list)  # (name, JSON arguments exactly as sent)
    content: str | None = None
    status: int = 200
    delay_s: float = 0.0
    babble_s: float = 0.0  # stream text deltas for this long without finishing (a model that never stops)


def tool(name: str, args: dict | str) -> Reply:
    return Reply(tool_calls=[(name, args if isinstance(args, str) else json.dumps(args))])


def _message(reply: Reply) -> dict:
    calls = [{"id": f"call_{i}", "type": "function", "function": {"name": n, "arguments": a}}
             for i, (n, a) in enumerate(reply.tool_calls)]
    return {"role": "assistant", "content": reply.content, **({"tool_calls": calls} if calls else {})}


def _completion(reply: Reply, model: str) -> dict:
    return {"id": "chatcmpl-stub", "object": "chat.completion", "created": int(time.time()), "model": model,
            "choices": [{"index": 0, "message": _message(reply), "finish_reason": "tool_calls" if reply.tool_calls else "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}}


def _chunks(reply: Reply, model: str) -> list[dict]:
    """Streamed the way OpenAI does: name first, then the arguments in small pieces, then the finish reason."""
    def chunk(delta: dict, finish: str | None = None) -> dict:
        return {"id": "chatcmpl-stub", "object": "chat.completion.chunk", "created": int(time.time()), "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    out = [chunk({"role": "assistant", "content": reply.content or ""})]
    for i, (name, args) in enumerate(reply.tool_calls):
        out.append(chunk({"tool_calls": [{"index": i, "id": f"call_{i}", "type": "function",
                                          "function": {"name": name, "arguments": ""}}]}))
        out += [chunk({"tool_calls": [{"index": i, "function": {"arguments": args[s:s + 16]}}]}) for s in range(0, len(args), 16)]
    out.append(chunk({}, "tool_calls" if reply.tool_calls else "stop"))
    return out


class OpenAIStub:
    def __init__(self, *script: Reply) -> None:
        self.script = list(script)
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> OpenAIStub:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _next(self, body: dict) -> Reply:
        with self._lock:
            self.requests.append(body)
            return self.script[min(len(self.requests) - 1, len(self.script) - 1)]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep test output clean
                pass

            def _send(self, status: int, body: bytes, kind: str = "application/json") -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:  # noqa: N802 — http.server's naming
                if not self.path.endswith("/chat/completions"):
                    self._send(404, b'{"error": {"message": "not found"}}')
                    return
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                reply = stub._next(body)
                try:
                    time.sleep(reply.delay_s)
                    if reply.status != 200:
                        self._send(reply.status, json.dumps({"error": {"message": "stub failure", "type": "server_error"}}).encode())
                    elif reply.babble_s:
                        self._babble(reply, body)
                    elif body.get("stream"):
                        events = "".join(f"data: {json.dumps(c)}\n\n" for c in _chunks(reply, body.get("model", "stub")))
                        self._send(200, (events + "data: [DONE]\n\n").encode(), "text/event-stream")
                    else:
                        self._send(200, json.dumps(_completion(reply, body.get("model", "stub"))).encode())
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test): nothing to answer

            def _babble(self, reply: Reply, body: dict) -> None:
                """Chunked SSE (or, unstreamed, a body that never completes) until the client gives up."""
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream" if body.get("stream") else "application/json")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                piece = {"id": "chatcmpl-stub", "object": "chat.completion.chunk", "created": 0, "model": "stub",
                         "choices": [{"index": 0, "delta": {"content": "and the rule says "}, "finish_reason": None}]}
                data = f"data: {json.dumps(piece)}\n\n".encode() if body.get("stream") else b" "
                until = time.monotonic() + reply.babble_s
                while time.monotonic() < until:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                    self.wfile.flush()
                    time.sleep(0.02)

        return Handler
