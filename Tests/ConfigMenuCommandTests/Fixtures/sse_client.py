"""Reads a change stream (server-sent events) and prints each event's name and data as one JSON line, flushed.

    sse_client.py URL [TOKEN]
"""
import json
import sys
import urllib.request


def main():
    request = urllib.request.Request(sys.argv[1])
    if len(sys.argv) > 2:
        request.add_header("Authorization", "Bearer " + sys.argv[2])
    with urllib.request.urlopen(request, timeout=120) as response:
        event, data = None, []
        for raw in response:
            line = raw.decode("utf-8").rstrip("\r\n")
            if line == "":
                if event is not None or data:
                    print(json.dumps({"event": event, "data": "\n".join(data)}), flush=True)
                event, data = None, []
            elif line.startswith(":"):
                continue
            elif line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].strip())


if __name__ == "__main__":
    main()
