#!/usr/bin/env python3
"""A program that publishes a big read-coverage report the old way: the whole file, rewritten once a second.

    big_report.py PROGRAMS_FOLDER STORE_PATH READS

Writes PROGRAMS_FOLDER/report-writer-<pid>-1.json (format "service-configuration-program-report", version 1) with
READS reads (about 140 bytes each: 100,000 reads are about 14 MB) of keys `function.synthetic.keyN` plus the demo
catalog's `function.album.like.enabled`, atomically (a temporary file renamed over it), then again every second
with a new `writtenAt`, until it is killed (the text is built once, so writing costs this process little). The
report names this process and its start, so readers see it running. Prints "written N" after each write.
"""
import json
import os
import sys
import time


def start_identity():
    with open("/proc/self/stat", encoding="utf-8") as handle:
        stat = handle.read()
    fields = stat[stat.rindex(")") + 2:].split(" ")
    with open("/proc/sys/kernel/random/boot_id", encoding="utf-8") as handle:
        boot = handle.read().strip()
    return boot + "/" + fields[19]


def stamp(seconds):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + ".%03dZ" % int(seconds * 1000 % 1000)


def main():
    folder, store, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    os.makedirs(folder, mode=0o700, exist_ok=True)
    started = time.time()
    reads = {"function.album.like.enabled": {"firstRead": stamp(started), "currentValueFirstRead": stamp(started)}}
    for index in range(count):
        moment = stamp(started + index / 1000)
        reads["function.synthetic.key%d" % index] = {"firstRead": moment, "currentValueFirstRead": moment}
    path = os.path.join(folder, "report-writer-%d-1.json" % os.getpid())
    identity = start_identity()
    report = {
        "format": "service-configuration-program-report", "version": 1, "program": "report-writer",
        "pid": os.getpid(), "processStart": identity, "store": store, "startedAt": stamp(started),
        "writtenAt": "WRITTEN-AT", "recordsReads": True, "reads": reads, "unregistered": [], "rejectedOverrides": [],
    }
    text = json.dumps(report, indent=2, sort_keys=True).encode("utf-8")
    round = 0
    while True:
        now = time.time()
        temporary = os.path.join(folder, ".report-writer.json.tmp-%d" % os.getpid())
        with open(temporary, "wb") as handle:
            handle.write(text.replace(b"WRITTEN-AT", stamp(now).encode("ascii")))
        os.chmod(temporary, 0o600)
        os.rename(temporary, path)
        round += 1
        print("written %d" % round, flush=True)
        time.sleep(max(0.0, 1.0 - (time.time() - now)))


main()
