"""Hostile clients for the serve tests, on raw sockets. Prints one JSON line per probe: the status answered (or
null when the server closed without answering) and the first bytes of the body.

    hostile_client.py PORT probe...

Probes: garbage, binary, no-colon, bad-escape, huge-length, many-fields, long-head, chunked, wrong-method,
bad-json, early-close, preflight (a browser's CORS request), flood:COUNT, and hang:SECONDS (a connection that
sends half a request line and waits; printed when it ends).
"""
import json
import socket
import sys
import threading
import time

PORT = int(sys.argv[1])


def exchange(payload, wait=10):
    with socket.create_connection(("127.0.0.1", PORT), timeout=wait) as connection:
        connection.sendall(payload)
        received = b""
        try:
            while True:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                received += chunk
        except (ConnectionResetError, socket.timeout):
            pass
    if not received.startswith(b"HTTP/1.1 "):
        return {"status": None, "body": received[:200].decode("latin-1")}
    head, _, body = received.partition(b"\r\n\r\n")
    return {"status": int(head.split(b" ")[1]), "body": body[:300].decode("utf-8", "replace"),
            "head": head.decode("latin-1")}


def request(line, headers=(), body=b""):
    text = line + "\r\n" + "".join(h + "\r\n" for h in headers) + "\r\n"
    return text.encode("latin-1") + body


PROBES = {
    "garbage": lambda: exchange(b"\x16\x03\x01\x02\x00hello there\r\n\r\n"),
    "binary": lambda: exchange(b"POST /ofrep/v1/evaluate/flags HTTP/1.1\r\nX: \xff\xfe\r\n\r\n"),
    "no-colon": lambda: exchange(request("POST /ofrep/v1/evaluate/flags HTTP/1.1", ["Host 127.0.0.1"])),
    "bad-escape": lambda: exchange(request("POST /ofrep/v1/evaluate/flags/%zz HTTP/1.1")),
    "huge-length": lambda: exchange(request("POST /ofrep/v1/evaluate/flags HTTP/1.1",
                                            ["Content-Length: 99999999999"])),
    "many-fields": lambda: exchange(request("POST /ofrep/v1/evaluate/flags HTTP/1.1",
                                            ["X-%d: y" % i for i in range(200)])),
    "long-head": lambda: exchange(request("POST /ofrep/v1/evaluate/flags HTTP/1.1", ["X: " + "a" * 40000])),
    "chunked": lambda: exchange(request("POST /ofrep/v1/evaluate/flags HTTP/1.1",
                                        ["Transfer-Encoding: chunked"], b"2\r\n{}\r\n0\r\n\r\n")),
    "wrong-method": lambda: exchange(request("GET /ofrep/v1/evaluate/flags HTTP/1.1")),
    "bad-json": lambda: exchange(request("POST /ofrep/v1/evaluate/flags HTTP/1.1", ["Content-Length: 5"],
                                         b"{nope")),
    "early-close": lambda: early_close(),
    "preflight": lambda: exchange(request("OPTIONS /ofrep/v1/evaluate/flags HTTP/1.1",
                                          ["Origin: http://qa.example", "Access-Control-Request-Method: POST"])),
}


def early_close():
    with socket.create_connection(("127.0.0.1", PORT), timeout=10) as connection:
        connection.sendall(request("POST /ofrep/v1/evaluate/flags HTTP/1.1", ["Content-Length: 100"], b"{"))
    return {"status": None, "body": "closed by the client"}


def flood(count):
    statuses = {}
    for _ in range(count):
        status = exchange(request("POST /ofrep/v1/evaluate/flags HTTP/1.1", ["Content-Length: 2"], b"{}"))["status"]
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    return {"status": "flood", "body": json.dumps(statuses, sort_keys=True)}


def hang(seconds):
    connection = socket.create_connection(("127.0.0.1", PORT), timeout=seconds + 30)
    connection.sendall(b"POST /ofrep/v1/eval")
    started = time.time()
    try:
        received = connection.recv(65536)
    except socket.timeout:
        received = b""
    connection.close()
    status = int(received.split(b" ")[1]) if received.startswith(b"HTTP/1.1 ") else None
    return {"status": status, "body": "answered after %.1f s" % (time.time() - started)}


def main():
    threads = []
    for probe in sys.argv[2:]:
        if probe.startswith("hang:"):
            seconds = float(probe[5:])
            thread = threading.Thread(target=lambda: print(json.dumps({"probe": "hang", **hang(seconds)}),
                                                           flush=True))
            thread.start()
            threads.append(thread)
            time.sleep(0.2)
            continue
        if probe.startswith("flood:"):
            result = flood(int(probe[6:]))
        else:
            result = PROBES[probe]()
        print(json.dumps({"probe": probe, **result}), flush=True)
    for thread in threads:
        thread.join()


if __name__ == "__main__":
    main()
