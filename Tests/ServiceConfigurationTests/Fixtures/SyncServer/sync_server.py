#!/usr/bin/env python3
"""A small HTTP server for the server-values sync tests, on Python's standard library only.

usage: sync_server.py FOLDER

Listens on 127.0.0.1 on a port the OS picks and prints "PORT <n>" on its first line of output. It exits when its
standard input closes (so it never outlives the test that started it) or on SIGTERM.

The values live in FOLDER/values.json (any bytes; the test writes them). Every request is appended to
FOLDER/requests.log as one JSON line: {"path", "host", "ifNoneMatch", "ifModifiedSince", "authorization",
"cookie"}.

Paths:
  /values.json                    200 with an ETag (a hash of the bytes) and Last-Modified (the file's time);
                                  304 when If-None-Match matches, or when there is no If-None-Match and
                                  If-Modified-Since is not older than the file
  /etag-only/values.json          the same with an ETag only
  /last-modified-only/values.json the same with Last-Modified only (what `python3 -m http.server` does)
  /plain/values.json              no validators: always 200
  /redirect/same                  302 to /values.json (the same server)
  /redirect/other-host            302 to http://localhost:PORT/values.json (the same server under another name)
  /redirect/https                 302 to https://127.0.0.1:PORT/values.json (another scheme)
  /redirect/loop                  302 to itself, for ever

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
Hostile answers, written byte by byte as a raw socket server would (the request itself was read normally):
  trailers              200, chunked, the values, then a trailer: 0 / X-Trailer: 1
  continue              "100 Continue", then the normal 200
  length-max            200 with Content-Length 9223372036854775807 (2^63-1) and the body {}, then closes
  length-2-63           the same with Content-Length 9223372036854775808 (2^63)
  length-huge           the same with Content-Length 99999999999999999999999999
  not-modified          304 with an ETag, whatever the request sent
  gzip-bomb             200, Content-Encoding gzip, 6 GiB of zeros in about 6 MB, sent as fast as it is read
  gzip-drip             200, Content-Encoding gzip, the values gzipped, one byte every 0.2 s
  drip-headers          a status line, then one byte of headers every 0.2 s, for ever
  huge-header           200 with one header line of 1 MiB, then the values
  many-headers          200 with 100,000 header lines, then the values
  endless-headers       a status line, then header lines as fast as they are read, for ever
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
import zlib

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
            "host": self.headers.get("Host"),
            "ifNoneMatch": self.headers.get("If-None-Match"),
            "ifModifiedSince": self.headers.get("If-Modified-Since"),
            "authorization": self.headers.get("Authorization"),
            "cookie": self.headers.get("Cookie"),
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
        if path.startswith("/redirect/"):
            return self.redirect(path[len("/redirect/"):])
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
        if mode in HOSTILE:
            return self.hostile(mode, body)
        if mode == "reset":
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            self.connection.close()
            return
        self.send(400, ("unknown mode " + mode + "\n").encode(), "text/plain")

    def redirect(self, kind):
        port = self.server.server_address[1]
        targets = {
            "same": "/values.json",
            "other-host": "http://localhost:%d/values.json" % port,
            "https": "https://127.0.0.1:%d/values.json" % port,
            "loop": "/redirect/loop",
        }
        if kind not in targets:
            return self.send(404, b"no such redirect\n", "text/plain")
        self.send(302, b"", "text/plain", [("Location", targets[kind])])

    def raw(self, data):
        """Writes bytes as they are; false once the client is gone."""
        try:
            self.wfile.write(data)
            self.wfile.flush()
            return True
        except OSError:
            return False

    def drip(self, data, pause=0.2):
        for index in range(len(data)):
            if STOP.is_set() or not self.raw(data[index:index + 1]):
                return False
            time.sleep(pause)
        return True

    def hostile(self, mode, body):
        self.close_connection = True
        json_type = b"Content-Type: application/json\r\n"
        if mode == "trailers":
            self.raw(b"HTTP/1.1 200 OK\r\n" + json_type + b"Transfer-Encoding: chunked\r\nTrailer: X-Trailer\r\n\r\n"
                     + b"%x\r\n" % len(body) + body + b"\r\n0\r\nX-Trailer: 1\r\n\r\n")
        elif mode == "continue":
            self.raw(b"HTTP/1.1 100 Continue\r\n\r\n")
            self.close_connection = False
            self.values(body, "both")
        elif mode.startswith("length-"):
            length = {"length-max": b"9223372036854775807", "length-2-63": b"9223372036854775808",
                      "length-huge": b"99999999999999999999999999"}[mode]
            self.raw(b"HTTP/1.1 200 OK\r\n" + json_type + b"Content-Length: " + length + b"\r\nConnection: close\r\n\r\n{}")
        elif mode == "not-modified":
            self.raw(b'HTTP/1.1 304 Not Modified\r\nETag: "a-lie"\r\nConnection: close\r\n\r\n')
        elif mode == "gzip-bomb":
            if not self.raw(b"HTTP/1.1 200 OK\r\n" + json_type + b"Content-Encoding: gzip\r\nConnection: close\r\n\r\n"):
                return
            first, block = gzip_blocks()
            if not self.raw(first):
                return
            for _ in range(6 * 1024 - 1):  # 6 GiB of zeros, 1 MiB per block
                if STOP.is_set() or not self.raw(block):
                    return
        elif mode == "gzip-drip":
            if self.raw(b"HTTP/1.1 200 OK\r\n" + json_type + b"Content-Encoding: gzip\r\nConnection: close\r\n\r\n"):
                self.drip(gzip_whole(body))
        elif mode == "drip-headers":
            if self.raw(b"HTTP/1.1 200 OK\r\n"):
                self.drip(b"X-Slow: " + b"a" * 100000)
        elif mode == "huge-header":
            self.raw(b"HTTP/1.1 200 OK\r\n" + json_type + b"X-Big: " + b"a" * (1 << 20) + b"\r\n"
                     + b"Content-Length: %d\r\n\r\n" % len(body) + body)
        elif mode == "many-headers":
            lines = b"".join(b"X-Header-%d: v\r\n" % index for index in range(100000))
            self.raw(b"HTTP/1.1 200 OK\r\n" + json_type + lines + b"Content-Length: %d\r\n\r\n" % len(body) + body)
        elif mode == "endless-headers":
            if not self.raw(b"HTTP/1.1 200 OK\r\n"):
                return
            line = b"X-More: " + b"b" * 1000 + b"\r\n"
            while not STOP.is_set() and self.raw(line * 64):
                pass

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


HOSTILE = {"trailers", "continue", "length-max", "length-2-63", "length-huge", "not-modified", "gzip-bomb",
           "gzip-drip", "drip-headers", "huge-header", "many-headers", "endless-headers"}


def gzip_whole(data):
    compressor = zlib.compressobj(wbits=31)
    return compressor.compress(data) + compressor.flush()


GZIP_BLOCKS = []


def gzip_blocks():
    """A gzip stream of zeros in 1 MiB blocks: the first (with the gzip header), then one that can be repeated (after
    a full flush the compressor starts afresh, so the same input gives the same bytes)."""
    if not GZIP_BLOCKS:
        zeros = bytes(1 << 20)
        compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
        first = compressor.compress(zeros) + compressor.flush(zlib.Z_FULL_FLUSH)
        block = compressor.compress(zeros) + compressor.flush(zlib.Z_FULL_FLUSH)
        GZIP_BLOCKS.extend([first, block])
    return GZIP_BLOCKS[0], GZIP_BLOCKS[1]


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
