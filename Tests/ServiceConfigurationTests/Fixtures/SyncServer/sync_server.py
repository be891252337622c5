#!/usr/bin/env python3
"""A small HTTP server for the server-values sync tests, on Python's standard library only.

usage: sync_server.py FOLDER

Listens on 127.0.0.1 on a port the OS picks and prints "PORT <n>" on its first line of output. It exits when its
standard input closes (so it never outlives the test that started it) or on SIGTERM.

The values live in FOLDER/values.json (any bytes; the test writes them). Every request is appended to
FOLDER/requests.log as one JSON line: {"path", "ifNoneMatch", "ifModifiedSince"}.

Paths:
  /values.json                    200 with an ETag (a hash of the bytes) and Last-Modified (the file's time);
                                  304 when If-None-Match matches, or when there is no If-None-Match and
                                  If-Modified-Since is not older than the file
  /etag-only/values.json          the same with an ETag only
  /last-modified-only/values.json the same with Last-Modified only (what `python3 -m http.server` does)
  /plain/values.json              no validators: always 200

What /values.json (and the variants) answer can be switched while a test runs by writing one word to
FOLDER/mode (an empty or missing file means "normal"):
  500 | 404 | 503 ...   that status, with a short text body
  slow                  accepts the request and never answers
  slow-body             sends the headers and a third of the body, then never sends the rest
  truncated             announces the whole body, sends a third of it, and closes the connection
  garbage               200 application/json, a body that is not JSON
  array                 200 application/json, a JSON array of strings
  number                200 application/json, an object with a number value
  wrong-type            200 text/html, the values file as the body
  huge                  200 application/json, Content-Length 50 MB, streamed until the client gives up
  huge-chunked          200 application/json, 50 MB without a Content-Length (closed at the end)
  reset                 closes the connection with a TCP reset before answering
The same behaviours are also available directly at /mode/<word> (for example /mode/garbage).
"""

import email.utils
import hashlib
import http.server
import json
import os
import signal
import socket
import struct
import sys
import threading
import time

FOLDER = sys.argv[1]
VALUES = os.path.join(FOLDER, "values.json")
MODE = os.path.join(FOLDER, "mode")
LOG = os.path.join(FOLDER, "requests.log")
LOG_LOCK = threading.Lock()
STOP = threading.Event()


def read(path, default=b""):
    try:
        with open(path, "rb") as file:
            return file.read()
    except FileNotFoundError:
        return default


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def log_request_line(self):
        entry = {
            "path": self.path,
            "ifNoneMatch": self.headers.get("If-None-Match"),
            "ifModifiedSince": self.headers.get("If-Modified-Since"),
        }
        with LOG_LOCK:
            with open(LOG, "a") as file:
                file.write(json.dumps(entry) + "\n")

    def send(self, status, body, content_type="application/json", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if body:
            self.wfile.write(body)

    def hang(self):
        STOP.wait(60)
        self.close_connection = True

    def do_GET(self):
        self.log_request_line()
        path = self.path.split("?")[0]
        if path.startswith("/mode/"):
            return self.answer(path[len("/mode/"):], validators="both")
        variants = {
            "/values.json": "both",
            "/etag-only/values.json": "etag",
            "/last-modified-only/values.json": "last-modified",
            "/plain/values.json": "none",
        }
        if path not in variants:
            return self.send(404, b"no such path\n", "text/plain")
        mode = read(MODE).decode().strip() or "normal"
        self.answer(mode, validators=variants[path])

    def answer(self, mode, validators):
        body = read(VALUES, b"{}")
        if mode == "normal":
            return self.values(body, validators)
        if mode.isdigit():
            return self.send(int(mode), b"failure for the test\n", "text/plain")
        if mode == "slow":
            return self.hang()
        if mode == "slow-body":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 3])
            self.wfile.flush()
            return self.hang()
        if mode == "truncated":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body[: len(body) // 3])
            self.wfile.flush()
            self.close_connection = True
            return
        if mode == "garbage":
            return self.send(200, b"<html>\x00\xff not json at all", "application/json")
        if mode == "array":
            return self.send(200, b'["a", "b"]', "application/json")
        if mode == "number":
            return self.send(200, b'{"function.album.like.enabled": "Y", "function.chat.max": 5}', "application/json")
        if mode == "wrong-type":
            return self.send(200, body, "text/html; charset=utf-8")
        if mode in ("huge", "huge-chunked"):
            size = 50 * 1024 * 1024
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            if mode == "huge":
                self.send_header("Content-Length", str(size))
            else:
                self.send_header("Connection", "close")
            self.end_headers()
            chunk = b'{"k": "' + b"x" * (64 * 1024) + b'", '
            sent = 0
            try:
                while sent < size and not STOP.is_set():
                    piece = chunk[: size - sent]
                    self.wfile.write(piece)
                    sent += len(piece)
            except OSError:
                pass
            self.close_connection = True
            return
        if mode == "reset":
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            self.connection.close()
            return
        self.send(400, ("unknown mode " + mode + "\n").encode(), "text/plain")

    def values(self, body, validators):
        headers = []
        etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
        try:
            modified = int(os.stat(VALUES).st_mtime)
        except FileNotFoundError:
            modified = 0
        last_modified = email.utils.formatdate(modified, usegmt=True)
        if validators in ("both", "etag"):
            headers.append(("ETag", etag))
        if validators in ("both", "last-modified"):
            headers.append(("Last-Modified", last_modified))
        if_none_match = self.headers.get("If-None-Match")
        if_modified_since = self.headers.get("If-Modified-Since")
        not_modified = False
        if if_none_match is not None and validators in ("both", "etag"):
            not_modified = etag in [tag.strip() for tag in if_none_match.split(",")]
        elif if_modified_since is not None and validators in ("both", "last-modified"):
            try:
                since = email.utils.parsedate_to_datetime(if_modified_since).timestamp()
                not_modified = modified <= since
            except (TypeError, ValueError):
                not_modified = False
        if not_modified:
            self.send_response(304)
            for name, value in headers:
                self.send_header(name, value)
            self.end_headers()
            return
        self.send(200, body, "application/json", headers)

    def finish(self):
        try:
            super().finish()
        except OSError:
            pass


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass


def main():
    # A test runner may have blocked signals in the thread that started this process; take the defaults back so
    # SIGTERM ends it.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    server = Server(("127.0.0.1", 0), Handler)
    print("PORT", server.server_address[1], flush=True)

    def watch_stdin():
        try:
            sys.stdin.buffer.read()
        finally:
            STOP.set()
            server.shutdown()

    threading.Thread(target=watch_stdin, daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.05)
    finally:
        STOP.set()
        server.server_close()


if __name__ == "__main__":
    main()
