#!/usr/bin/env python3
"""A proxy in front of a real etcd's JSON gateway that can leave the changes it passes on unanswered.

Usage: etcd_proxy.py FOLDER UPSTREAM_PORT

Listens on a loopback port the OS picks, prints "PORT <n>", and serves until its standard input closes. Each
connection carries one HTTP/1.1 request (the client sends `Connection: close`); it is passed to etcd on
127.0.0.1:UPSTREAM_PORT and etcd's answer is passed back as it arrives (a watch streams). The file FOLDER/mode says
what happens to requests that change etcd (/v3/kv/txn, /v3/kv/put, /v3/kv/deleterange):

  (empty or missing)  passed on and answered, like every other request
  hold                passed on to etcd, which makes the change, but its answer is never passed back: the client
                      times out although the change was made
  drop                never passed on: the client times out and nothing changed

Each held or dropped request is logged as a line in FOLDER/requests.log ("hold /v3/kv/txn", "drop /v3/kv/txn").
Standard library only.
"""
import os
import socket
import sys
import threading

FOLDER = sys.argv[1]
UPSTREAM = ("127.0.0.1", int(sys.argv[2]))
CHANGES = ("/v3/kv/txn", "/v3/kv/put", "/v3/kv/deleterange")
log_lock = threading.Lock()


def mode():
    try:
        with open(os.path.join(FOLDER, "mode")) as file:
            return file.read().strip()
    except OSError:
        return ""


def log(line):
    with log_lock, open(os.path.join(FOLDER, "requests.log"), "a") as file:
        file.write(line + "\n")


def read_request(client):
    """The whole request (head and body), and its path; None when the client closed first."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = client.recv(65536)
        if not chunk:
            return None, None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = client.recv(65536)
        if not chunk:
            return None, None
        body += chunk
    path = head.split(b"\r\n")[0].split(b" ")[1].decode("latin-1")
    return head + b"\r\n\r\n" + body, path


def wait_for_close(client):
    """Holds the connection open, answering nothing, until the client gives up."""
    try:
        while client.recv(65536):
            pass
    except OSError:
        pass


def serve(client):
    try:
        request, path = read_request(client)
        if request is None:
            return
        current = mode()
        changes = path in CHANGES
        if changes and current == "drop":
            log("drop " + path)
            wait_for_close(client)
            return
        upstream = socket.create_connection(UPSTREAM)
        try:
            upstream.sendall(request)
            if changes and current == "hold":
                log("hold " + path)
                # etcd makes the change; its answer is read and thrown away.
                while upstream.recv(65536):
                    pass
                wait_for_close(client)
                return
            while True:
                chunk = upstream.recv(65536)
                if not chunk:
                    break
                client.sendall(chunk)
        finally:
            upstream.close()
    except OSError:
        pass
    finally:
        client.close()


def accept(listener):
    while True:
        client, _ = listener.accept()
        threading.Thread(target=serve, args=(client,), daemon=True).start()


def main():
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    threading.Thread(target=accept, args=(listener,), daemon=True).start()
    print("PORT %d" % listener.getsockname()[1], flush=True)
    # Ends when the test process's end of standard input closes.
    sys.stdin.read()


if __name__ == "__main__":
    main()
