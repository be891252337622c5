#!/usr/bin/env python3
"""An OFREP bulk-evaluation endpoint that misbehaves on request, on Python's standard library only: for what the
real OFREP server of the tests (fast-feature) cannot be made to do (429 with Retry-After, a body that is not an
OFREP answer).

usage: ofrep_fixture.py FOLDER

Listens on 127.0.0.1 on a port the OS picks and prints "PORT <n>" first. Exits when its standard input closes or on
SIGTERM. POST /ofrep/v1/evaluate/flags answers FOLDER/body (any bytes) as application/json with an ETag (a hash of
the bytes), or 304 when If-None-Match matches. Every request is appended to FOLDER/requests.log as one JSON line:
{"path", "ifNoneMatch", "body"}. FOLDER/mode (one word; empty or missing: normal) switches the answer:
  429:N      429 with Retry-After: N and {"errorDetails": "slow down"}
  503:N      503 with Retry-After: N
  later:T    429 with Retry-Later: T (the header and ISO 8601 form the OFREP OpenAPI file names)
  400        400 with {"errorCode": "INVALID_CONTEXT", "errorDetails": "country must be a string"}
"""

import hashlib
import http.server
import json
import os
import signal
import sys
import threading

FOLDER = sys.argv[1]
LOCK = threading.Lock()


def read(name):
    try:
        with open(os.path.join(FOLDER, name), "rb") as file:
            return file.read()
    except FileNotFoundError:
        return b""


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        sent = self.rfile.read(length).decode("utf-8", "replace")
        with LOCK:
            with open(os.path.join(FOLDER, "requests.log"), "a") as log:
                log.write(json.dumps({"path": self.path, "ifNoneMatch": self.headers.get("If-None-Match"),
                                      "body": sent}) + "\n")
        mode = read("mode").decode().strip()
        if mode.startswith("429:") or mode.startswith("503:"):
            status, wait = mode.split(":")
            return self.answer(int(status), b'{"errorDetails": "slow down"}',
                               [("Content-Type", "application/json"), ("Retry-After", wait)])
        if mode.startswith("later:"):
            return self.answer(429, b"", [("Retry-Later", mode[len("later:"):])])
        if mode == "400":
            return self.answer(400, b'{"errorCode": "INVALID_CONTEXT", "errorDetails": "country must be a string"}',
                               [("Content-Type", "application/json")])
        if self.path != "/ofrep/v1/evaluate/flags":
            return self.answer(404)
        body = read("body")
        etag = '"%s"' % hashlib.sha256(body).hexdigest()[:16]
        if self.headers.get("If-None-Match") == etag:
            return self.answer(304, headers=[("ETag", etag)])
        self.answer(200, body, [("Content-Type", "application/json"), ("ETag", etag)])


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("PORT %d" % server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    sys.stdin.read()
    os._exit(0)


main()
