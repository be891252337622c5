"""A TLS-terminating proxy for the remote store's https test: accepts TLS on a free loopback port (printed on the
first line), forwards each connection's bytes both ways to 127.0.0.1:TARGET_PORT.

    python3 tls_proxy.py TARGET_PORT CERTIFICATE KEY
"""

import socket
import ssl
import sys
import threading


def pipe(source, destination):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            destination.sendall(data)
    except OSError:
        pass
    finally:
        for end in (source, destination):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def handle(client, context, target):
    try:
        secure = context.wrap_socket(client, server_side=True)
    except (OSError, ssl.SSLError):
        client.close()
        return
    try:
        upstream = socket.create_connection(("127.0.0.1", target))
    except OSError:
        secure.close()
        return
    threading.Thread(target=pipe, args=(secure, upstream), daemon=True).start()
    pipe(upstream, secure)


def main():
    target, certificate, key = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    print(listener.getsockname()[1], flush=True)
    while True:
        client, _ = listener.accept()
        threading.Thread(target=handle, args=(client, context, target), daemon=True).start()


main()
